//! The session's trace: one JSON object per entry, numbered, in the order the host saw things.

use serde_json::{Map, Value, json};

use modlearn_types::{Diagnostic, Emission};

/// Entries so far.
#[derive(Debug, Default)]
pub(super) struct Trace {
    pub(super) entries: Vec<Value>,
}

impl Trace {
    /// Adds an entry of `kind` with `fields`.
    pub(super) fn push(&mut self, kind: &str, fields: Value) {
        let mut entry = Map::new();
        entry.insert("seq".to_owned(), json!(self.entries.len() + 1));
        entry.insert("type".to_owned(), json!(kind));
        if let Value::Object(fields) = fields {
            entry.extend(fields);
        }
        self.entries.push(Value::Object(entry));
    }

    /// An emission: the event as the host saw it after every handler ran.
    pub(super) fn event(&mut self, name: &str, event: &Value, emission: &Emission) {
        let mut fields = json!({ "name": name, "event": event, "handlerCount": emission.handler_count });
        if !emission.results.is_empty() {
            fields["results"] = json!(emission.results);
        }
        if !emission.diagnostics.is_empty() {
            fields["diagnostics"] = brief(&emission.diagnostics);
        }
        self.push("event", fields);
    }
}

/// Diagnostics without owner paths and stacks: phase, fault and message are what a reader needs.
pub(super) fn brief(diagnostics: &[Diagnostic]) -> Value {
    diagnostics
        .iter()
        .map(|diagnostic| json!({ "phase": diagnostic.phase, "fault": diagnostic.fault, "message": diagnostic.message }))
        .collect()
}
