//! Builds a machine's tree inside the sandbox from its plan: the home directory's files, the
//! workspace as a git repository made by the machine's own git, every file dated at the start
//! of the virtual clock (so commit ids and file times are the same on every run).

use std::path::Path;
use std::process::Command;

use crate::helper::files::set_times;
use crate::plan::{HOME, MachinePlan};
use crate::wire::USER;

/// The identity the machine's user commits as (also in `~/.gitconfig`, as a real user has it).
const EMAIL: &str = "user@modlearn.invalid";

pub(crate) fn build(plan: &MachinePlan, epoch_ms: f64) -> Result<(), String> {
    let write = |path: &str, text: &str| -> Result<(), String> {
        let target = Path::new(path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|error| format!("cannot make {}: {error}", parent.display()))?;
        }
        std::fs::write(target, text).map_err(|error| format!("cannot write {path}: {error}"))?;
        set_times(path, epoch_ms, epoch_ms, false).map_err(|error| format!("cannot date {path}: {error}"))
    };
    write(&format!("{HOME}/.gitconfig"), &format!("[user]\n\tname = {USER}\n\temail = {EMAIL}\n[init]\n\tdefaultBranch = main\n"))?;
    for dir in &plan.dirs {
        std::fs::create_dir_all(dir).map_err(|error| format!("cannot make {dir}: {error}"))?;
    }
    for (path, text) in &plan.files {
        write(path, text)?;
    }
    let workspace = &plan.workspace;
    let root = workspace.path.trim_end_matches('/');
    std::fs::create_dir_all(root).map_err(|error| format!("cannot make {root}: {error}"))?;
    let seconds = (epoch_ms / 1000.0).floor() as i64;
    let git = |args: &[&str]| -> Result<(), String> {
        let date = format!("@{seconds} +0000");
        let output = Command::new("/usr/bin/git")
            .arg("-C")
            .arg(root)
            .args(args)
            .env_clear()
            .env("HOME", HOME)
            .env("PATH", "/usr/bin:/bin")
            .env("LANG", "C.UTF-8")
            .env("GIT_AUTHOR_DATE", &date)
            .env("GIT_COMMITTER_DATE", &date)
            .output()
            .map_err(|error| format!("cannot run git: {error}"))?;
        if output.status.success() {
            Ok(())
        } else {
            Err(format!("`git {}` failed: {}", args.join(" "), String::from_utf8_lossy(&output.stderr).trim()))
        }
    };
    git(&["init", "-q", "-b", &workspace.branch])?;
    for commit in &workspace.commits {
        for (path, text) in &commit.files {
            write(&format!("{root}/{path}"), text)?;
        }
        git(&["add", "-A"])?;
        git(&["commit", "-q", "--allow-empty", "-m", &commit.message])?;
    }
    for (path, text) in &workspace.untracked {
        write(&format!("{root}/{path}"), text)?;
    }
    Ok(())
}
