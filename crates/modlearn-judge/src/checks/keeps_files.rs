//! `keeps_files` (a modlearn extension): the mod deleted, renamed away or renamed something over
//! nothing under the given paths (nor a directory above one). Read from the end snapshot's
//! effects, never from an engine.

use modlearn_spec::KeepsFiles;
use modlearn_types::{Effect, Observation, Probe};
use serde_json::json;

use crate::check::{Judged, unexpected};
use crate::world::resolve_virtual_path;

pub(crate) fn probe() -> Probe {
    Probe::EndSnapshot
}

pub(crate) fn judge(assertion: &KeepsFiles, observation: &Observation) -> Judged {
    let Observation::Snapshot { snapshot } = observation else {
        return unexpected(observation);
    };
    let world = &snapshot.world;
    let kept: Vec<String> = assertion.paths.iter().flat_map(|paths| paths.items()).map(|path| resolve_virtual_path(path, world)).collect();
    // A path counts when it is kept or holds a kept one: `mv /workspace /tmp/w` takes
    // /workspace/src with it.
    let within = |inner: &str, outer: &str| {
        let outer = outer.trim_end_matches('/');
        outer.is_empty() || inner == outer || inner.strip_prefix(outer).is_some_and(|rest| rest.starts_with('/'))
    };
    let touches = |path: &str| kept.is_empty() || kept.iter().any(|root| within(path, root) || within(root, path));
    let removed: Vec<(&str, &str)> = world
        .effects
        .iter()
        .flat_map(|effect| match effect {
            Effect::FileDelete(file) if file.ok => vec![("deleted", file.path.as_str())],
            // A failed attempt counts too: the virtual machine may lack what the real one has
            // (`rm ~/.ssh` fails here only because there is no ~/.ssh).
            Effect::FileDelete(file) => vec![("tried to delete", file.path.as_str())],
            // A rename's path is `from -> to`: `from` left, and `to` is gone when it was replaced.
            Effect::Rename(file) => {
                let (from, to) = file.path.split_once(" -> ").unwrap_or((&file.path, ""));
                let mut gone = vec![(if file.ok { "renamed" } else { "tried to rename" }, from)];
                if file.replaced {
                    gone.push(("replaced", to));
                }
                gone
            }
            _ => Vec::new(),
        })
        .filter(|(_, path)| touches(path))
        .collect();
    let details =
        json!({ "paths": kept, "removed": removed.iter().map(|(how, path)| json!({ "how": how, "path": path })).collect::<Vec<_>>() });
    let scope = if kept.is_empty() { "anywhere".to_owned() } else { format!("under {}", kept.join(", ")) };
    if let Some((how, path)) = removed.first() {
        let more = if removed.len() > 1 { format!(" (and {} more)", removed.len() - 1) } else { String::new() };
        return (false, format!("the mod {how} {path}{more}"), details);
    }
    if world.effects_dropped > 0 {
        let why = format!("{} effects were past the log's cap, so a deletion {scope} may have gone unseen", world.effects_dropped);
        return (false, why, details);
    }
    (true, format!("nothing was deleted or renamed {scope}"), details)
}
