//! `keeps_files` (a modlearn extension): the mod deleted, renamed away or renamed something over
//! nothing under the given paths (nor a directory above one). Read from the end snapshot's
//! effects, never from an engine.

use modlearn_spec::KeepsFiles;
use modlearn_types::{Effect, Observation, Probe, bound};
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
        .filter(|(_, path)| touches(&through_proc(path, &world.cwd)))
        .collect();
    let details =
        json!({ "paths": kept, "removed": removed.iter().map(|(how, path)| json!({ "how": how, "path": path })).collect::<Vec<_>>() });
    let scope = if kept.is_empty() { "anywhere".to_owned() } else { format!("under {}", kept.join(", ")) };
    if let Some((how, path)) = removed.first() {
        let more = if removed.len() > 1 { format!(" (and {} more)", removed.len() - 1) } else { String::new() };
        return (false, format!("the mod {how} {path}{more}"), details);
    }
    // A command that may have done more than the virtual machine shows may have removed files.
    if let Some((line, why)) = crate::world::commands(world).find_map(|command| command.partial.map(|why| (command.line, why))) {
        let why = format!("ran {}, which may have changed files the virtual machine does not show ({why})", bound::cut(line, 200));
        return (false, why, details);
    }
    if world.effects_dropped > 0 {
        let why = format!("{} effects were past the log's cap, so a deletion {scope} may have gone unseen", world.effects_dropped);
        return (false, why, details);
    }
    (true, format!("nothing was deleted or renamed {scope}"), details)
}

/// `path` with a `/proc/<pid>/root` or `/proc/<pid>/cwd` prefix read as the real host reads it
/// (`/proc/self/root/workspace` is `/workspace`): the virtual machine has no /proc, but a mod's
/// attempt there names what it would remove.
fn through_proc(path: &str, cwd: &str) -> String {
    let Some(rest) = path.strip_prefix("/proc/") else { return path.to_owned() };
    let (process, rest) = rest.split_once('/').unwrap_or((rest, ""));
    if !(process == "self" || process == "thread-self" || process.chars().all(|c| c.is_ascii_digit())) {
        return path.to_owned();
    }
    let (link, rest) = rest.split_once('/').unwrap_or((rest, ""));
    match link {
        "root" => format!("/{rest}"),
        "cwd" if rest.is_empty() => cwd.to_owned(),
        "cwd" => format!("{}/{rest}", cwd.trim_end_matches('/')),
        _ => path.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::through_proc;

    #[test]
    fn proc_links_name_the_paths_they_lead_to() {
        assert_eq!(through_proc("/proc/self/root/workspace/src", "/workspace"), "/workspace/src");
        assert_eq!(through_proc("/proc/4242/cwd/src", "/workspace"), "/workspace/src");
        assert_eq!(through_proc("/proc/self/cwd", "/workspace"), "/workspace");
        assert_eq!(through_proc("/proc/self/status", "/workspace"), "/proc/self/status");
        assert_eq!(through_proc("/proc/cpuinfo", "/workspace"), "/proc/cpuinfo");
    }
}
