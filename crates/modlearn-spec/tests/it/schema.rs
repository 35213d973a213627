//! The committed JSON Schema matches the types.

use std::path::PathBuf;

/// Fails when `specs/modlearn.schema.json` is stale; `MODLEARN_UPDATE_SCHEMA=1` rewrites it.
#[test]
fn committed_schema_is_current() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../specs/modlearn.schema.json");
    let expected = modlearn_spec::json_schema_text();
    if std::env::var_os("MODLEARN_UPDATE_SCHEMA").is_some_and(|value| value == "1") {
        std::fs::write(&path, &expected).expect("schema written");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == expected,
        "`specs/modlearn.schema.json` is stale; run `MODLEARN_UPDATE_SCHEMA=1 cargo test -p modlearn-spec` to update it"
    );
}

#[test]
fn schema_describes_the_spec() {
    let schema = modlearn_spec::json_schema();
    assert_eq!(schema["title"], "ModLearningSpec");
    assert!(schema["description"].as_str().unwrap().contains("mod-learning env"));
    let required = schema["required"].as_array().unwrap();
    assert_eq!(required, &["name", "objective", "requirements", "evaluation"]);
    let assertion = &schema["$defs"]["Assertion"];
    let tags: Vec<_> =
        assertion["oneOf"].as_array().unwrap().iter().map(|variant| variant["properties"]["type"]["const"].as_str().unwrap()).collect();
    assert_eq!(tags, modlearn_spec::Assertion::TYPE_NAMES);
}
