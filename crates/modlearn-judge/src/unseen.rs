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
        return Some(format!("the mod wrote {written}, which a later command may read as commands, so {what} may happen later"));
    }
    if !world.unexercised.is_empty() {
        let events = world.unexercised.iter().map(|event| format!("`{event}`")).collect::<Vec<_>>().join(", ");
        return Some(format!("the mod handles {events}, which no scenario of the spec dispatches, so {what} may happen there, unchecked"));
    }
    if world.process_listeners > 0 {
        return Some(format!(
            "the mod left {} listener(s) on `process` or its streams (exit, signals, stdin, uncaught errors), which run when the host meets the event and cannot be checked",
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
/// files, task runners' scripts.
const RUNS_CONFIG: &[&str] = &[
    ".gitconfig",
    ".git/config",
    ".config/git/config",
    ".bashrc",
    ".bash_profile",
    ".profile",
    ".zshrc",
    ".zshenv",
    ".npmrc",
    "package.json",
    "Makefile",
    "makefile",
    "justfile",
    ".envrc",
];

/// The first file the scenario created or changed whose commands a later program may run.
fn runs_config_written(world: &WorldState) -> Option<&str> {
    world.changes.iter().find_map(|change| match change {
        FileChange::Created { .. } | FileChange::Written { .. } | FileChange::Renamed { .. } => {
            let path = change.path();
            (RUNS_CONFIG.iter().any(|name| path.ends_with(&format!("/{name}"))) || path.contains("/.git/hooks/")).then_some(path)
        }
        _ => None,
    })
}
