//! Tests of coverage: the word rules, the weighting, stated `covers` and uncovered requirements.

use std::path::Path;

use modlearn_spec::parse_spec;

use super::*;

fn spec(source: &str) -> ModLearningSpec {
    parse_spec(source, Path::new("coverage.json")).unwrap().spec
}

fn numbers(row: &RequirementCoverage) -> Vec<(String, bool)> {
    row.covered_by.iter().map(|check| (format!("{}: {}", check.scenario, check.label), check.inferred)).collect()
}

#[test]
fn words_split_snake_case_drop_plurals_and_stop_words() {
    let found: Vec<String> = words("On every turn_start, the mod LOADS `uv pip install` tools; a is").into_iter().collect();
    assert_eq!(found, ["install", "load", "pip", "start", "tool", "turn", "turn_start", "uv"]);
    // `ss` endings and short words keep their `s`.
    let kept: Vec<String> = words("pass bus gas").into_iter().collect();
    assert_eq!(kept, ["bus", "gas", "pass"]);
    let event: Vec<String> = words("turn_start_injects_message").into_iter().collect();
    assert_eq!(
        event,
        ["inject", "injects_message", "message", "start", "start_inject", "turn", "turn_start", "turn_start_injects_message"]
    );
}

#[test]
fn assertion_words_come_from_values_not_keys() {
    let assertion: Assertion = serde_json::from_value(serde_json::json!({
        "type": "tool_start_rewrites_args", "toolName": "Bash",
        "args": { "command": "pip install rich" }, "expectArgs": { "command": "uv pip install rich" }
    }))
    .unwrap();
    let found = assertion_words(&assertion);
    for word in ["tool_start_rewrites_arg", "tool", "start", "rewrite", "arg", "bash", "pip", "install", "rich", "uv"] {
        assert!(found.contains(word), "{word} in {found:?}");
    }
    assert!(!found.contains("command") && !found.contains("expectarg"), "{found:?}");
}

const TWO_REQUIREMENTS: &str = r#"{
  "name": "n", "objective": "o",
  "requirements": [
    "On turn_start append a system reminder that mentions uv.",
    "On tool_start rewrite Bash pip install into uv pip install.",
    "Never read the filesystem."
  ],
  "evaluation": {
    "assertions": [{ "type": "mod_loads" }],
    "scenarios": [
      { "name": "reminder", "assertions": [{ "type": "turn_start_injects_message", "contains": "uv" }] },
      { "name": "rewrite", "assertions": [
        { "type": "tool_start_rewrites_args", "toolName": "Bash", "args": { "command": "pip install a" }, "expectArgs": { "command": "uv pip install a" } }
      ] }
    ]
  }
}"#;

#[test]
fn each_assertion_goes_to_the_requirement_it_shares_rare_words_with() {
    let table = coverage(&spec(TWO_REQUIREMENTS));
    // `uv` is in both requirements, so it weighs half; `turn_start` and `reminder` decide.
    assert_eq!(numbers(&table[0]), [("reminder: 2. turn_start_injects_message".to_owned(), true)]);
    assert_eq!(numbers(&table[1]), [("rewrite: 2. tool_start_rewrites_args Bash".to_owned(), true)]);
    // Nothing shares a word with "filesystem"; mod_loads shares none either, so it covers nothing.
    assert!(table[2].covered_by.is_empty());
}

#[test]
fn stated_covers_replace_inference_for_that_scenario_only() {
    let mut source: serde_json::Value = serde_json::from_str(TWO_REQUIREMENTS).unwrap();
    source["evaluation"]["scenarios"][0]["covers"] = serde_json::json!([1, 3]);
    let table = coverage(&spec(&source.to_string()));
    assert_eq!(numbers(&table[0]), [("reminder: 2. turn_start_injects_message".to_owned(), false)]);
    assert_eq!(numbers(&table[2]), [("reminder: 2. turn_start_injects_message".to_owned(), false)]);
    // The other scenario is still inferred.
    assert_eq!(numbers(&table[1]), [("rewrite: 2. tool_start_rewrites_args Bash".to_owned(), true)]);
}

