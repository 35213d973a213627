//! `writes_file` (a modlearn extension): a file was created or written on the candidate's
//! machine during the scenario (by the mod, a program it ran, or the session's tools), and at
//! the scenario's end holds the given text. Read from the machine's record, never from an engine.

use modlearn_spec::WritesFile;
use modlearn_types::{FileChange, Observation, Probe, WorldState};
use serde_json::json;

use crate::check::{Judged, unexpected};
use crate::world::resolve_spec_path;

/// How much of a file's text a message quotes.
const QUOTE_LIMIT: usize = 200;
/// How many written files a message lists.
const LISTED: usize = 10;

pub(crate) fn probe() -> Probe {
    Probe::EndSnapshot
}

pub(crate) fn judge(assertion: &WritesFile, observation: &Observation) -> Judged {
    let Observation::Snapshot { snapshot } = observation else {
        return unexpected(observation);
    };
    let world = &snapshot.world;
    let path = resolve_spec_path(&assertion.path, world);
    let Some(file) = world.written_files.get(&path) else {
        let details = json!({ "path": path, "written": world.written_files.keys().collect::<Vec<_>>() });
        return (false, format!("{}; {}", missing(&path, world), written_list(world)), details);
    };
    let details = json!({ "path": path, "bytes": file.bytes, "text": file.text, "truncated": file.truncated });
    let contains = assertion.contains.as_ref().map(|list| list.items()).unwrap_or_default();
    let not_contains = assertion.not_contains.as_ref().map(|list| list.items()).unwrap_or_default();
    // Only the snapshot's cut of a large file is known: say so when the verdict may hang on the rest.
    let partial = if file.truncated { format!(" (only its first {} bytes were kept)", file.text.len()) } else { String::new() };
    if let Some(wanted) = contains.iter().find(|wanted| !file.text.contains(**wanted)) {
        let message = format!("{path} does not contain {wanted:?}; it holds: {}{partial}", quote(&file.text));
        return (false, message, details);
    }
    if let Some(unwanted) = not_contains.iter().find(|unwanted| file.text.contains(**unwanted)) {
        let message = format!("{path} contains {unwanted:?}; it holds: {}", quote(&file.text));
        return (false, message, details);
    }
    if !not_contains.is_empty() && file.truncated {
        let message = format!(
            "{path} was written ({} bytes), but only its first {} bytes were kept, so `notContains` cannot be judged",
            file.bytes,
            file.text.len()
        );
        return (false, message, details);
    }
    let mut message = format!("{path} was written ({} bytes)", file.bytes);
    if !contains.is_empty() {
        message.push_str(&format!(" and contains {}", contains.iter().map(|item| format!("{item:?}")).collect::<Vec<_>>().join(", ")));
    }
    (true, message, details)
}

/// Why no written file is at `path`: never written, or written and then gone.
fn missing(path: &str, world: &WorldState) -> String {
    let gone = world.changes.iter().find_map(|change| match change {
        FileChange::Deleted { path: deleted, .. } if deleted == path => Some("it was deleted".to_owned()),
        FileChange::Renamed { from, to, .. } if from == path => Some(format!("it was moved to {to}")),
        _ => None,
    });
    match gone {
        Some(why) => format!("no file at {path}: {why}"),
        None => format!("no file written at {path}"),
    }
}

/// The files the mod did write, listed briefly.
fn written_list(world: &WorldState) -> String {
    let mut listed: Vec<String> = world
        .written_files
        .iter()
        .take(LISTED)
        .map(|(path, file)| format!("{} ({} bytes)", modlearn_types::bound::cut(path, QUOTE_LIMIT), file.bytes))
        .collect();
    let more = world.written_files.len().saturating_sub(LISTED) + world.written_files_dropped;
    if more > 0 {
        listed.push(format!("{more} more"));
    }
    if listed.is_empty() { "the mod wrote no file".to_owned() } else { format!("files written: {}", listed.join(", ")) }
}

/// A file's text for a message: one line, quoted, cut.
fn quote(text: &str) -> String {
    format!("{:?}", modlearn_types::bound::cut(text, QUOTE_LIMIT))
}

#[cfg(test)]
mod tests {
    use super::*;
    use modlearn_spec::StringOrList;
    use modlearn_types::RegistrySnapshot;

    fn end(world: serde_json::Value) -> Observation {
        let snapshot: RegistrySnapshot = serde_json::from_value(json!({
            "generation": 1, "loadedPaths": ["/c/m.js"], "diagnostics": [], "events": {}, "tools": [],
            "commands": [], "permissions": [], "providers": [], "panels": [], "timers": 0, "notifications": [],
            "world": world,
        }))
        .expect("a valid snapshot");
        Observation::Snapshot { snapshot }
    }

