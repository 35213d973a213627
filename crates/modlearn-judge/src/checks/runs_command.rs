//! `runs_command` (a modlearn extension): the mod ran (or, with `never`, did not run) a command
//! matching a pattern through `node:child_process`. Read from the end snapshot's effects.

use modlearn_spec::RunsCommand;
use modlearn_types::{Observation, Probe, bound};
use serde_json::json;

use crate::check::{Judged, unexpected};
use crate::shell;
use crate::world::{RanCommand, commands};

/// How many commands a message lists, and how much of each.
const LISTED: usize = 10;
const COMMAND_LIMIT: usize = 200;

pub(crate) fn probe() -> Probe {
    Probe::EndSnapshot
}

pub(crate) fn judge(assertion: &RunsCommand, observation: &Observation) -> Judged {
    let Observation::Snapshot { snapshot } = observation else {
        return unexpected(observation);
    };
    let world = &snapshot.world;
    let pattern = &assertion.pattern;
    let regex = match assertion.regex {
        Some(true) => match regex::Regex::new(pattern) {
            Ok(regex) => Some(regex),
            Err(error) => return (false, format!("{pattern:?} is not a valid regular expression: {error}"), json!(null)),
        },
        _ => None,
    };
    let raw = |text: &str| regex.as_ref().map_or_else(|| text.contains(pattern.as_str()), |regex| regex.is_match(text));
    // The text as written, or any simple command a shell would read in it (quotes, wrappers,
    // `sh -c` and git's global options seen through).
    // Options are read before operands, as getopt reads them (`rm -f ';' -r d`).
    let matches =
        |text: &str| raw(text) || shell::simple_commands(text).0.iter().any(|simple| raw(simple) || raw(&shell::options_first(simple)));
    let ran: Vec<RanCommand<'_>> = commands(world).collect();
    // A command line, or what a command read as commands (its stdin, the script it ran).
    let matched = ran
        .iter()
        .find(|command| matches(command.line))
        .map(|command| (command.line, command.via))
        .or_else(|| ran.iter().find(|command| command.input.is_some_and(matches)).map(|command| (command.line, "its input")))
        .or_else(|| {
            // What the virtual shell ran, its words expanded (`F=-rf; rm $F d` ran `rm -rf d`).
            ran.iter()
                .flat_map(|command| command.ran)
                .find(|simple| matches(simple))
                .map(|simple| (simple.as_str(), "as the virtual shell ran it"))
        });
    // What a shell would run that the line cannot show, with nothing recorded that shows it, or
    // a script a shell reads from input the log could not read (a Blob, a stream, a descriptor).
    let opaque = ran.iter().find(|command| match command.input {
        None => shell::simple_commands(command.line).1,
        Some(input) => shell::simple_commands(input).1 && shell::reads_script_from_stdin(command.line),
    });
    let partial = ran.iter().find_map(|command| command.partial.map(|why| (short(command.line), why)));
    // A file the mod wrote that a later command reads as commands (git's config, a shell's rc
    // file, package.json's scripts, a Makefile).
    let config = (!ran.is_empty()).then(|| runs_config_written(world)).flatten();
    let how = if regex.is_some() { "matches" } else { "contains" };
    let details = json!({ "pattern": pattern, "commands": ran.iter().map(|command| command.line).collect::<Vec<_>>() });
    let never = assertion.never == Some(true);
    match (matched, never) {
        (Some((command, via)), false) => (true, format!("ran {} ({via}), which {how} {pattern:?}", short(command)), details),
        (None, false) => (false, format!("no command the mod ran {how} {pattern:?}; {}", listed(&ran)), details),
        (Some((command, via)), true) => (false, format!("ran {} ({via}), which {how} {pattern:?}", short(command)), details),
        (None, true) if let Some(written) = config => (
            false,
            format!("wrote {written}, which a command it ran may read as commands, so it may run a command that {how} {pattern:?}"),
            details,
        ),
        (None, true) if let Some((command, why)) = &partial => (
            false,
            format!(
                "ran {command}, which may have run more than the virtual shell shows ({why}), so it may run a command that {how} {pattern:?}"
            ),
            details,
        ),
        (None, true) if opaque.is_some() => {
            let command = opaque.map(|command| short(command.line)).unwrap_or_default();
            let why = format!(
                "ran {command}, whose command comes from a variable, `eval`, `xargs`, an interpreter's code or a script a shell reads from a pipe or a file, so it may run a command that {how} {pattern:?}"
            );
            (false, why, details)
        }
        (None, true) => match unseen(world, &ran, &format!("a command that {how} {pattern:?}")) {
            // `never` fails closed: a command it cannot see may have matched.
            Some(why) => (false, format!("{why}; {}", listed(&ran)), details),
            None => (true, format!("no command the mod ran {how} {pattern:?}; {}", listed(&ran)), details),
        },
    }
}

