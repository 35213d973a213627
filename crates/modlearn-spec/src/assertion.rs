//! Executable assertions: checks run against a freshly loaded candidate without any model.

use std::fmt;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::{self, DeserializeOwned, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

/// Reads the payload (every field but `type`) of one assertion type; the loader implements it to
/// collect every field error with its path.
pub(crate) trait PayloadReader {
    fn read<T: DeserializeOwned>(self) -> Option<T>;
}

/// Declares every assertion type once: its doc, variant, payload struct and `type` tag. Adding a
/// type is one entry here plus its payload struct (and a validation rule if it needs one).
macro_rules! assertion_types {
    ($( $(#[$doc:meta])* $variant:ident($payload:ident) = $tag:literal, )*) => {
        /// An executable check run against a freshly loaded candidate, selected by `type`; each
        /// assertion is worth one point.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
        #[serde(tag = "type")]
        pub enum Assertion {
            $( $(#[$doc])* #[serde(rename = $tag)] $variant($payload), )*
        }

        impl Assertion {
            /// Every assertion `type`, in declaration order.
            pub const TYPE_NAMES: &'static [&'static str] = &[$($tag),*];

            /// The assertion's `type`, such as `tool_start_rewrites_args`.
            pub fn type_name(&self) -> &'static str {
                match self {
                    $( Self::$variant(_) => $tag, )*
                }
            }

            /// Reads the payload of assertion type `tag`; `None` when no type has that name.
            pub(crate) fn read_payload(tag: &str, reader: impl PayloadReader) -> Option<Option<Self>> {
                match tag {
                    $( $tag => Some(reader.read::<$payload>().map(Self::$variant)), )*
                    _ => None,
                }
            }
        }
    };
}

assertion_types! {
    /// The candidate loads with no diagnostic of any severity (a deprecation warning fails it) and
    /// at least one mod file loaded.
    ModLoads(ModLoads) = "mod_loads",
    /// A `turn_start` event gets at least one message appended (only appended items count) with
    /// the given role, whose text has every `contains` and no `notContains` substring, and the
    /// original input is left as it was.
    TurnStartInjectsMessage(TurnStartInjectsMessage) = "turn_start_injects_message",
    /// A `tool_start` event for `toolName` with `args` ends with every key of `expectArgs` equal
    /// in the event's args (other keys may differ).
    ToolStartRewritesArgs(ToolStartRewritesArgs) = "tool_start_rewrites_args",
    /// A `tool_start` event for `toolName` with `args` ends with the args unchanged; a mod with no
    /// `tool_start` or `turn_start` handler fails it.
    ToolStartPreservesArgs(ToolStartPreservesArgs) = "tool_start_preserves_args",
}

impl Assertion {
    /// The tool an assertion drives, for the assertion types that emit `tool_start`.
    pub fn tool_name(&self) -> Option<&str> {
        match self {
            Self::ModLoads(_) | Self::TurnStartInjectsMessage(_) => None,
            Self::ToolStartRewritesArgs(assertion) => Some(&assertion.tool_name),
            Self::ToolStartPreservesArgs(assertion) => Some(&assertion.tool_name),
        }
    }

    /// Letta Code's check label, `"<index + 1>. <type>[ <toolName>]"`.
    pub fn label(&self, index: usize) -> String {
        match self.tool_name() {
            Some(tool_name) => format!("{}. {} {tool_name}", index + 1, self.type_name()),
            None => format!("{}. {}", index + 1, self.type_name()),
        }
    }
}

/// Fields of [`Assertion::ModLoads`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub struct ModLoads {
    /// Exact number of mod files that must load, when set; at least 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_loaded_count: Option<u32>,
}

/// Fields of [`Assertion::TurnStartInjectsMessage`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub struct TurnStartInjectsMessage {
    /// Role of the appended messages to inspect; `system` when unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// Substrings the appended messages' text must all contain.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contains: Option<StringOrList>,
    /// Substrings the appended messages' text must not contain.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_contains: Option<StringOrList>,
    /// The turn's input items; one user message "Install a Python package." when unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<Vec<Value>>,
}

/// Fields of [`Assertion::ToolStartRewritesArgs`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub struct ToolStartRewritesArgs {
    /// Tool name carried by the `tool_start` event, such as `Bash`.
    pub tool_name: String,
    /// Arguments the event starts with.
    pub args: Map<String, Value>,
    /// Arguments the event must end with; keys not listed are not compared.
    pub expect_args: Map<String, Value>,
}

