//! `declares_what_it_uses`: a DSH plugin's `inject` names exactly the services it read through
//! its contexts, judged on the snapshot at the end of the scenario's assertions.

use modlearn_types::Observation;
use serde_json::json;

use crate::check::{Judged, unexpected};

pub(crate) fn judge(observation: &Observation) -> Judged {
    let Observation::Snapshot { snapshot } = observation else {
        return unexpected(observation);
    };
    let details = json!({ "services": snapshot.services, "loadedPaths": snapshot.loaded_paths });
    let Some(services) = &snapshot.services else {
        return (false, "no DSH plugin is loaded, so nothing it uses can be compared with its inject".to_owned(), details);
    };
    if services.incomplete {
        return (
            false,
            "the plugin read more services than the record keeps, so a read it did not declare may have gone unseen".to_owned(),
            details,
        );
    }
    let quoted = |names: Vec<&String>| names.iter().map(|name| format!("`{name}`")).collect::<Vec<_>>().join(", ");
    let undeclared: Vec<&String> = services.used.iter().filter(|name| !services.declared.contains(name)).collect();
    let unused: Vec<&String> = services.declared.iter().filter(|name| !services.used.contains(name)).collect();
    let pronoun = |names: &[&String]| if names.len() == 1 { ("it", "that is") } else { ("them", "one is") };
    let mut problems = Vec::new();
    if !undeclared.is_empty() {
        let (it, _) = pronoun(&undeclared);
        problems.push(format!("it reads {} without injecting {it} (Cordis throws `without inject`, unless the read goes around it through `ctx.get` or `ctx.root`)", quoted(undeclared.clone())));
    }
    if !unused.is_empty() {
        let (it, that) = pronoun(&unused);
        problems.push(format!("it injects {} but never reads {it} (it would sit PENDING wherever {that} missing)", quoted(unused.clone())));
    }
    if problems.is_empty() {
        let all = quoted(services.declared.iter().collect());
        let all = if all.is_empty() { "no services".to_owned() } else { all };
        return (true, format!("it injects exactly what it reads: {all}"), details);
    }
    (false, problems.join("; "), details)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::fixtures::snapshot;
    use modlearn_types::ServiceUse;

    fn with(declared: &[&str], used: &[&str]) -> Observation {
        let Observation::Snapshot { mut snapshot } = snapshot(json!([]), json!([])) else { unreachable!() };
        snapshot.services = Some(ServiceUse {
            declared: declared.iter().map(|s| (*s).to_owned()).collect(),
            used: used.iter().map(|s| (*s).to_owned()).collect(),
            incomplete: false,
        });
        Observation::Snapshot { snapshot }
    }

    #[test]
    fn exact_passes_and_both_mismatches_are_named() {
        assert!(judge(&with(&["tools", "systemPrompt"], &["systemPrompt", "tools"])).0);
        let (passed, message, _) = judge(&with(&["tools", "timer"], &["tools", "systemPrompt"]));
        assert!(!passed);
        assert_eq!(
            message,
            "it reads `systemPrompt` without injecting it (Cordis throws `without inject`, unless the read goes around it through `ctx.get` or `ctx.root`); it injects `timer` but never reads it (it would sit PENDING wherever that is missing)"
        );
    }
}
