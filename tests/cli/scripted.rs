//! Scripted headless scenarios end to end: the eval table and reports of the scripted corpus,
//! the trace and result files in the run directory, and environments that are missing or invalid.

use serde_json::Value;

use crate::common::TestContext;

const CANDIDATES: [&str; 4] = [
    "candidates/scripted/good-install-helper.ts",
    "candidates/scripted/partial-asks-for-sudo.js",
    "candidates/scripted/partial-continues-always.js",
    "candidates/scripted/broken-run-args.js",
];

#[test]
fn scripted_eval_reports_traces_and_results() {
    let context = TestContext::new();
    let run_dir = context.path("run");
    let mut args = vec!["eval", "specs/scripted-install.json"];
    args.extend(CANDIDATES);
    args.extend(["--run-dir", run_dir.to_str().unwrap()]);
    let rendered = context.run(&args);
    assert_eq!(rendered.code, 0, "{}", rendered.text);
    insta::assert_snapshot!("scripted-eval-table", rendered.text);
    for file in ["candidates/002/report.md", "candidates/003/report.md"] {
        let text = std::fs::read_to_string(run_dir.join(file)).unwrap();
        insta::assert_snapshot!(format!("scripted-eval-{}", file.replace('/', "-")), context.filter(&text));
    }
    let scenario = run_dir.join("candidates/003/eval/002-install-flow");
    let trace = std::fs::read_to_string(scenario.join("trace.jsonl")).unwrap();
    insta::assert_snapshot!("scripted-trace-continues-always", trace);
    assert_eq!(std::fs::read_to_string(scenario.join("result.txt")).unwrap(), "Installed requests 2.32.3.");
    let manifest: Value = serde_json::from_str(&std::fs::read_to_string(run_dir.join("candidates/003/manifest.json")).unwrap()).unwrap();
    let listed: Vec<&str> =
        manifest["artifacts"]["scenarioArtifacts"].as_array().unwrap().iter().map(|path| path.as_str().unwrap()).collect();
    assert!(listed.contains(&"candidates/003/eval/002-install-flow/trace.jsonl"), "{listed:?}");
    assert!(listed.contains(&"candidates/003/eval/004-other-commands-untouched/result.txt"), "{listed:?}");
    // The assertion-only scenario has no session files.
    assert!(!run_dir.join("candidates/003/eval/001-mod-loads/trace.jsonl").exists());
}

const SPEC: &str = r#"{
  "name": "Elsewhere", "objective": "o", "requirements": ["r"],
  "evaluation": { "scenarios": [
    { "name": "loads", "assertions": [{ "type": "mod_loads" }] },
    { "name": "scripted", "env": "ENV", "script": [{ "user": "hi" }], "requiredResultMarkers": ["hi"] }
  ] }
}"#;

#[test]
fn a_missing_environment_is_a_usage_error() {
    let context = TestContext::new();
    let spec = context.path("spec.json");
    std::fs::write(&spec, SPEC.replace("ENV", "nowhere")).unwrap();
    let rendered = context.run(&["eval", spec.to_str().unwrap(), CANDIDATES[0], "--run-dir", context.path("run").to_str().unwrap()]);
    assert_eq!(rendered.code, 2);
    assert!(!context.path("run").exists(), "nothing is written");
    insta::assert_snapshot!("scripted-missing-env", rendered.text);
}

#[test]
fn an_invalid_environment_is_a_usage_error_naming_file_and_path() {
    let context = TestContext::new();
    let envs = context.path("envs/broken");
    std::fs::create_dir_all(&envs).unwrap();
    std::fs::write(
        envs.join("env.json"),
        "{\n  \"name\": \"broken\",\n  \"profile\": \"desktop\",\n  \"tools\": [{ \"name\": \"Bash\", \"kind\": \"shell\" }]\n}\n",
    )
    .unwrap();
    let spec = context.path("specs/spec.json");
    std::fs::create_dir_all(spec.parent().unwrap()).unwrap();
    std::fs::write(&spec, SPEC.replace("ENV", "broken")).unwrap();
    let rendered = context.run(&["validate", spec.to_str().unwrap()]);
    assert_eq!(rendered.code, 2);
    insta::assert_snapshot!("scripted-invalid-env", rendered.text);
}

#[test]
fn the_scripted_spec_validates() {
    let context = TestContext::new();
    let rendered = context.run(&["validate", "specs/scripted-install.json"]);
    assert_eq!(rendered.code, 0, "{}", rendered.text);
    insta::assert_snapshot!("scripted-validate", rendered.text);
}
