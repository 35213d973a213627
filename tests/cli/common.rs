//! Shared test context: runs the real `modlearn` binary from the repository
//! root (so paths in output read `specs/...`, `candidates/...`), in a fresh
//! temporary directory for run output, and renders output for snapshots.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A temporary directory plus the repository root.
pub struct TestContext {
    pub temp: tempfile::TempDir,
}

/// The repository root (where `specs/` and `candidates/` are).
pub fn repo_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

impl TestContext {
    pub fn new() -> TestContext {
        TestContext { temp: tempfile::tempdir().expect("temp dir") }
    }

    /// A path inside the temporary directory.
    pub fn path(&self, name: &str) -> PathBuf {
        self.temp.path().join(name)
    }

    /// `modlearn <args>` run from the repository root.
    pub fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_modlearn"));
        command.args(args).current_dir(repo_root());
        command.env_remove("MODLEARN_LOG");
        command
    }

    /// Runs `modlearn <args>` and renders exit code, stdout and stderr.
    pub fn run(&self, args: &[&str]) -> Rendered {
        self.render(self.command(args))
    }

    /// Runs a prepared command and renders exit code, stdout and stderr.
    pub fn render(&self, mut command: Command) -> Rendered {
        let output = command.output().expect("modlearn runs");
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        let code = output.status.code().unwrap_or(-1);
        let mut text = format!("exit_code: {code}\n");
        if !stdout.is_empty() {
            text.push_str(&format!("----- stdout -----\n{stdout}"));
        }
        if !stderr.is_empty() {
            text.push_str(&format!("----- stderr -----\n{stderr}"));
        }
        Rendered { code, stdout, text: self.filter(&text) }
    }

    /// Replaces machine-specific parts with placeholders.
    pub fn filter(&self, text: &str) -> String {
        let temp = self.temp.path().display().to_string();
        let canonical = self.temp.path().canonicalize().map(|p| p.display().to_string()).unwrap_or_default();
        let mut text = text.replace(&canonical, "[TEMP_DIR]").replace(&temp, "[TEMP_DIR]");
        text = text.replace(&repo_root().display().to_string(), "[REPO]");
        let version = regex::Regex::new(r"modlearn \d+\.\d+\.\d+").unwrap();
        version.replace_all(&text, "modlearn [VERSION]").into_owned()
    }
}

/// Output of one run.
pub struct Rendered {
    pub code: i32,
    pub stdout: String,
    pub text: String,
}

/// A file's text; panics naming the file.
pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// A JSON file; panics naming the file.
pub fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&read(path)).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// An OpenAI-style base URL on 127.0.0.1 where nothing listens: the port was
/// free a moment ago, so a connection is refused at once.
pub fn unreachable_base_url() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    let port = listener.local_addr().expect("its address").port();
    drop(listener);
    format!("http://127.0.0.1:{port}/v1")
}
