//! The JSON Schema of the spec format, generated from the types and their doc comments.

use crate::types::ModLearningSpec;

/// JSON Schema (draft 2020-12) of [`ModLearningSpec`]. Unknown fields are allowed, as the loader
/// only warns about them.
pub fn json_schema() -> serde_json::Value {
    schemars::schema_for!(ModLearningSpec).to_value()
}

/// [`json_schema`] pretty-printed with a trailing newline, as committed in
/// `specs/modlearn.schema.json`.
pub fn json_schema_text() -> String {
    let mut text = serde_json::to_string_pretty(&json_schema()).expect("a JSON value always serializes");
    text.push('\n');
    text
}
