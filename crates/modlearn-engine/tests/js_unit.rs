//! One Rust test per file in `js/tests/`, run inside the real engine.

use std::path::Path;

fn run(file: &str) {
    let js_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("js");
    let results = modlearn_engine::js_tests::run_js_test_file(&js_dir, file).expect("the test file runs");
    assert!(!results.is_empty(), "{file} registered no tests");
    let failures: Vec<String> = results
        .iter()
        .filter(|result| !result.ok)
        .map(|result| format!("{}: {}", result.name, result.error.as_deref().unwrap_or("")))
        .collect();
    assert!(failures.is_empty(), "{} of {} JS tests failed in {file}:\n{}", failures.len(), results.len(), failures.join("\n\n"));
}

#[test]
fn dispatch() {
    run("dispatch.test.js");
}

#[test]
fn support() {
    run("support.test.js");
}

#[test]
fn tool_result() {
    run("tool-result.test.js");
}

#[test]
fn command_runtime() {
    run("command-runtime.test.js");
}

#[test]
fn permission_compose() {
    run("permission-compose.test.js");
}

#[test]
fn lifecycle() {
    run("lifecycle.test.js");
}

#[test]
fn platform() {
    run("platform.test.js");
}

#[test]
fn live_compare() {
    run("live-compare.test.js");
}

#[test]
fn abort() {
    run("abort.test.js");
}

#[test]
fn json_sealed() {
    run("json-sealed.test.js");
}

#[test]
fn pi() {
    run("pi.test.js");
}
