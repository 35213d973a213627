//! `keeps_files` (a modlearn extension): the mod deleted or renamed away nothing under the given
//! paths. Read from the end snapshot's effects, never from an engine.

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
    let under = |path: &str| {
        kept.is_empty() || kept.iter().any(|root| path == root || path.starts_with(&format!("{}/", root.trim_end_matches('/'))))
    };
    let removed: Vec<(&str, &str)> = world
        .effects
        .iter()
        .filter_map(|effect| match effect {
            Effect::FileDelete(file) if file.ok => Some(("deleted", file.path.as_str())),
            // A rename's path is `from -> to`: what left is `from`.
            Effect::Rename(file) if file.ok => Some(("renamed", file.path.split(" -> ").next().unwrap_or(&file.path))),
            _ => None,
        })
        .filter(|(_, path)| under(path))
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
