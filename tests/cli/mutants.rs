//! `modlearn validate --mutants`: built-in wrong mods against every project spec and against a
//! deliberately weak one.

use modlearn_testserver::{Reply, TestServer};
use serde_json::json;

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
fn json_works_without_mutants() {
    let context = TestContext::new();
    let rendered = context.run(&["validate", "--json", "specs/uv-pip.json"]);
    assert_eq!(rendered.code, 0, "{}", rendered.text);
    insta::assert_snapshot!("validate-json-without-mutants", rendered.text);
}

/// Without `--eval-model` the prompt markers of specs/prompt-install.json never run; they kill
/// no mutant, so `never-disposes` (right on every handler check) survives and exit is 1.
#[test]
fn unrun_prompt_markers_kill_no_mutant() {
    let context = TestContext::new();
    let rendered = context.run(&["validate", "--mutants", "--json", "specs/prompt-install.json"]);
    assert_eq!(rendered.code, 1, "{}", rendered.text);
    let report: serde_json::Value = serde_json::from_str(&rendered.stdout).unwrap();
    let never = report["mutants"].as_array().unwrap().iter().find(|m| m["mutant"] == "never-disposes").unwrap();
    assert_eq!(never["survived"], true, "{never}");
    assert_eq!(never["killedBy"], json!([]));
    assert_eq!(never["notRun"].as_array().unwrap().len(), 3, "{never}");
}

/// With `--eval-model` every mutant's prompt scenario runs against a model on 127.0.0.1: the
/// model asks for `pip install requests`; a mutant that does not rewrite it fails the trace
/// marker, and nothing is left unrun.
#[test]
fn an_eval_model_runs_the_prompt_scenarios_of_every_mutant() {
    let context = TestContext::new();
    let server = TestServer::start_blocking();
    server.session(
        "agent-model",
        vec![
            Reply::tool_call("Bash", json!({ "command": "pip install requests" })).with_text("Installing."),
            Reply::text("Installed requests."),
        ],
    );
    let (base, cache) = (server.base_url_openai(), context.path("cache"));
    let args = [
        "validate",
        "--mutants",
        "specs/prompt-install.json",
        "--eval-model",
        "openai:agent-model",
        "--eval-base-url",
        &base,
        "--cache-dir",
        cache.to_str().unwrap(),
    ];
    let mut command = context.command(&args);
    command.env("OPENAI_API_KEY", "sk-test").env_remove("OPENAI_BASE_URL");
    let rendered = context.render(command);
    assert_eq!(rendered.code, 1, "never-disposes survives: {}", rendered.text);
    assert!(!rendered.stdout.contains("not run"), "{}", rendered.text);
    assert!(server.request_count() > 0, "the prompt scenarios ran");
    insta::assert_snapshot!("mutants-prompt-install-eval-model", rendered.text);

    let mut command = context.command(&[&args[..], &["--json"]].concat());
    command.env("OPENAI_API_KEY", "sk-test").env_remove("OPENAI_BASE_URL");
    let report: serde_json::Value = serde_json::from_str(&context.render(command).stdout).unwrap();
    let mutant = |name: &str| report["mutants"].as_array().unwrap().iter().find(|m| m["mutant"] == name).unwrap().clone();
    let passthrough = mutant("all-handlers-passthrough");
    let trace_marker =
        passthrough["killedBy"].as_array().unwrap().iter().find(|check| check["label"].as_str().unwrap().contains("required_trace_marker"));
    assert!(trace_marker.unwrap()["message"].as_str().unwrap().starts_with("not in the trace"), "{passthrough}");
    assert_eq!(mutant("never-disposes")["survived"], true);
    assert!(mutant("never-disposes").get("notRun").is_none());
}

#[test]
fn eval_model_needs_mutants() {
    let context = TestContext::new();
    let rendered = context.run(&["validate", "specs/prompt-install.json", "--eval-model", "openai:agent-model"]);
    assert_eq!(rendered.code, 2, "{}", rendered.text);
    insta::assert_snapshot!("mutants-eval-model-without-mutants", rendered.text);
}
