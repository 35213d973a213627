//! The snapshot file: every mod's surface per profile, as diff-friendly
//! JSON (sorted keys where order means nothing, registration order where it
//! does, two-space indentation, one trailing newline).

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::{CheckError, Surface};

/// The `kind` field of a snapshot file.
pub const SNAPSHOT_KIND: &str = "modlearn_check_snapshot";
/// The format version this crate reads and writes.
pub const SNAPSHOT_VERSION: u32 = 1;

/// Every checked mod's surface: mod key → profile → surface.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Snapshot {
    /// Always [`SNAPSHOT_KIND`].
    pub kind: String,
    /// Always [`SNAPSHOT_VERSION`].
    pub version: u32,
    /// The profiles the snapshot was taken under, sorted: what a check without `--profile`
    /// uses. Empty in snapshots written before it was recorded (the profiles of `mods` then).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub profiles: Vec<String>,
    /// The mod files and directories it covers, relative to the snapshot's directory (`.` for
    /// that directory), sorted: what a check without `MOD-OR-DIR` walks.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub roots: Vec<String>,
    /// Per mod (relative path), per profile name.
    pub mods: BTreeMap<String, BTreeMap<String, Surface>>,
}

impl Snapshot {
    /// An empty snapshot of the current format.
    pub fn new() -> Self {
        Self { kind: SNAPSHOT_KIND.to_owned(), version: SNAPSHOT_VERSION, profiles: Vec::new(), roots: Vec::new(), mods: BTreeMap::new() }
    }

    /// The profiles it covers: as recorded, else every profile any mod was stored under.
    pub fn covered_profiles(&self) -> Vec<String> {
        if !self.profiles.is_empty() {
            return self.profiles.clone();
        }
        let mut profiles: Vec<String> = self.mods.values().flat_map(|by_profile| by_profile.keys().cloned()).collect();
        profiles.sort();
        profiles.dedup();
        profiles
    }

    /// The part of this snapshot a check of `roots` under `profiles` sees: the mods under one of
    /// the roots, each with those profiles only (a mod left with none is dropped).
    pub fn restricted(&self, roots: &[String], profiles: &[String]) -> Snapshot {
        let mut mods = BTreeMap::new();
        for (key, by_profile) in &self.mods {
            if !roots.iter().any(|root| under(key, root)) {
                continue;
            }
            let kept: BTreeMap<String, Surface> =
                by_profile.iter().filter(|(profile, _)| profiles.contains(profile)).map(|(p, s)| (p.clone(), s.clone())).collect();
            if !kept.is_empty() {
                mods.insert(key.clone(), kept);
            }
        }
        Snapshot { mods, ..self.clone() }
    }

    /// Reads a snapshot file; `Ok(None)` when it does not exist. A file that
    /// is not a snapshot fails naming the file and the JSON path.
    pub fn read(path: &Path) -> Result<Option<Self>, CheckError> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(CheckError::Input { path: path.to_path_buf(), source }),
        };
        let invalid = |at: String, message: String| CheckError::InvalidSnapshot { path: path.to_path_buf(), at, message };
        let mut deserializer = serde_json::Deserializer::from_str(&text);
        let snapshot: Snapshot = serde_path_to_error::deserialize(&mut deserializer).map_err(|error| {
            let at = error.path().to_string();
            invalid(at, error.into_inner().to_string())
        })?;
        if snapshot.kind != SNAPSHOT_KIND {
            return Err(invalid("kind".into(), format!("expected \"{SNAPSHOT_KIND}\", found \"{}\"", snapshot.kind)));
        }
        if snapshot.version != SNAPSHOT_VERSION {
            return Err(invalid("version".into(), format!("expected {SNAPSHOT_VERSION}, found {}", snapshot.version)));
        }
        Ok(Some(snapshot))
    }

    /// The file's text.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("snapshot serializes");
        text.push('\n');
        text
    }

    /// Writes the file atomically (a killed `--accept` leaves the old one).
    pub fn write(&self, path: &Path) -> Result<(), modlearn_record::WriteError> {
        modlearn_record::write_atomic(path, self.to_json())
    }
}

/// Whether mod key (or root) `key` lies in `root`; `.` is everything beside the snapshot.
pub fn under(key: &str, root: &str) -> bool {
    root == "." || key == root || key.strip_prefix(root).is_some_and(|rest| rest.starts_with('/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_missing_file_is_none() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.json");
        assert_eq!(Snapshot::read(&path).unwrap(), None);
        let mut snapshot = Snapshot::new();
        snapshot
            .mods
            .entry("a.js".into())
            .or_default()
            .insert("engine".into(), Surface { loaded: true, engine_error: None, diagnostics: vec![], registered: Default::default() });
        snapshot.write(&path).unwrap();
        assert_eq!(Snapshot::read(&path).unwrap(), Some(snapshot));
    }

    #[test]
    fn a_restricted_snapshot_keeps_what_the_check_covers() {
        let surface = Surface { loaded: true, engine_error: None, diagnostics: vec![], registered: Default::default() };
        let mut snapshot = Snapshot::new();
        for key in ["a/x.js", "ab/y.js", "b.js"] {
            for profile in ["engine", "tui"] {
                snapshot.mods.entry(key.into()).or_default().insert(profile.into(), surface.clone());
            }
        }
        assert_eq!(snapshot.covered_profiles(), ["engine", "tui"]);
        let part = snapshot.restricted(&["a".into()], &["tui".into()]);
        assert_eq!(part.mods.keys().collect::<Vec<_>>(), ["a/x.js"], "`ab/` is not under `a`");
        assert_eq!(part.mods["a/x.js"].keys().collect::<Vec<_>>(), ["tui"]);
        assert_eq!(snapshot.restricted(&[".".into()], &["engine".into(), "tui".into()]), snapshot);
    }

    #[test]
    fn corrupt_file_names_the_json_path() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.json");
        std::fs::write(&path, r#"{"kind":"modlearn_check_snapshot","version":1,"mods":{"a.js":{"engine":{"loaded":"yes"}}}}"#).unwrap();
        let error = Snapshot::read(&path).unwrap_err().to_string();
        assert!(error.contains("mods.a.js.engine.loaded"), "{error}");
        assert!(error.contains("s.json"), "{error}");
        std::fs::write(&path, r#"{"kind":"other","version":1,"mods":{}}"#).unwrap();
        assert!(Snapshot::read(&path).unwrap_err().to_string().contains("at `kind`"));
    }
}
