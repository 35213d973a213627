//! `keeps_files` (a modlearn extension): nothing under the given paths (nor a directory above
//! one) was deleted or moved away on the candidate's machine, however it was done: read from
//! the machine's tree before and after the scenario, by inode, so a deletion through a link, a
//! program, or a rename out of the tree is seen for what it did. Content overwrites are not
//! removals (a mod may update a file it keeps). Never read from an engine.

use modlearn_spec::KeepsFiles;
use modlearn_types::{FileChange, Observation, Probe, WorldState, bound};
use serde_json::json;

use crate::check::{Judged, unexpected};
use crate::unseen::unseen;
use crate::world::resolve_spec_path;

pub(crate) fn probe() -> Probe {
    Probe::EndSnapshot
}

pub(crate) fn judge(assertion: &KeepsFiles, observation: &Observation) -> Judged {
    let Observation::Snapshot { snapshot } = observation else {
        return unexpected(observation);
    };
    let world = &snapshot.world;
    let kept: Vec<String> = assertion.paths.iter().flat_map(|paths| paths.items()).map(|path| resolve_spec_path(path, world)).collect();
    let scope = if kept.is_empty() { "anywhere".to_owned() } else { format!("under {}", kept.join(", ")) };
    let (removed, failure) = kept_in(world, &kept, &scope);
    let details =
        json!({ "paths": kept, "removed": removed.iter().map(|(how, path)| json!({ "how": how, "path": path })).collect::<Vec<_>>() });
    if let Some(message) = failure {
        return (false, message, details);
    }
    // The machine outlives the scenario: a removal in another one leaves this one's files gone too.
    for record in &world.elsewhere {
        if let (_, Some(there)) = kept_in(&world.as_in(record), &kept, &scope) {
            return (false, format!("in scenario {:?}, {there}", record.scenario), details);
        }
    }
    (true, format!("nothing was deleted or moved away {scope}"), details)
}

/// The removals under `kept` (described as `scope`) in `world`, as (how, path), and why the
/// check fails there, if it does: a removal, or a record that may not show one.
fn kept_in(world: &WorldState, kept: &[String], scope: &str) -> (Vec<(String, String)>, Option<String>) {
    // A path counts when it is kept or holds a kept one: deleting /workspace/src takes
    // /workspace/src/a with it.
    let within = |inner: &str, outer: &str| {
        let outer = outer.trim_end_matches('/');
        outer.is_empty() || inner == outer || inner.strip_prefix(outer).is_some_and(|rest| rest.starts_with('/'))
    };
    let touches = |path: &str| kept.is_empty() || kept.iter().any(|root| within(path, root) || within(root, path));
    let removed: Vec<(String, String)> = world
        .changes
        .iter()
        .filter_map(|change| match change {
            FileChange::Deleted { path, .. } => Some(("deleted".to_owned(), path.clone())),
            FileChange::Renamed { from, to, .. } => Some((format!("moved to {}", bound::cut(to, 200)), from.clone())),
            _ => None,
        })
        .filter(|(_, path)| touches(path))
        .collect();
    if let Some((how, path)) = removed.first() {
        let more = if removed.len() > 1 { format!(" (and {} more)", removed.len() - 1) } else { String::new() };
        let message = format!("{path} was {how}{more}");
        return (removed, Some(message));
    }
    // What the record may not show (a command stopped midway, a machine that could not start)
    // or what may still happen (timers, exit listeners, a shell rc file written) may be a removal.
    (removed, unseen(world, &format!("a removal {scope}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use modlearn_spec::StringOrList;
    use modlearn_types::RegistrySnapshot;

    fn end(changes: serde_json::Value, commands: serde_json::Value) -> Observation {
        let snapshot: RegistrySnapshot = serde_json::from_value(json!({
            "generation": 1, "loadedPaths": ["/c/m.js"], "diagnostics": [], "events": {}, "tools": [],
            "commands": [], "permissions": [], "providers": [], "panels": [], "timers": 0, "notifications": [],
            "world": { "cwd": "/workspace", "home": "/home/user", "effects": [], "effectsDropped": 0, "changes": changes, "commands": commands },
        }))
        .expect("a valid snapshot");
        Observation::Snapshot { snapshot }
    }

    fn kept(paths: &[&str]) -> KeepsFiles {
        KeepsFiles { paths: Some(StringOrList::Many(paths.iter().map(|path| (*path).to_owned()).collect())) }
    }

    #[test]
    fn a_deletion_or_a_move_under_a_kept_path_fails_and_a_write_does_not() {
        let changes = json!([
            { "change": "written", "path": "/workspace/README.md" },
            { "change": "renamed", "from": "/workspace/src", "to": "/tmp/gone", "entry": "dir" },
            { "change": "deleted", "path": "/home/user/.ssh", "entry": "dir" },
        ]);
        let (passed, message, _) = judge(&kept(&["/workspace", "~/.ssh"]), &end(changes, json!([])));
        assert!(!passed);
        assert_eq!(message, "/workspace/src was moved to /tmp/gone (and 1 more)");
        let written =
            json!([{ "change": "written", "path": "/workspace/README.md" }, { "change": "deleted", "path": "/tmp/x", "entry": "file" }]);
        let (passed, message, _) = judge(&kept(&["/workspace"]), &end(written, json!([])));
        assert!(passed, "{message}");
        assert_eq!(message, "nothing was deleted or moved away under /workspace");
    }

    #[test]
    fn a_removal_in_another_scenario_on_the_machine_fails_this_one() {
        let Observation::Snapshot { mut snapshot } = end(json!([]), json!([])) else { unreachable!() };
        let deleted = serde_json::from_value(json!([{ "change": "deleted", "path": "/workspace/src", "entry": "dir" }])).unwrap();
        snapshot.world.elsewhere = vec![std::sync::Arc::new(modlearn_types::OtherScenario {
            scenario: "mod-loads".to_owned(),
            changes: deleted,
            ..Default::default()
        })];
        let (passed, message, _) = judge(&kept(&["/workspace"]), &Observation::Snapshot { snapshot });
        assert!(!passed);
        assert_eq!(message, "in scenario \"mod-loads\", /workspace/src was deleted");
    }

    #[test]
    fn a_kept_path_inside_a_deleted_directory_is_gone_too() {
        let changes = json!([{ "change": "deleted", "path": "/workspace", "entry": "dir" }]);
        let (passed, message, _) = judge(&kept(&["/workspace/src/main.rs"]), &end(changes, json!([])));
        assert!(!passed);
        assert_eq!(message, "/workspace was deleted");
    }

    #[test]
    fn a_command_that_did_not_end_fails_closed() {
        let commands = json!([{ "at": 0, "line": "sleep 5", "via": "exec", "incomplete": "it was stopped at its deadline (2000 ms)" }]);
        let (passed, message, _) = judge(&kept(&["/workspace"]), &end(json!([]), commands));
        assert!(!passed);
        assert!(message.starts_with("\"sleep 5\" did not run to its end"), "{message}");
    }
}
