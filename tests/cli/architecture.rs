//! The pipeline's direction is a rule, not a habit: any dependency edge
//! between modlearn crates that is not listed here fails the build.

use std::collections::{BTreeMap, BTreeSet};

use crate::common::repo_root;

const ALLOWED: &[(&str, &[&str])] = &[
    ("modlearn-types", &[]),
    ("modlearn-spec", &["modlearn-types"]),
    ("modlearn-engine-ops", &[]),
    ("modlearn-machine", &["modlearn-types"]),
    ("modlearn-engine", &["modlearn-engine-ops", "modlearn-machine", "modlearn-types"]),
    ("modlearn-exercise", &["modlearn-engine", "modlearn-machine", "modlearn-types"]),
    ("modlearn-judge", &["modlearn-spec", "modlearn-types"]),
    ("modlearn-propose", &["modlearn-spec", "modlearn-types"]),
    ("modlearn-testserver", &[]),
    ("modlearn-record", &["modlearn-types"]),
    ("modlearn-check", &["modlearn-engine", "modlearn-machine", "modlearn-record", "modlearn-types"]),
    (
        "modlearn-runner",
        &[
            "modlearn-engine",
            "modlearn-exercise",
            "modlearn-judge",
            "modlearn-machine",
            "modlearn-propose",
            "modlearn-record",
            "modlearn-spec",
            "modlearn-types",
        ],
    ),
    ("modlearn-mutants", &["modlearn-runner", "modlearn-spec"]),
    ("modlearn-compare", &["modlearn-propose", "modlearn-record", "modlearn-runner", "modlearn-spec", "modlearn-types"]),
    (
        "modlearn",
        &[
            "modlearn-check",
            "modlearn-compare",
            "modlearn-engine",
            "modlearn-machine",
            "modlearn-mutants",
            "modlearn-propose",
            "modlearn-record",
            "modlearn-runner",
            "modlearn-spec",
            "modlearn-types",
        ],
    ),
];

/// `modlearn-*` names in the `[dependencies]` table of a manifest.
fn internal_dependencies(manifest: &str) -> BTreeSet<String> {
    let mut in_dependencies = false;
    let mut found = BTreeSet::new();
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_dependencies = line == "[dependencies]";
            continue;
        }
        if in_dependencies && line.starts_with("modlearn-") {
            found.insert(line.split(['.', ' ', '=']).next().unwrap().to_owned());
        }
    }
    found
}

#[test]
fn crates_depend_only_downstream() {
    let mut actual: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for entry in std::fs::read_dir(repo_root().join("crates")).unwrap() {
        let manifest = entry.unwrap().path().join("Cargo.toml");
        if let Ok(text) = std::fs::read_to_string(&manifest) {
            let name = manifest.parent().unwrap().file_name().unwrap().to_string_lossy().into_owned();
            actual.insert(name, internal_dependencies(&text));
        }
    }
    let root = std::fs::read_to_string(repo_root().join("Cargo.toml")).unwrap();
    actual.insert("modlearn".to_owned(), internal_dependencies(&root));
    for (name, dependencies) in &actual {
        let allowed: BTreeSet<String> = ALLOWED
            .iter()
            .find(|(crate_name, _)| crate_name == name)
            .unwrap_or_else(|| panic!("crate `{name}` is not in the architecture table"))
            .1
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
        let forbidden: Vec<_> = dependencies.difference(&allowed).collect();
        assert!(forbidden.is_empty(), "`{name}` must not depend on {forbidden:?}");
    }
}