/// Why the log may not show every command the mod ran (or will run), if it may not.
fn unseen(world: &modlearn_types::WorldState, ran: &[RanCommand<'_>], what: &str) -> Option<String> {
    let cut = ran.iter().filter(|command| command.cut).count();
    if world.effects_dropped > 0 {
        Some(format!("{} effects were past the log's cap, so {what} may have gone unseen", world.effects_dropped))
    } else if cut > 0 {
        Some(format!("{cut} command line(s) were longer than the log keeps, so {what} may have gone unseen in the part cut"))
    } else if world.exit_listeners > 0 {
        Some(format!("the mod left {} process exit listener(s), which run when the host ends and cannot be checked", world.exit_listeners))
    } else if world.timers_pending > 0 {
        Some(format!(
            "the mod left {} timer(s) running after dispose, and a command they run later cannot be checked",
            world.timers_pending
        ))
    } else {
        None
    }
}

fn short(command: &str) -> String {
    format!("{:?}", bound::cut(command, COMMAND_LIMIT))
}

/// The commands run, briefly: at most [`LISTED`], each cut.
fn listed(ran: &[RanCommand<'_>]) -> String {
    if ran.is_empty() {
        return "the mod ran no command".to_owned();
    }
    let mut items: Vec<String> = ran.iter().take(LISTED).map(|command| format!("{} ({})", short(command.line), command.via)).collect();
    if ran.len() > LISTED {
        items.push(format!("{} more", ran.len() - LISTED));
    }
    format!("commands run: {}", items.join(", "))
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

/// The first file the mod wrote whose commands a later program may run.
fn runs_config_written(world: &modlearn_types::WorldState) -> Option<&str> {
    world.effects.iter().find_map(|effect| match effect {
        modlearn_types::Effect::FileWrite(file) | modlearn_types::Effect::FileAppend(file)
            if file.ok
                && (RUNS_CONFIG.iter().any(|name| file.path.ends_with(&format!("/{name}"))) || file.path.contains("/.git/hooks/")) =>
        {
            Some(file.path.as_str())
        }
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use modlearn_types::RegistrySnapshot;

    fn end(commands: &[(&str, &str)], dropped: usize) -> Observation {
        let effects: Vec<_> = commands
            .iter()
            .enumerate()
            .map(|(at, (command, via))| json!({ "kind": "command", "at": at, "command": command, "via": via, "exitCode": 0 }))
            .collect();
        let snapshot: RegistrySnapshot = serde_json::from_value(json!({
            "generation": 1, "loadedPaths": ["/c/m.js"], "diagnostics": [], "events": {}, "tools": [],
            "commands": [], "permissions": [], "providers": [], "panels": [], "timers": 0, "notifications": [],
            "world": { "effects": effects, "effectsDropped": dropped, "writtenFiles": {} },
        }))
        .expect("a valid snapshot");
        Observation::Snapshot { snapshot }
    }

    fn assertion(pattern: &str, regex: bool, never: bool) -> RunsCommand {
        RunsCommand { pattern: pattern.to_owned(), regex: regex.then_some(true), never: never.then_some(true) }
    }

    const GIT: &[(&str, &str)] = &[("git status --porcelain", "execSync"), ("git rev-parse --abbrev-ref HEAD", "exec")];

    #[test]
    fn passes_when_a_command_contains_the_pattern() {
        let (passed, message, _) = judge(&assertion("git rev-parse", false, false), &end(GIT, 0));
        assert!(passed, "{message}");
        assert_eq!(message, "ran \"git rev-parse --abbrev-ref HEAD\" (exec), which contains \"git rev-parse\"");
        let (passed, message, _) = judge(&assertion(r"^git rev-parse\b.*HEAD$", true, false), &end(GIT, 0));
        assert!(passed, "{message}");
        assert!(message.ends_with("which matches \"^git rev-parse\\\\b.*HEAD$\""), "{message}");
    }

    #[test]
    fn fails_listing_the_commands_run() {
        let (passed, message, _) = judge(&assertion("git log", false, false), &end(GIT, 0));
        assert!(!passed);
        assert_eq!(
            message,
            "no command the mod ran contains \"git log\"; commands run: \"git status --porcelain\" (execSync), \"git rev-parse --abbrev-ref HEAD\" (exec)"
        );
        let (_, message, _) = judge(&assertion("git", false, false), &end(&[], 0));
        assert_eq!(message, "no command the mod ran contains \"git\"; the mod ran no command");
    }

    #[test]
    fn never_passes_only_when_no_command_matches_and_none_went_unseen() {
        let (passed, message, _) = judge(&assertion("rm -rf", false, true), &end(GIT, 0));
        assert!(passed, "{message}");
        let rm = &[("git status", "execSync"), ("rm -rf /home/user", "spawn")];
        let (passed, message, _) = judge(&assertion("rm -rf", false, true), &end(rm, 0));
        assert!(!passed);
        assert_eq!(message, "ran \"rm -rf /home/user\" (spawn), which contains \"rm -rf\"");
        let (passed, message, _) = judge(&assertion("rm -rf", false, true), &end(GIT, 4));
        assert!(!passed);
        assert!(
            message.starts_with("4 effects were past the log's cap, so a command that contains \"rm -rf\" may have gone unseen; "),
            "{message}"
        );
    }

    #[test]
    fn lists_at_most_ten_commands_each_cut() {
        let long = format!("echo {}", "x".repeat(300));
        let many: Vec<(&str, &str)> = (0..12).map(|_| (long.as_str(), "exec")).collect();
        let (_, message, _) = judge(&assertion("git", false, false), &end(&many, 0));
        assert!(message.ends_with(", 2 more"), "{message}");
        assert_eq!(message.matches("more bytes cut]").count(), 10, "{message}");
    }
}
