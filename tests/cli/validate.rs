//! `modlearn validate`: every bad spec is reported with each problem's place.

use crate::common::{TestContext, repo_root};

#[test]
fn valid_specs() {
    let context = TestContext::new();
    for spec in ["specs/uv-pip.json", "specs/turn-reminder.json"] {
        let rendered = context.run(&["validate", spec]);
        assert_eq!(rendered.code, 0, "{}", rendered.text);
        insta::assert_snapshot!(format!("validate-{}", spec.trim_start_matches("specs/")), rendered.text);
    }
}

#[test]
fn bad_specs_exit_2_with_every_problem() {
    let context = TestContext::new();
    insta::glob!(repo_root(), "crates/modlearn-spec/tests/bad-specs/*.json", |path| {
        let relative = path.strip_prefix(repo_root()).unwrap().display().to_string();
        let rendered = context.run(&["validate", &relative]);
        // Unknown fields are errors too: a misspelt field would make the spec weaker than it reads.
        assert_eq!(rendered.code, 2, "{}", rendered.text);
        insta::assert_snapshot!(rendered.text);
    });
}

#[test]
fn a_missing_spec_file_is_named() {
    let context = TestContext::new();
    let rendered = context.run(&["validate", "specs/does-not-exist.json"]);
    assert_eq!(rendered.code, 2);
    insta::assert_snapshot!(rendered.text);
}

#[test]
fn schema_into_a_reader_that_stops_early_ends_quietly() {
    use std::io::BufRead;
    let context = TestContext::new();
    let mut child = context.command(&["schema"]).stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped()).spawn().unwrap();
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    // The reader is gone (as `head -1` goes); the schema is larger than a pipe holds.
    let output = child.wait_with_output().unwrap();
    assert_eq!(first, "{\n");
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(!String::from_utf8_lossy(&output.stderr).contains("panicked"));
}

#[test]
fn schema_matches_the_committed_file() {
    let context = TestContext::new();
    let rendered = context.run(&["schema"]);
    assert_eq!(rendered.code, 0);
    let committed = std::fs::read_to_string(repo_root().join("specs/modlearn.schema.json")).unwrap();
    assert_eq!(rendered.stdout, committed, "run `MODLEARN_UPDATE_SCHEMA=1 cargo test -p modlearn-spec`");
}

#[test]
fn validate_json_prints_the_problems_of_an_invalid_spec_as_data() {
    let context = TestContext::new();
    let rendered = context.run(&["validate", "--json", "crates/modlearn-spec/tests/bad-specs/world-assertions.json"]);
    assert_eq!(rendered.code, 2);
    let json: serde_json::Value = serde_json::from_str(&rendered.stdout).unwrap_or_else(|error| panic!("{error}: {}", rendered.text));
    assert_eq!(json["valid"], false);
    insta::assert_snapshot!("validate-json-invalid", rendered.stdout);
}
