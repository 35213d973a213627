//! Differences between the stored snapshot and what the mods show now.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::Value;

use crate::surface::{CheckDiagnostic, Registrations};
use crate::{Snapshot, Surface};

/// How one thing changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChangeKind {
    /// Present now, not in the snapshot.
    Added,
    /// In the snapshot, gone now.
    Removed,
    /// In both, different.
    Changed,
}

impl ChangeKind {
    fn sign(self) -> char {
        match self {
            ChangeKind::Added => '+',
            ChangeKind::Removed => '-',
            ChangeKind::Changed => '~',
        }
    }
}

/// One difference, described for a person.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// Added, removed or changed.
    pub kind: ChangeKind,
    /// What, e.g. `diagnostic activate/exception error TypeError: boom` or
    /// `tool \`lint\`: description "a" → "b"`.
    pub what: String,
}

/// How one mod differs from the snapshot.
#[derive(Clone, Debug, PartialEq)]
pub enum ModDrift {
    /// Found now, not in the snapshot.
    New {
        /// The mod's key.
        key: String,
        /// Per profile, what it shows (all additions), for review before `--accept`.
        profiles: BTreeMap<String, Vec<Change>>,
    },
    /// In the snapshot, not found now.
    Vanished {
        /// The mod's key.
        key: String,
    },
    /// In both, with differences under some profiles.
    Changed {
        /// The mod's key.
        key: String,
        /// Per profile, its changes (profiles without changes left out).
        profiles: BTreeMap<String, Vec<Change>>,
    },
}

impl ModDrift {
    /// The mod's key.
    pub fn key(&self) -> &str {
        match self {
            ModDrift::New { key, .. } | ModDrift::Vanished { key } | ModDrift::Changed { key, .. } => key,
        }
    }
}

/// Every mod that differs between `stored` and `current`, in key order.
pub fn compare(stored: &Snapshot, current: &Snapshot) -> Vec<ModDrift> {
    let mut keys: Vec<&String> = stored.mods.keys().chain(current.mods.keys()).collect();
    keys.sort();
    keys.dedup();
    let mut drifts = Vec::new();
    for key in keys {
        match (stored.mods.get(key), current.mods.get(key)) {
            (None, Some(new)) => {
                let profiles = new.iter().map(|(name, surface)| (name.clone(), describe(surface))).collect();
                drifts.push(ModDrift::New { key: key.clone(), profiles });
            }
            (Some(_), None) => drifts.push(ModDrift::Vanished { key: key.clone() }),
            (Some(old), Some(new)) if old != new => {
                let mut profiles = BTreeMap::new();
                let mut names: Vec<&String> = old.keys().chain(new.keys()).collect();
                names.sort();
                names.dedup();
                for name in names {
                    let changes = match (old.get(name), new.get(name)) {
                        (None, Some(_)) => vec![change(ChangeKind::Added, "profile checked now, not in the snapshot")],
                        (Some(_), None) => vec![change(ChangeKind::Removed, "profile in the snapshot, not checked now")],
                        (Some(a), Some(b)) if a != b => surface_changes(a, b),
                        _ => continue,
                    };
                    profiles.insert(name.clone(), changes);
                }
                drifts.push(ModDrift::Changed { key: key.clone(), profiles });
            }
            _ => {}
        }
    }
    drifts
}

fn change(kind: ChangeKind, what: impl Into<String>) -> Change {
    Change { kind, what: what.into() }
}

/// Everything a new mod shows, as additions.
fn describe(surface: &Surface) -> Vec<Change> {
    let loads = if surface.loaded { "loads" } else { "does not load" };
    let mut changes = vec![change(ChangeKind::Added, loads)];
    if let Some(error) = &surface.engine_error {
        changes.push(change(ChangeKind::Added, format!("engine error {error:?}")));
    }
    diagnostic_changes(&[], &surface.diagnostics, &mut changes);
    registration_changes(&Registrations::default(), &surface.registered, &mut changes);
    changes
}

fn surface_changes(old: &Surface, new: &Surface) -> Vec<Change> {
    let mut changes = Vec::new();
    if old.loaded != new.loaded {
        let say = |loaded: bool| if loaded { "loads" } else { "does not load" };
        changes.push(change(ChangeKind::Changed, format!("{} → {}", say(old.loaded), say(new.loaded))));
    }
    if old.engine_error != new.engine_error {
        let say = |e: &Option<String>| e.as_deref().map_or("none".to_owned(), |e| format!("{e:?}"));
        changes.push(change(ChangeKind::Changed, format!("engine error {} → {}", say(&old.engine_error), say(&new.engine_error))));
    }
    diagnostic_changes(&old.diagnostics, &new.diagnostics, &mut changes);
    registration_changes(&old.registered, &new.registered, &mut changes);
    if changes.is_empty() {
        // Same items, other order: dispatch order is part of what a mod does.
        changes.push(change(ChangeKind::Changed, "order of diagnostics or registrations"));
    }
    changes
}