#[test]
fn evaluation_level_assertions_are_listed_once() {
    let source = r#"{
      "name": "n", "objective": "o",
      "requirements": ["The mod loads cleanly.", "It rewrites pip."],
      "evaluation": {
        "assertions": [{ "type": "mod_loads" }],
        "scenarios": [
          { "name": "a", "assertions": [{ "type": "tool_start_preserves_args", "toolName": "Read", "args": {} }] },
          { "name": "b", "covers": [2], "assertions": [
            { "type": "tool_start_rewrites_args", "toolName": "Bash", "args": { "command": "pip" }, "expectArgs": { "command": "uv pip" } }
          ] }
        ]
      }
    }"#;
    let table = coverage(&spec(source));
    assert_eq!(numbers(&table[0]), [(format!("{EVERY_SCENARIO}: 1. mod_loads"), true)]);
    assert_eq!(numbers(&table[1]), [("b: 2. tool_start_rewrites_args Bash".to_owned(), false)]);
}

#[test]
fn a_spec_without_scenarios_is_the_default_scenario() {
    let source = r#"{
      "name": "n", "objective": "o", "requirements": ["Load without diagnostics."],
      "evaluation": { "assertions": [{ "type": "mod_loads" }] }
    }"#;
    let table = coverage(&spec(source));
    assert_eq!(numbers(&table[0]), [("default: 1. mod_loads".to_owned(), true)]);
}

#[test]
fn a_weak_match_is_not_coverage() {
    // "handler" is a word both share, but it is in every requirement, so it weighs 1/2 < 1.
    let source = r#"{
      "name": "n", "objective": "o",
      "requirements": ["Add a turn handler.", "Add a second handler for tools."],
      "evaluation": { "scenarios": [
        { "name": "x", "assertions": [{ "type": "command_registered", "command": "handler" }] },
        { "name": "y", "assertions": [{ "type": "mod_loads" }] }
      ] }
    }"#;
    let table = coverage(&spec(source));
    assert!(table.iter().all(|row| row.covered_by.is_empty()), "{table:?}");
}

#[test]
fn type_vocabulary_matches_how_requirements_say_it() {
    // "unchanged" is nowhere in the assertion itself; the type's vocabulary brings it.
    let source = r#"{
      "name": "n", "objective": "o",
      "requirements": ["Rewrite pip install to uv pip install.", "Leave npm commands unchanged."],
      "evaluation": { "scenarios": [
        { "name": "npm", "assertions": [{ "type": "tool_start_preserves_args", "toolName": "Bash", "args": { "command": "npm ci" } }] },
        { "name": "loads", "assertions": [{ "type": "mod_loads" }] }
      ] }
    }"#;
    let table = coverage(&spec(source));
    assert!(table[0].covered_by.is_empty(), "{table:?}");
    assert_eq!(numbers(&table[1]), [("npm: 1. tool_start_preserves_args Bash".to_owned(), true)]);
    for name in Assertion::TYPE_NAMES {
        assert!(!type_vocabulary(name).is_empty(), "{name} has no vocabulary");
    }
}

#[test]
fn markers_are_checks_too_numbered_after_the_assertions() {
    let source = r#"{
      "name": "n", "objective": "o",
      "requirements": ["Load cleanly.", "After an install, ask for a follow-up: Run uv pip list to verify."],
      "evaluation": {
        "forbiddenTraceMarkers": ["continue_dropped"],
        "scenarios": [
          { "name": "flow", "prompt": "Install requests", "assertions": [{ "type": "mod_loads" }],
            "requiredTraceMarkers": ["Run uv pip list to verify"] },
          { "name": "flow-2", "prompt": "Install rich", "covers": [2], "requiredResultMarkers": ["Installed rich"] }
        ]
      }
    }"#;
    let table = coverage(&spec(source));
    assert_eq!(numbers(&table[0]), [("flow: 1. mod_loads".to_owned(), true)]);
    assert_eq!(
        numbers(&table[1]),
        [
            ("flow: 2. required_trace_marker \"Run uv pip list to verify\"".to_owned(), true),
            ("flow-2: 1. required_result_marker \"Installed rich\"".to_owned(), false),
        ]
    );
    // The evaluation-level forbidden marker shares no word with either requirement.
    assert!(table.iter().flat_map(|row| &row.covered_by).all(|check| check.scenario != EVERY_SCENARIO));
}
