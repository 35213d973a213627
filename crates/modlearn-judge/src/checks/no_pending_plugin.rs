//! `no_pending_plugin`: the DSH plugin is not parked PENDING for want of a service it injects
//! (DSH itself reports nothing then; the registry snapshot lists such plugins).

use modlearn_types::Observation;
use serde_json::{Value, json};

use crate::check::{Judged, unexpected};

pub(crate) fn judge(observation: &Observation) -> Judged {
    let Observation::Snapshot { snapshot } = observation else {
        return unexpected(observation);
    };
    let details = json!({ "pending": snapshot.pending, "loadedPaths": snapshot.loaded_paths });
    let Some(first) = snapshot.pending.first() else {
        return (true, "no plugin is PENDING".to_owned(), details);
    };
    let plugin = first.get("plugin").and_then(Value::as_str).filter(|name| !name.is_empty()).unwrap_or("the plugin");
    let missing: Vec<String> = first
        .get("missing")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(|name| format!("`{name}`"))
        .collect();
    let why = if missing.is_empty() {
        "a service it injects is not active".to_owned()
    } else {
        format!("nothing provides {}", missing.join(", "))
    };
    (false, format!("`{plugin}` is PENDING and never ran apply: {why} (fix `inject`, or read optional services with `ctx.get`)"), details)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::fixtures::snapshot;

    #[test]
    fn passes_without_pending_plugins_and_names_the_missing_services() {
        assert!(judge(&snapshot(json!([]), json!([]))).0);
        let Observation::Snapshot { mut snapshot } = snapshot(json!([]), json!([])) else { unreachable!() };
        snapshot.pending = vec![json!({"mod": "global:/p.js", "plugin": "stats-reporter", "state": "PENDING", "missing": ["toolStats"]})];
        let (passed, message, _) = judge(&Observation::Snapshot { snapshot });
        assert!(!passed);
        assert_eq!(
            message,
            "`stats-reporter` is PENDING and never ran apply: nothing provides `toolStats` (fix `inject`, or read optional services with `ctx.get`)"
        );
    }
}