fn diagnostic_changes(old: &[CheckDiagnostic], new: &[CheckDiagnostic], changes: &mut Vec<Change>) {
    let mut removed: Vec<&CheckDiagnostic> = old.iter().collect();
    let mut added: Vec<&CheckDiagnostic> = Vec::new();
    for diagnostic in new {
        match removed.iter().position(|d| *d == diagnostic) {
            Some(at) => {
                removed.remove(at);
            }
            None => added.push(diagnostic),
        }
    }
    for gone in removed {
        // A diagnostic of the same phase, fault and capability is the same one, changed.
        if let Some(at) = added.iter().position(|d| d.identity() == gone.identity()) {
            let now = added.remove(at);
            let mut fields = Vec::new();
            let mut field = |name: &str, a: &str, b: &str| {
                if a != b {
                    fields.push(format!("{name} {a:?} → {b:?}"));
                }
            };
            field("severity", &gone.severity, &now.severity);
            field("error name", &gone.error_name, &now.error_name);
            field("message", &gone.message, &now.message);
            field("hint", gone.hint.as_deref().unwrap_or(""), now.hint.as_deref().unwrap_or(""));
            let capability = gone.capability.as_ref().map(|c| format!(" [{c}]")).unwrap_or_default();
            changes
                .push(change(ChangeKind::Changed, format!("diagnostic {}/{}{capability}: {}", gone.phase, gone.fault, fields.join("; "))));
        } else {
            changes.push(change(ChangeKind::Removed, format!("diagnostic {}", gone.summary())));
        }
    }
    for diagnostic in added {
        changes.push(change(ChangeKind::Added, format!("diagnostic {}", diagnostic.summary())));
    }
}

fn registration_changes(old: &Registrations, new: &Registrations, changes: &mut Vec<Change>) {
    let mut events: Vec<&String> = old.events.keys().chain(new.events.keys()).collect();
    events.sort();
    events.dedup();
    for event in events {
        match (old.events.get(event), new.events.get(event)) {
            (None, Some(n)) => changes.push(change(ChangeKind::Added, format!("{n} `{event}` handler(s)"))),
            (Some(n), None) => changes.push(change(ChangeKind::Removed, format!("{n} `{event}` handler(s)"))),
            (Some(a), Some(b)) if a != b => {
                changes.push(change(ChangeKind::Changed, format!("`{event}` handlers {a} → {b}")));
            }
            _ => {}
        }
    }
    keyed_changes("tool", "name", &as_values(&old.tools), &as_values(&new.tools), changes);
    keyed_changes("command", "id", &as_values(&old.commands), &as_values(&new.commands), changes);
    keyed_changes("permission check", "id", &old.permissions, &new.permissions, changes);
    keyed_changes("provider", "name", &old.providers, &new.providers, changes);
    keyed_changes("panel", "id", &old.panels, &new.panels, changes);
}

fn as_values(items: &[impl serde::Serialize]) -> Vec<Value> {
    items.iter().map(|item| serde_json::to_value(item).expect("registration serializes")).collect()
}

/// Diffs two lists of registrations matched by their `key` field.
fn keyed_changes(what: &str, key: &str, old: &[Value], new: &[Value], changes: &mut Vec<Change>) {
    let name = |value: &Value| value.get(key).map_or_else(|| value.to_string(), |v| v.as_str().map_or(v.to_string(), str::to_owned));
    for item in old {
        match new.iter().find(|n| name(n) == name(item)) {
            None => changes.push(change(ChangeKind::Removed, format!("{what} `{}`", name(item)))),
            Some(now) if now != item => {
                let mut fields = Vec::new();
                let empty = serde_json::Map::new();
                let before = item.as_object().unwrap_or(&empty);
                let after = now.as_object().unwrap_or(&empty);
                let mut names: Vec<&String> = before.keys().chain(after.keys()).collect();
                names.sort();
                names.dedup();
                for field in names {
                    let (a, b) = (before.get(field), after.get(field));
                    if a != b {
                        let show = |v: Option<&Value>| v.map_or("(none)".to_owned(), Value::to_string);
                        fields.push(format!("{field} {} → {}", show(a), show(b)));
                    }
                }
                changes.push(change(ChangeKind::Changed, format!("{what} `{}`: {}", name(item), fields.join("; "))));
            }
            Some(_) => {}
        }
    }
    for item in new {
        if !old.iter().any(|o| name(o) == name(item)) {
            changes.push(change(ChangeKind::Added, format!("{what} `{}`", name(item))));
        }
    }
}

