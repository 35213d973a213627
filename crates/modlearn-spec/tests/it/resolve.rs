//! Scenario resolution follows Letta Code's `evaluationScenarios`.

use std::path::Path;

use modlearn_spec::{
    Assertion, DEFAULT_MAX_TURNS, DEFAULT_TIMEOUT_MS, ModLearningSpec, OutputFormat, parse_spec, resolve_scenarios, spec_slug,
};

fn spec(evaluation: &str) -> ModLearningSpec {
    let source = format!(r#"{{ "name": "Resolution Test!", "objective": "o", "requirements": ["r"], "evaluation": {evaluation} }}"#);
    parse_spec(&source, Path::new("resolve.json")).unwrap().spec
}

#[test]
fn evaluation_checks_come_before_each_scenario_s_own() {
    let spec = spec(
        r#"{
        "prompt": "Shared prompt",
        "outputFormat": "json",
        "timeoutMs": 1000,
        "assertions": [{ "type": "mod_loads" }],
        "requiredResultMarkers": ["base-result"],
        "requiredTraceMarkers": ["base-trace"],
        "forbiddenResultMarkers": ["base-forbidden-result"],
        "forbiddenTraceMarkers": ["base-forbidden-trace"],
        "memoryFiles": { "a.md": "evaluation a", "b.md": "evaluation b" },
        "scenarios": [
          {
            "name": "  First Scenario  ",
            "prompt": "Own prompt",
            "maxTurns": 3,
            "outputFormat": "stream-json",
            "assertions": [{ "type": "tool_start_preserves_args", "toolName": "Bash", "args": {} }],
            "requiredResultMarkers": ["own-result"],
            "forbiddenTraceMarkers": ["own-forbidden-trace"],
            "memoryFiles": { "b.md": "scenario b", "c.md": "scenario c" },
            "hidden": true
          },
          {}
        ]
      }"#,
    );
    let resolved = resolve_scenarios(&spec);
    assert_eq!(resolved.len(), 2);

    let first = &resolved[0];
    assert_eq!((first.index, first.name.as_str()), (0, "First Scenario"));
    assert_eq!(first.dir_name, "001-first-scenario");
    assert_eq!(first.prompt.as_deref(), Some("Own prompt"));
    assert_eq!((first.output_format, first.timeout_ms, first.max_turns), (OutputFormat::StreamJson, 1000, 3));
    let types: Vec<_> = first.assertions.iter().map(Assertion::type_name).collect();
    assert_eq!(types, ["mod_loads", "tool_start_preserves_args"]);
    assert_eq!(first.required_result_markers, ["base-result", "own-result"]);
    assert_eq!(first.required_trace_markers, ["base-trace"]);
    assert_eq!(first.forbidden_result_markers, ["base-forbidden-result"]);
    assert_eq!(first.forbidden_trace_markers, ["base-forbidden-trace", "own-forbidden-trace"]);
    let memory_files: Vec<_> = first.memory_files.iter().map(|(path, contents)| (path.as_str(), contents.as_str())).collect();
    assert_eq!(memory_files, [("a.md", "evaluation a"), ("b.md", "scenario b"), ("c.md", "scenario c")]);
    assert!(first.hidden);
    assert_eq!(first.max_score(), 2 + 2 + 1 + 1 + 2);

    let second = &resolved[1];
    assert_eq!((second.index, second.name.as_str()), (1, "scenario-2"));
    assert_eq!(second.dir_name, "002-scenario-2");
    assert_eq!(second.prompt.as_deref(), Some("Shared prompt"));
    assert_eq!((second.output_format, second.timeout_ms, second.max_turns), (OutputFormat::Json, 1000, DEFAULT_MAX_TURNS));
    assert_eq!(second.assertions.len(), 1);
    assert_eq!(second.memory_files.len(), 2);
    assert!(!second.hidden);
    assert_eq!(second.max_score(), 5);
}

#[test]
fn blank_names_are_numbered() {
    let mut spec = spec(r#"{ "prompt": "p", "requiredResultMarkers": ["m"], "scenarios": [{ "name": "a" }, {}, {}] }"#);
    spec.evaluation.scenarios.as_mut().unwrap()[1].name = Some("   ".to_owned());
    let names: Vec<_> = resolve_scenarios(&spec).into_iter().map(|scenario| (scenario.name, scenario.dir_name)).collect();
    assert_eq!(
        names,
        [
            ("a".to_owned(), "001-a".to_owned()),
            ("scenario-2".to_owned(), "002-scenario-2".to_owned()),
            ("scenario-3".to_owned(), "003-scenario-3".to_owned()),
        ]
    );
}

#[test]
fn without_scenarios_the_evaluation_is_the_default_scenario() {
    let spec = spec(
        r#"{
        "prompt": "Say OK",
        "requiredResultMarkers": ["OK"],
        "memoryFiles": { "notes.md": "n" }
      }"#,
    );
    let resolved = resolve_scenarios(&spec);
    assert_eq!(resolved.len(), 1);
    let scenario = &resolved[0];
    assert_eq!((scenario.name.as_str(), scenario.dir_name.as_str()), ("default", "001-default"));
    assert_eq!(scenario.prompt_to_run(), Some("Say OK"));
    assert_eq!(
        (scenario.output_format, scenario.timeout_ms, scenario.max_turns),
        (OutputFormat::StreamJson, DEFAULT_TIMEOUT_MS, DEFAULT_MAX_TURNS)
    );
    assert_eq!(scenario.memory_files.len(), 1);
    assert_eq!(scenario.max_score(), 1);
}

#[test]
fn blank_prompts_do_not_run() {
    let mut spec = spec(r#"{ "assertions": [{ "type": "mod_loads" }] }"#);
    spec.evaluation.prompt = Some("   ".to_owned());
    let resolved = resolve_scenarios(&spec);
    assert_eq!(resolved[0].prompt_to_run(), None);
}

#[test]
fn spec_slug_prefers_the_slug() {
    let mut spec = spec(r#"{ "prompt": "p" }"#);
    assert_eq!(spec_slug(&spec), "resolution-test");
    spec.slug = Some("Own Slug".to_owned());
    assert_eq!(spec_slug(&spec), "own-slug");
}