/// Fields of [`Assertion::ToolStartPreservesArgs`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub struct ToolStartPreservesArgs {
    /// Tool name carried by the `tool_start` event, such as `Bash`.
    pub tool_name: String,
    /// Arguments the event starts with and must end with.
    pub args: Map<String, Value>,
}

/// One string or a list of strings, as Letta Code accepts for `contains` and `notContains`.
/// Keeps the written shape so a spec serializes back as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StringOrList {
    /// A single string.
    One(String),
    /// A list of strings.
    Many(Vec<String>),
}

impl StringOrList {
    /// The strings, in order.
    pub fn items(&self) -> Vec<&str> {
        match self {
            Self::One(item) => vec![item.as_str()],
            Self::Many(items) => items.iter().map(String::as_str).collect(),
        }
    }
}

impl Serialize for StringOrList {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::One(item) => serializer.serialize_str(item),
            Self::Many(items) => items.serialize(serializer),
        }
    }
}

// Written out instead of `#[serde(untagged)]` so that a wrong value reads "expected a string or an
// array of strings" and a wrong element is reported at its own index.
impl<'de> Deserialize<'de> for StringOrList {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct StringOrListVisitor;

        impl<'de> Visitor<'de> for StringOrListVisitor {
            type Value = StringOrList;

            fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
                formatter.write_str("a string or an array of strings")
            }

            fn visit_str<E: de::Error>(self, value: &str) -> Result<Self::Value, E> {
                Ok(StringOrList::One(value.to_owned()))
            }

            fn visit_string<E: de::Error>(self, value: String) -> Result<Self::Value, E> {
                Ok(StringOrList::One(value))
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
                while let Some(item) = seq.next_element::<String>()? {
                    items.push(item);
                }
                Ok(StringOrList::Many(items))
            }
        }

        deserializer.deserialize_any(StringOrListVisitor)
    }
}

impl JsonSchema for StringOrList {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "StringOrList".into()
    }

    fn json_schema(_generator: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "One string or a list of strings.",
            "anyOf": [
                { "type": "string" },
                { "type": "array", "items": { "type": "string" } }
            ]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn string_or_list_reads_both_shapes_and_round_trips() {
        let one: StringOrList = serde_json::from_value(json!("uv")).unwrap();
        let many: StringOrList = serde_json::from_value(json!(["a", "b"])).unwrap();
        assert_eq!(one.items(), ["uv"]);
        assert_eq!(many.items(), ["a", "b"]);
        assert_eq!(serde_json::to_value(&one).unwrap(), json!("uv"));
        assert_eq!(serde_json::to_value(&many).unwrap(), json!(["a", "b"]));
    }

    #[test]
    fn string_or_list_rejects_other_values_clearly() {
        let error = serde_json::from_value::<StringOrList>(json!(3)).unwrap_err();
        assert_eq!(
            error.to_string(),
            "invalid type: integer `3`, expected a string or an array of strings"
        );
        let error = serde_json::from_value::<StringOrList>(json!(["a", 3])).unwrap_err();
        assert_eq!(
            error.to_string(),
            "invalid type: integer `3`, expected a string"
        );
    }

    #[test]
    fn derived_deserialize_names_unknown_types() {
        let error = serde_json::from_value::<Assertion>(json!({ "type": "nope" })).unwrap_err();
        assert_eq!(
            error.to_string(),
            "unknown variant `nope`, expected one of `mod_loads`, `turn_start_injects_message`, \
             `tool_start_rewrites_args`, `tool_start_preserves_args`"
        );
    }

    #[test]
    fn type_and_tool_names_and_labels() {
        let assertion: Assertion = serde_json::from_value(json!({
            "type": "tool_start_preserves_args", "toolName": "Bash", "args": { "command": "ls" }
        }))
        .unwrap();
        assert_eq!(assertion.type_name(), "tool_start_preserves_args");
        assert_eq!(assertion.tool_name(), Some("Bash"));
        assert_eq!(assertion.label(2), "3. tool_start_preserves_args Bash");
        let loads = Assertion::ModLoads(ModLoads::default());
        assert_eq!(loads.tool_name(), None);
        assert_eq!(loads.label(0), "1. mod_loads");
    }
}
