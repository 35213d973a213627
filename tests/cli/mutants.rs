//! `modlearn validate --mutants`: built-in wrong mods against every project spec and against a
//! deliberately weak one.

use crate::common::{TestContext, repo_root};

/// Every spec under `specs/` (not the schema), as repository-relative paths.
fn project_specs() -> Vec<String> {
    let mut specs: Vec<String> = std::fs::read_dir(repo_root().join("specs"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".json") && name != "modlearn.schema.json")
        .map(|name| format!("specs/{name}"))
        .collect();
    specs.sort();
    specs
}

#[test]
fn every_project_spec_against_the_mutants() {
    let context = TestContext::new();
    let mut killers = Vec::new();
    for spec in project_specs() {
        let rendered = context.run(&["validate", "--mutants", spec.as_str()]);
        let survived = rendered.stdout.contains("SURVIVED");
        assert_eq!(rendered.code, if survived { 1 } else { 0 }, "{}", rendered.text);
        if !survived {
            killers.push(spec.clone());
        }
        insta::assert_snapshot!(format!("mutants-{}", spec.trim_start_matches("specs/")), rendered.text);
    }
    // The project must show what a strong enough spec looks like.
    assert!(killers.contains(&"specs/turn-reminder.json".to_owned()), "{killers:?}");
    assert!(killers.contains(&"specs/tool-permission-command.json".to_owned()), "{killers:?}");
}

#[test]
fn a_weak_spec_lets_mutants_survive() {
    let context = TestContext::new();
    let rendered = context.run(&["validate", "--mutants", "tests/cli/fixtures/weak-spec.json"]);
    assert_eq!(rendered.code, 1, "{}", rendered.text);
    insta::assert_snapshot!("mutants-weak-spec", rendered.text);
}

#[test]
fn the_mutant_report_as_json() {
    let context = TestContext::new();
    let rendered = context.run(&["validate", "--mutants", "--json", "tests/cli/fixtures/weak-spec.json"]);
    assert_eq!(rendered.code, 1, "{}", rendered.text);
    let report: serde_json::Value = serde_json::from_str(&rendered.stdout).unwrap();
    let survivors: Vec<&str> = report["mutants"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|mutant| mutant["survived"] == true)
        .map(|mutant| mutant["mutant"].as_str().unwrap())
        .collect();
    assert_eq!(survivors, ["rewrite-everything", "never-disposes"]);
    assert_eq!(report["uncovered"], serde_json::json!([3, 4]));
    insta::assert_snapshot!("mutants-weak-spec-json", rendered.text);
}

#[test]
fn an_invalid_spec_exits_2_before_any_mutant_runs() {
    let context = TestContext::new();
    let rendered = context.run(&["validate", "--mutants", "crates/modlearn-spec/tests/bad-specs/covers-out-of-range.json"]);
    assert_eq!(rendered.code, 2, "{}", rendered.text);
    assert!(rendered.stdout.is_empty());
    insta::assert_snapshot!("mutants-invalid-spec", rendered.text);
}

#[test]
fn json_needs_mutants() {
    let context = TestContext::new();
    let rendered = context.run(&["validate", "--json", "specs/uv-pip.json"]);
    assert_eq!(rendered.code, 2, "{}", rendered.text);
    insta::assert_snapshot!("mutants-json-without-mutants", rendered.text);
}
