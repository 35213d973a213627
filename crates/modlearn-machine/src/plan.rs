//! What a candidate's machine starts with: the workspace as a git repository, files in the home
//! directory, and the environment's scripted programs.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

/// The machine a candidate's scenarios run on, before any of them ran.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MachinePlan {
    /// The working directory: a git repository.
    pub workspace: WorkspacePlan,
    /// Files by absolute path (under the home directory, the workspace or `/tmp`), their
    /// directories made as needed: the candidate's own file, a spec's kept paths.
    pub files: BTreeMap<String, String>,
    /// Directories by absolute path, made with their parents.
    pub dirs: BTreeSet<String>,
    /// Programs the environment scripts, found on `PATH` ahead of the machine's own.
    pub programs: Vec<ScriptedProgram>,
}

/// The workspace: a repository on `branch` with `commits`, then `untracked` files.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkspacePlan {
    /// Where it is (the environment's ctx `cwd`).
    pub path: String,
    /// The branch checked out.
    pub branch: String,
    /// Commits, oldest first; each adds or replaces the files it lists.
    pub commits: Vec<CommitPlan>,
    /// Files present but never committed, by path relative to the workspace.
    pub untracked: BTreeMap<String, String>,
}

/// One commit of the workspace's history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CommitPlan {
    /// Its message.
    pub message: String,
    /// Files it adds or replaces, by path relative to the workspace.
    pub files: BTreeMap<String, String>,
}

/// A program whose answers the environment fixes (`npm test`'s output), run in place of the
/// machine's own for the arguments it scripts; any other arguments reach the real program when
/// the machine has one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScriptedProgram {
    /// Its name on `PATH`.
    pub name: String,
    /// Answers, first match first.
    pub answers: Vec<ScriptedAnswer>,
}

/// One scripted answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScriptedAnswer {
    /// Which calls it answers.
    pub matches: ArgsMatch,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
    /// Exit code.
    pub exit_code: i32,
}

/// How a call's words are matched.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ArgsMatch {
    /// The arguments, joined by single spaces, are exactly these.
    Args(String),
    /// The program's name and arguments, joined by single spaces, match this (Perl-compatible)
    /// regular expression.
    Regex(String),
}

/// The home directory of the machine's one user.
pub const HOME: &str = "/home/user";
/// The machine's shared memory (`/dev/shm`), a small writable file system of its own.
pub const SHM: &str = "/dev/shm";
/// Where the candidate's file is on its machine: Letta's mods directory (also what the engine
/// shows the mod as its own path).
pub const MODS_DIR: &str = "/home/user/.letta/mods";
/// The machine's user and group id.
pub const USER_ID: u32 = 1000;
/// The workspace when the environment names no other.
pub const DEFAULT_WORKSPACE: &str = "/workspace";

impl Default for WorkspacePlan {
    /// A small project on `main` in one commit (a README, an ignore file, a source folder and
    /// its test), so that what a mod may do to a project's files has files to do it to.
    fn default() -> WorkspacePlan {
        let files = [
            ("README.md", "# workspace\n\nA small project.\n"),
            (".gitignore", "node_modules/\n"),
            ("src/app.js", "export function greet(name) {\n  return `hello, ${name}`;\n}\n"),
            (
                "test/app.test.js",
                "import { greet } from \"../src/app.js\";\n\nif (greet(\"you\") !== \"hello, you\") throw new Error(\"greet\");\n",
            ),
        ];
        WorkspacePlan {
            path: DEFAULT_WORKSPACE.to_owned(),
            branch: "main".to_owned(),
            commits: vec![CommitPlan {
                message: "Initial commit".to_owned(),
                files: files.iter().map(|(path, text)| ((*path).to_owned(), (*text).to_owned())).collect(),
            }],
            untracked: BTreeMap::new(),
        }
    }
}

impl MachinePlan {
    /// The default machine with the candidate's file (`file_name`, `source`) in [`MODS_DIR`], as
    /// Letta copies a candidate into its mods directory.
    pub fn for_candidate(file_name: &str, source: &str) -> MachinePlan {
        MachinePlan { files: BTreeMap::from([(format!("{MODS_DIR}/{file_name}"), source.to_owned())]), ..MachinePlan::default() }
    }
}

/// Why a path cannot be a machine's (not absolute, a `..` part, or outside the writable tree).
pub fn check_machine_path(path: &str, workspace: &str) -> Result<(), String> {
    if !path.starts_with('/') {
        return Err(format!("`{path}` is not an absolute path"));
    }
    if path.split('/').any(|part| part == "..") {
        return Err(format!("`{path}` has a `..` part"));
    }
    let inside = |root: &str| path == root || path.strip_prefix(root).is_some_and(|rest| rest.starts_with('/'));
    if inside(HOME) || inside(workspace) || inside("/tmp") {
        Ok(())
    } else {
        Err(format!("`{path}` is outside the machine's writable places ({HOME}, {workspace}, /tmp)"))
    }
}

/// Why a workspace cannot be where `path` says: it is a directory of its own outside the
/// system's places, or one inside the home directory or `/tmp`.
pub fn check_workspace_path(path: &str) -> Result<(), String> {
    let reserved = ["/usr", "/bin", "/sbin", "/lib", "/lib64", "/etc", "/proc", "/dev", "/home", "/tmp", "/run", "/sys"];
    if !path.starts_with('/') || path == "/" || path.split('/').skip(1).any(|part| part.is_empty() || part == ".." || part == ".") {
        return Err(format!("`{path}` is not a plain absolute directory path"));
    }
    if is_nested_workspace(path) {
        return Ok(());
    }
    match reserved.iter().find(|root| path == **root || path.starts_with(&format!("{root}/"))) {
        Some(root) => Err(format!("`{path}` is under {root}, which the machine keeps for itself")),
        None => Ok(()),
    }
}

/// Whether a workspace is a directory inside the home directory or `/tmp` (no mount of its own).
pub fn is_nested_workspace(path: &str) -> bool {
    [HOME, "/tmp"].iter().any(|root| path.strip_prefix(root).is_some_and(|rest| rest.len() > 1 && rest.starts_with('/')))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn machine_paths_stay_in_the_writable_tree() {
        assert!(check_machine_path("/home/user/.letta/mods/m.js", "/workspace").is_ok());
        assert!(check_machine_path("/workspace/src/a.ts", "/workspace").is_ok());
        assert!(check_machine_path("/tmp/x", "/workspace").is_ok());
        assert!(check_machine_path("/etc/passwd", "/workspace").unwrap_err().contains("outside"));
        assert!(check_machine_path("/home/user/../root/x", "/workspace").unwrap_err().contains(".."));
        assert!(check_machine_path("relative", "/workspace").unwrap_err().contains("absolute"));
        assert!(check_machine_path("/workspaces/x", "/workspace").is_err());
        assert!(check_workspace_path("/repo").is_ok());
        assert!(check_workspace_path("/srv/app").is_ok());
        assert!(check_workspace_path("/usr/src").unwrap_err().contains("/usr"));
        assert!(check_workspace_path("/home/user/repo").is_ok());
        assert!(check_workspace_path("/home/other").unwrap_err().contains("/home"));
        assert!(check_workspace_path("/tmp").unwrap_err().contains("/tmp"));
        assert!(check_workspace_path("/").is_err());
    }
}
