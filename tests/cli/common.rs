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
        let version = regex::Regex::new(r"modlearn \d+\.\d+\.\d+( \(commit ([0-9a-f]+|unknown)\))?").unwrap();
        let text = version.replace_all(&text, "modlearn [VERSION]");
        // The clock of `run`'s progress lines.
        let clock = regex::Regex::new(r"\[\s*\d+\.\ds\]").unwrap();
        clock.replace_all(&text, "[TIME]").into_owned()
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

/// A base URL on 127.0.0.1 whose port a socket holds bound but never listening: a connection
/// there is refused, and no other test's server can be given the port while this lives (a port
/// merely found free was, and a test then reached another test's server).
pub struct Unreachable {
    fd: i32,
    pub url: String,
}

impl Drop for Unreachable {
    fn drop(&mut self) {
        // SAFETY: `fd` is the socket this value opened and nothing else closes it.
        unsafe { libc::close(self.fd) };
    }
}

pub fn unreachable_base_url() -> Unreachable {
    // SAFETY: plain socket calls on a socket this function owns, with buffers of the sizes given.
    unsafe {
        let fd = libc::socket(libc::AF_INET, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0);
        assert!(fd >= 0, "a socket");
        let mut address: libc::sockaddr_in = std::mem::zeroed();
        address.sin_family = libc::AF_INET as libc::sa_family_t;
        address.sin_addr.s_addr = u32::from_ne_bytes([127, 0, 0, 1]);
        let mut length = std::mem::size_of::<libc::sockaddr_in>() as libc::socklen_t;
        assert_eq!(libc::bind(fd, (&raw const address).cast(), length), 0, "a free port");
        assert_eq!(libc::getsockname(fd, (&raw mut address).cast(), &mut length), 0, "its address");
        Unreachable { fd, url: format!("http://127.0.0.1:{}/v1", u16::from_be(address.sin_port)) }
    }
}

/// Headless Chromium, as `scripts/bootstrap` installs it.
pub struct Chromium {
    binary: &'static str,
    profile: PathBuf,
}

/// A decoded screenshot: RGB(A) rows.
pub struct Screenshot {
    pub width: usize,
    pub height: usize,
    channels: usize,
    pixels: Vec<u8>,
}

impl Chromium {
    pub fn new(context: &TestContext) -> Chromium {
        let binary = ["chromium", "chromium-browser", "google-chrome"]
            .into_iter()
            .find(|name| Command::new(name).arg("--version").output().is_ok_and(|o| o.status.success()))
            .unwrap_or_else(|| panic!("Chromium is not installed: run scripts/bootstrap (it installs the Debian package `chromium`)"));
        Chromium { binary, profile: context.path("chromium-profile") }
    }

    fn command(&self, page: &Path, extra: &[&str]) -> Command {
        let mut command = Command::new(self.binary);
        command.args(["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run"]);
        command.arg(format!("--user-data-dir={}", self.profile.display()));
        command.args(extra).arg(format!("file://{}", page.canonicalize().unwrap().display()));
        command
    }

    /// The DOM after Chromium parsed the page.
    pub fn dom(&self, page: &Path) -> String {
        String::from_utf8_lossy(&self.command(page, &["--dump-dom"]).output().unwrap().stdout).into_owned()
    }

    /// A `width` × `height` screenshot, saved where MODLEARN_KEEP_SCREENSHOT says (to look at it by eye).
    pub fn screenshot(&self, page: &Path, width: u32, height: u32) -> Screenshot {
        let png = self.profile.with_extension("png");
        let output =
            self.command(page, &[&format!("--screenshot={}", png.display()), &format!("--window-size={width},{height}")]).output().unwrap();
        assert!(png.is_file(), "no screenshot: {}", String::from_utf8_lossy(&output.stderr));
        if let Some(keep) = std::env::var_os("MODLEARN_KEEP_SCREENSHOT") {
            std::fs::copy(&png, keep).unwrap();
        }
        let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png).unwrap()));
        let mut reader = decoder.read_info().unwrap();
        let mut pixels = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut pixels).unwrap();
        pixels.truncate(info.buffer_size());
        Screenshot { width: info.width as usize, height: info.height as usize, channels: info.color_type.samples(), pixels }
    }
}

impl Screenshot {
    fn matches(&self, x: usize, y: usize, colour: [u8; 3]) -> bool {
        let at = (y * self.width + x) * self.channels;
        self.pixels[at..at + 3].iter().zip(colour).all(|(&got, want)| got.abs_diff(want) <= 3)
    }

    /// The longest horizontal run of `colour` in any row, in pixels: how wide a bar is drawn.
    pub fn longest_run(&self, colour: [u8; 3]) -> usize {
        let mut longest = 0;
        for y in 0..self.height {
            let mut run = 0;
            for x in 0..self.width {
                run = if self.matches(x, y, colour) { run + 1 } else { 0 };
                longest = longest.max(run);
            }
        }
        longest
    }
}

/// `#rrggbb` as bytes.
pub fn rgb(hex: &str) -> [u8; 3] {
    let value = u32::from_str_radix(hex.trim_start_matches('#'), 16).unwrap();
    [(value >> 16) as u8, (value >> 8) as u8, value as u8]
}

/// Runs `command` with stdout and stderr in the files `stdout` and `stderr` (a pipe nobody
/// reads while it runs would fill and stall it), killing it after `bound`: its status, or why
/// there is none.
pub fn run_bounded(
    command: &mut Command,
    stdout: &Path,
    stderr: &Path,
    bound: std::time::Duration,
) -> Result<std::process::ExitStatus, String> {
    let file = |path: &Path| std::fs::File::create(path).map(std::process::Stdio::from).map_err(|error| error.to_string());
    let mut child = command.stdout(file(stdout)?).stderr(file(stderr)?).spawn().map_err(|error| error.to_string())?;
    let started = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().map_err(|error| error.to_string())? {
            return Ok(status);
        }
        if started.elapsed() > bound {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("did not end within {bound:?}"));
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}