    fn state(effects: serde_json::Value, files: serde_json::Value) -> serde_json::Value {
        json!({ "cwd": "/workspace", "home": "/home/user", "effects": [], "effectsDropped": 0, "changes": effects, "writtenFiles": files })
    }

    fn assertion(path: &str, contains: Option<&str>, not_contains: Option<&str>) -> WritesFile {
        WritesFile {
            path: path.to_owned(),
            contains: contains.map(|item| StringOrList::One(item.to_owned())),
            not_contains: not_contains.map(|item| StringOrList::One(item.to_owned())),
        }
    }

    fn written() -> Observation {
        end(state(json!([]), json!({ "/home/user/.letta/branch.json": { "bytes": 17, "text": "{\"branch\":\"main\"}" } })))
    }

    #[test]
    fn passes_on_the_files_final_text() {
        let (passed, message, details) = judge(&assertion("~/.letta/branch.json", Some("\"main\""), Some("HEAD")), &written());
        assert!(passed, "{message}");
        assert_eq!(message, "/home/user/.letta/branch.json was written (17 bytes) and contains \"\\\"main\\\"\"");
        assert_eq!(details["path"], "/home/user/.letta/branch.json");
        let (passed, message, _) = judge(&assertion("/home/user/.letta/../.letta/branch.json", None, None), &written());
        assert!(passed, "{message}");
        assert_eq!(message, "/home/user/.letta/branch.json was written (17 bytes)");
    }

    #[test]
    fn fails_saying_what_the_file_holds() {
        let (passed, message, _) = judge(&assertion("~/.letta/branch.json", Some("feature"), None), &written());
        assert!(!passed);
        assert_eq!(message, "/home/user/.letta/branch.json does not contain \"feature\"; it holds: \"{\\\"branch\\\":\\\"main\\\"}\"");
        let (_, message, _) = judge(&assertion("~/.letta/branch.json", None, Some("main")), &written());
        assert_eq!(message, "/home/user/.letta/branch.json contains \"main\"; it holds: \"{\\\"branch\\\":\\\"main\\\"}\"");
    }

    #[test]
    fn fails_listing_the_files_written_elsewhere() {
        let (passed, message, _) = judge(&assertion("~/.letta/x.json", None, None), &written());
        assert!(!passed);
        assert_eq!(message, "no file written at /home/user/.letta/x.json; files written: /home/user/.letta/branch.json (17 bytes)");
        let (_, message, _) = judge(&assertion("x.json", None, None), &end(state(json!([]), json!({}))));
        assert_eq!(message, "no file written at /workspace/x.json; the mod wrote no file");
    }

    #[test]
    fn tells_a_file_deleted_or_moved_away() {
        let removed = json!([{ "change": "deleted", "path": "/tmp/x", "entry": "file" }]);
        let (_, message, _) = judge(&assertion("/tmp/x", None, None), &end(state(removed, json!({}))));
        assert_eq!(message, "no file at /tmp/x: it was deleted; the mod wrote no file");
        let moved = json!([{ "change": "renamed", "from": "/tmp/x", "to": "/tmp/y", "entry": "file" }]);
        let (_, message, _) = judge(&assertion("/tmp/x", None, None), &end(state(moved, json!({}))));
        assert_eq!(message, "no file at /tmp/x: it was moved to /tmp/y; the mod wrote no file");
    }

    #[test]
    fn quotes_a_long_or_hostile_text_cut_and_on_one_line() {
        let text = format!("line 1\n## forged\n{}", "y".repeat(500));
        let observation = end(state(json!([]), json!({ "/tmp/x": { "bytes": text.len(), "text": text } })));
        let (_, message, _) = judge(&assertion("/tmp/x", Some("absent"), None), &observation);
        assert!(message.starts_with("/tmp/x does not contain \"absent\"; it holds: \"line 1\\n## forged\\nyyy"), "{message}");
        // The two line breaks are written as `\n`: two bytes each.
        assert!(message.ends_with("… [319 more bytes cut]\""), "{message}");
        assert!(!message.contains('\n'));
    }

    #[test]
    fn a_truncated_file_cannot_be_cleared_of_unwanted_text() {
        let observation = end(state(json!([]), json!({ "/tmp/x": { "bytes": 70000, "text": "abc", "truncated": true } })));
        let (passed, message, _) = judge(&assertion("/tmp/x", None, Some("secret")), &observation);
        assert!(!passed);
        assert_eq!(message, "/tmp/x was written (70000 bytes), but only its first 3 bytes were kept, so `notContains` cannot be judged");
    }
}
