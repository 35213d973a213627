//! What a mod did on its machine, read from observation data (the judge never sees an engine
//! or a machine): a spec's paths resolved as the machine's user would name them, and the brief
//! per-scenario summary the reports show.

use modlearn_types::{
    CommandEffect, Effect, EnvRead, FileChange, FileWritten, NetworkAttempt, WorldState, WorldSummary, bound, machine_path,
};

/// The machine's home and working directory when a snapshot names none (older snapshots).
const DEFAULT_HOME: &str = "/home/user";
const DEFAULT_CWD: &str = "/workspace";

/// Entries kept per summary list; the rest are counted in `cut`.
const SUMMARY_LIST_LIMIT: usize = 50;
/// The longest path, command or target a summary keeps whole.
const SUMMARY_TEXT_LIMIT: usize = 300;

/// A spec's `path` as an absolute path on the machine: `~` is the home directory, a relative
/// path is under the working directory, and `.`/`..` are resolved (`..` stops at `/`). The
/// machine's own paths are the kernel's; a spec names plain ones.
pub fn resolve_spec_path(path: &str, world: &WorldState) -> String {
    let home = if world.home.is_empty() { DEFAULT_HOME } else { &world.home };
    let cwd = if world.cwd.is_empty() { DEFAULT_CWD } else { &world.cwd };
    machine_path(path, home, cwd)
}

/// The brief of `worlds` (the scenario's probes, then its session's), distinct and capped.
pub fn world_summary(worlds: &[&WorldState]) -> WorldSummary {
    let mut summary = WorldSummary::default();
    let mut cut = 0;
    let short = |text: &str| bound::cut(text, SUMMARY_TEXT_LIMIT);
    for world in worlds {
        summary.dropped += world.effects_dropped + world.written_files_dropped;
        for (path, file) in &world.written_files {
            let entry = FileWritten { path: short(path), bytes: file.bytes };
            match summary.files_written.iter_mut().find(|written| written.path == entry.path) {
                Some(written) => written.bytes = entry.bytes,
                None => push(&mut summary.files_written, entry, &mut cut),
            }
        }
        summary.dropped += world.commands_dropped;
        for change in &world.changes {
            match change {
                FileChange::Deleted { path, .. } => push_new(&mut summary.files_deleted, short(path), &mut cut),
                FileChange::Renamed { from, .. } => push_new(&mut summary.files_deleted, short(from), &mut cut),
                _ => {}
            }
        }
        for command in &world.commands {
            let entry = CommandEffect { command: short(&command.line), via: command.via.clone(), exit_code: command.exit_code };
            push_new(&mut summary.commands, entry, &mut cut);
        }
        for effect in &world.effects {
            match effect {
                Effect::FileRead(file) | Effect::Readdir(file) => push_new(&mut summary.files_read, short(&file.path), &mut cut),
                Effect::EnvRead { name, found, .. } if !summary.env_read.iter().any(|read| read.name == short(name)) => {
                    push(&mut summary.env_read, EnvRead { name: short(name), found: *found }, &mut cut);
                }
                Effect::Network { target, via, .. } => {
                    push_new(&mut summary.network, NetworkAttempt { target: short(target), via: via.clone() }, &mut cut);
                }
                _ => {}
            }
        }
    }
    summary.cut = cut;
    summary
}

fn push<T>(list: &mut Vec<T>, item: T, cut: &mut usize) {
    if list.len() < SUMMARY_LIST_LIMIT {
        list.push(item);
    } else {
        *cut += 1;
    }
}

fn push_new<T: PartialEq>(list: &mut Vec<T>, item: T, cut: &mut usize) {
    if !list.contains(&item) {
        push(list, item, cut);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn world(value: serde_json::Value) -> WorldState {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn spec_paths_resolve_as_the_user_names_them() {
        let world = world(json!({ "cwd": "/workspace", "home": "/home/user", "effects": [], "effectsDropped": 0 }));
        assert_eq!(resolve_spec_path("~/.letta/x.json", &world), "/home/user/.letta/x.json");
        assert_eq!(resolve_spec_path("~", &world), "/home/user");
        assert_eq!(resolve_spec_path("notes/./a/../b.md", &world), "/workspace/notes/b.md");
        assert_eq!(resolve_spec_path("/tmp//x/", &world), "/tmp/x");
        assert_eq!(resolve_spec_path("../../../etc", &world), "/etc");
        assert_eq!(resolve_spec_path("~user/x", &world), "/workspace/~user/x");
    }

    #[test]
    fn the_summary_is_distinct_in_order_and_merges_the_machine_record() {
        let probes = world(json!({ "effects": [
            { "kind": "env_read", "at": 1, "name": "HOME", "found": true },
            { "kind": "env_read", "at": 2, "name": "HOME", "found": true },
            { "kind": "file_read", "at": 3, "path": "/home/user/.letta/x.json", "ok": false, "error": "ENOENT" },
            { "kind": "network", "at": 7, "target": "https://x.dev/", "via": "fetch" },
        ], "effectsDropped": 3,
        "commands": [
            { "at": 5, "line": "git status", "via": "execSync", "exitCode": 0 },
            { "at": 6, "line": "git status", "via": "execSync", "exitCode": 0 },
        ],
        "changes": [{ "change": "deleted", "path": "/tmp/a", "entry": "file" }],
        "writtenFiles": { "/home/user/.letta/x.json": { "bytes": 9, "text": "{\"n\": 10}" } } }));
        let summary = world_summary(&[&probes]);
        assert_eq!(
            serde_json::to_value(&summary).unwrap(),
            json!({
                "filesWritten": [{ "path": "/home/user/.letta/x.json", "bytes": 9 }],
                "filesRead": ["/home/user/.letta/x.json"],
                "filesDeleted": ["/tmp/a"],
                "commands": [{ "command": "git status", "via": "execSync", "exitCode": 0 }],
                "envRead": [{ "name": "HOME", "found": true }],
                "network": [{ "target": "https://x.dev/", "via": "fetch" }],
                "dropped": 3,
            })
        );
        assert!(world_summary(&[]).is_empty());
    }

    #[test]
    fn the_summary_is_capped() {
        let commands: Vec<_> =
            (0..80).map(|i| json!({ "at": i, "line": format!("c{i} {}", "x".repeat(400)), "via": "exec", "exitCode": 0 })).collect();
        let summary = world_summary(&[&world(json!({ "effects": [], "effectsDropped": 0, "commands": commands }))]);
        assert_eq!((summary.commands.len(), summary.cut), (50, 30));
        assert!(summary.commands[0].command.ends_with("more bytes cut]"), "{}", summary.commands[0].command);
    }
}