/// The drift as text: one block per mod, one line per change.
pub fn render_drift(drifts: &[ModDrift]) -> String {
    let mut out = String::new();
    for drift in drifts {
        match drift {
            ModDrift::New { key, profiles } => {
                let _ = writeln!(out, "new mod {key}: not in the snapshot");
                write_profiles(&mut out, profiles);
            }
            ModDrift::Vanished { key } => {
                let _ = writeln!(out, "vanished mod {key}: in the snapshot, no longer found");
            }
            ModDrift::Changed { key, profiles } => {
                let _ = writeln!(out, "changed mod {key}:");
                write_profiles(&mut out, profiles);
            }
        }
    }
    out
}

fn write_profiles(out: &mut String, profiles: &BTreeMap<String, Vec<Change>>) {
    for (profile, changes) in profiles {
        let _ = writeln!(out, "  under profile `{profile}`:");
        for change in changes {
            let _ = writeln!(out, "    {} {}", change.kind.sign(), change.what);
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::surface::CommandEntry;

    fn surface(events: &[(&str, usize)], commands: &[&str], diagnostics: Vec<CheckDiagnostic>) -> Surface {
        Surface {
            loaded: diagnostics.is_empty(),
            engine_error: None,
            diagnostics,
            registered: Registrations {
                events: events.iter().map(|(k, v)| ((*k).to_owned(), *v)).collect(),
                commands: commands
                    .iter()
                    .map(|id| CommandEntry { id: (*id).to_owned(), description: String::new(), order: serde_json::Value::from(0) })
                    .collect(),
                permissions: vec![json!({"id": "guard", "description": "d"})],
                ..Registrations::default()
            },
        }
    }

    fn diagnostic(message: &str) -> CheckDiagnostic {
        CheckDiagnostic {
            phase: "activate".into(),
            severity: "error".into(),
            fault: "exception".into(),
            capability: None,
            error_name: "Error".into(),
            message: message.into(),
            hint: None,
        }
    }

    fn snapshot(surface: Surface) -> Snapshot {
        let mut snapshot = Snapshot::new();
        snapshot.mods.entry("m.js".into()).or_default().insert("engine".into(), surface);
        snapshot
    }

    fn changes(old: Surface, new: Surface) -> Vec<String> {
        match compare(&snapshot(old), &snapshot(new)).as_slice() {
            [ModDrift::Changed { profiles, .. }] => profiles["engine"].iter().map(|c| format!("{} {}", c.kind.sign(), c.what)).collect(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn identical_snapshots_have_no_drift() {
        let same = surface(&[("turn_start", 1)], &["a"], vec![]);
        assert!(compare(&snapshot(same.clone()), &snapshot(same)).is_empty());
    }

    #[test]
    fn handler_counts_commands_and_load_state_are_compared() {
        let old = surface(&[("turn_start", 1), ("tool_end", 1)], &["a", "b"], vec![]);
        let new = surface(&[("turn_start", 2), ("turn_end", 1)], &["b", "c"], vec![diagnostic("boom")]);
        assert_eq!(
            changes(old, new),
            [
                "~ loads → does not load",
                "+ diagnostic activate/exception error Error: boom",
                "- 1 `tool_end` handler(s)",
                "+ 1 `turn_end` handler(s)",
                "~ `turn_start` handlers 1 → 2",
                "- command `a`",
                "+ command `c`",
            ]
        );
    }

    #[test]
    fn a_changed_message_is_one_change_and_a_repeated_diagnostic_counts() {
        let old = surface(&[], &[], vec![diagnostic("a"), diagnostic("a")]);
        let new = surface(&[], &[], vec![diagnostic("a"), diagnostic("b")]);
        assert_eq!(changes(old, new), [r#"~ diagnostic activate/exception: message "a" → "b""#]);
    }

    #[test]
    fn registration_order_alone_is_drift() {
        let old = surface(&[], &["a", "b"], vec![]);
        let new = surface(&[], &["b", "a"], vec![]);
        assert_eq!(changes(old, new), ["~ order of diagnostics or registrations"]);
    }

    #[test]
    fn permission_fields_are_named() {
        let old = surface(&[], &[], vec![]);
        let mut new = old.clone();
        new.registered.permissions = vec![json!({"id": "guard", "description": "e"})];
        assert_eq!(changes(old, new), [r#"~ permission check `guard`: description "d" → "e""#]);
    }
}
