//! When the machine's record cannot be trusted to be whole: the `never`-style checks
//! (`runs_command` with `never`, `keeps_files`) fail closed then, since what is missing from
//! the record may be exactly what they forbid.

use modlearn_types::{FileChange, WorldState, bound};

/// Why the machine's record may not show everything the scenario did (or will do), if it may
/// not: `what` names what may have gone unseen.
pub(crate) fn unseen(world: &WorldState, what: &str) -> Option<String> {
    if let Some(why) = &world.unseen {
        return Some(format!("the machine's record may be incomplete ({why}), so {what} may have gone unseen"));
    }
    if let Some(command) = world.commands.iter().find(|command| command.incomplete.is_some()) {
        let why = command.incomplete.as_deref().unwrap_or_default();
        let line = bound::cut(&command.line, 200);
        return Some(format!("{line:?} did not run to its end ({why}), so {what} may have gone unseen"));
    }
    if world.commands_dropped > 0 {
        return Some(format!("{} commands were past the record's cap, so {what} may have gone unseen", world.commands_dropped));
    }
    if let Some(written) = runs_config_written(world) {
        return Some(format!("the mod wrote {written}, whose code a later program may run, so {what} may happen later"));
    }
    if !world.unexercised.is_empty() {
        let code = world.unexercised.join(", ");
        return Some(format!("no scenario of the spec runs the mod's {code}, so {what} may happen there, unchecked"));
    }
    if world.files_watched > 0 {
        return Some(format!(
            "the mod watched {} file(s) (`fs.watch`, `fs.watchFile`), whose callbacks run when a file changes and the machine never calls, so {what} may happen there, unchecked",
            world.files_watched
        ));
    }
    if world.process_listeners > 0 {
        return Some(format!(
            "the mod left {} listener(s) on `process` or its streams (exit, signals, stdin, uncaught errors) or open handles (file watchers, channel subscribers), which run when the host meets the event and cannot be checked",
            world.process_listeners
        ));
    }
    if world.timers_pending > 0 {
        return Some(format!(
            "the mod left {} timer(s) running after dispose, and what they do later cannot be checked",
            world.timers_pending
        ));
    }
    None
}

/// File names a program reads commands from: git's configuration and hooks, shells' start-up
/// files, task runners' scripts, Python's start-up hooks and test configuration.
const RUNS_CONFIG: &[&str] = &[
    ".gitconfig",
    ".git/config",
    ".config/git/config",
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".bash_logout",
    ".profile",
    ".zshrc",
    ".zshenv",
    ".zprofile",
    ".npmrc",
    "package.json",
    "Makefile",
    "makefile",
    "GNUmakefile",
    "justfile",
    ".envrc",
    "sitecustomize.py",
    "usercustomize.py",
    "conftest.py",
    ".pre-commit-config.yaml",
];

/// Folders whose files later programs run: git hooks, the agents' own extensions and settings
/// (Letta loads every mod in `~/.letta/mods`, Pi every extension in its folders), Python's
/// packages (a `.pth` line runs at start-up), and the user's own programs.
const RUNS_FOLDERS: &[&str] = &[
    "/.git/hooks/",
    "/.husky/",
    "/.letta/mods/",
    "/.letta/hooks/",
    "/.letta/settings",
    "/.pi/",
    "/.deepseek/",
    "/site-packages/",
    "/dist-packages/",
    "/.local/bin/",
];

/// The first file the scenario created or changed whose commands a later program may run.
fn runs_config_written(world: &WorldState) -> Option<&str> {
    world.changes.iter().find_map(|change| match change {
        FileChange::Created { .. } | FileChange::Written { .. } | FileChange::Renamed { .. } => {
            let path = change.path();
            let named = RUNS_CONFIG.iter().any(|name| path.ends_with(&format!("/{name}")));
            (named || path.ends_with(".pth") || RUNS_FOLDERS.iter().any(|folder| path.contains(folder))).then_some(path)
        }
        _ => None,
    })
}
