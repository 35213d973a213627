//! Environment files: one snapshot per broken file in `tests/bad-envs/`, the shipped
//! environments load, and a spec that names a missing environment says where it looked.

use std::path::Path;

use modlearn_spec::{EnvError, Profile, attach_envs, load_env, load_spec, resolve_scenarios};

use crate::{crate_relative, write_spec};

#[test]
fn bad_envs() {
    insta::glob!("../bad-envs", "*/env.json", |path| {
        let error = load_env(&crate_relative(path)).expect_err("a bad env");
        insta::assert_snapshot!(error.to_string());
    });
}

#[test]
fn shipped_envs_load_without_warnings() {
    for entry in std::fs::read_dir("../../envs").unwrap() {
        let path = entry.unwrap().path().join("env.json");
        if !path.is_file() {
            continue;
        }
        let loaded = load_env(&path).unwrap_or_else(|error| panic!("{error}"));
        assert!(loaded.warnings.is_empty(), "{}: {:?}", path.display(), loaded.warnings);
        assert!(!loaded.env.tools.is_empty());
    }
}

const SCRIPTED: &str = r#"{
  "name": "Scripted", "objective": "o", "requirements": ["r"],
  "evaluation": { "scenarios": [
    { "name": "default-env", "script": [{ "user": "hi" }], "requiredResultMarkers": ["x"] },
    { "name": "assertions-only", "assertions": [{ "type": "mod_loads" }] },
    { "name": "elsewhere", "env": "no-such-env", "script": [{ "user": "hi" }], "requiredResultMarkers": ["x"] }
  ] }
}"#;

#[test]
fn a_missing_env_names_the_scenario_and_where_it_looked() {
    let (dir, path) = write_spec("scripted.json", SCRIPTED);
    let loaded = load_spec(&path).unwrap();
    let mut scenarios = resolve_scenarios(&loaded.spec);
    let error = attach_envs(&mut scenarios, &loaded).unwrap_err();
    let EnvError::Missing { json_path, name, .. } = &error else { panic!("{error}") };
    assert_eq!((json_path.as_str(), name.as_str()), ("evaluation.scenarios[2].env", "no-such-env"));
    let rendered = error.to_string().replace(&dir.path().display().to_string(), "[DIR]");
    insta::assert_snapshot!(rendered, @"spec `[DIR]/scripted.json`: evaluation.scenarios[2].env: no environment `no-such-env` (looked for `envs/no-such-env/env.json`)");
}

#[test]
fn scripts_get_the_default_env_and_other_scenarios_none() {
    let spec = SCRIPTED.replace(r#""env": "no-such-env", "#, "");
    let (_dir, path) = write_spec("scripted.json", &spec);
    let loaded = load_spec(&path).unwrap();
    let mut scenarios = resolve_scenarios(&loaded.spec);
    let envs = attach_envs(&mut scenarios, &loaded).unwrap();
    // Loaded once, shared by both scripted scenarios.
    assert_eq!(envs.len(), 1);
    assert_eq!(scenarios[0].environment.as_ref().unwrap().profile, Profile::Headless);
    assert!(scenarios[1].environment.is_none());
    assert_eq!(scenarios[2].env_name(), Some("coding-agent"));
    assert!(Path::new(&envs[0].path).ends_with("coding-agent/env.json"));
}
