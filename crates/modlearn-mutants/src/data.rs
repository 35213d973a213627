//! What the mutants take from the spec to be as strong as they can be: the
//! reminder text its checks look for and its rewrite examples.

use modlearn_spec::{Assertion, ModLearningSpec, ResolvedScenario};
use serde::Serialize;
use serde_json::{Map, Value};

/// The data a template reads (serialized into it as JSON).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MutantData {
    /// The message `only-reminder` and `never-disposes` append at turn_start.
    pub reminder: Reminder,
    /// The args `rewrite-everything` merges into every tool call.
    pub rewrite: Rewrite,
    /// Every tool_start_rewrites_args example, which `never-disposes` replays.
    pub rewrites: Vec<RewriteExample>,
}

/// An appended turn_start message.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Reminder {
    /// The message role.
    pub role: String,
    /// The message text.
    pub text: String,
    /// Where the text came from, for reports.
    pub source: String,
}

/// The args merged into every tool call.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Rewrite {
    /// The args.
    pub args: Map<String, Value>,
    /// Where they came from, for reports.
    pub source: String,
}

/// One tool_start_rewrites_args assertion's call and expected args.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RewriteExample {
    /// The tool.
    pub tool_name: String,
    /// The args the call starts with.
    pub args: Map<String, Value>,
    /// The args it must end with.
    pub expect_args: Map<String, Value>,
}

/// The reminder used when the spec has no turn_start_injects_message assertion.
pub const GENERIC_REMINDER: &str = "<system-reminder>Remember the rules of this task.</system-reminder>";

impl MutantData {
    /// Data for a spec with nothing to borrow: a generic reminder and a generic rewrite.
    pub fn generic() -> MutantData {
        MutantData {
            reminder: Reminder {
                role: "system".to_owned(),
                text: GENERIC_REMINDER.to_owned(),
                source: "generic (the spec has no turn_start_injects_message assertion)".to_owned(),
            },
            rewrite: Rewrite {
                args: generic_rewrite(),
                source: "generic (the spec has no tool_start_rewrites_args assertion and no example with key=\"value\" args)".to_owned(),
            },
            rewrites: Vec::new(),
        }
    }

    /// Takes from `spec` (hidden scenarios included) what makes each mutant strongest:
    /// - the reminder: role and every `contains` substring (joined by spaces) of the first
    ///   turn_start_injects_message assertion;
    /// - the rewrite: the first tool_start_rewrites_args assertion's `expectArgs`, else the
    ///   `key="value"` pairs of the first example whose `expected` has any;
    /// - every tool_start_rewrites_args example, in order.
    pub fn from_spec(spec: &ModLearningSpec, scenarios: &[ResolvedScenario]) -> MutantData {
        let mut data = MutantData::generic();
        let assertions = || scenarios.iter().flat_map(|scenario| &scenario.assertions);
        if let Some(inject) = assertions().find_map(|assertion| match assertion {
            Assertion::TurnStartInjectsMessage(inject) => Some(inject),
            _ => None,
        }) {
            let contains = inject.contains.as_ref().map(|c| c.items().join(" ")).unwrap_or_default();
            data.reminder = Reminder {
                role: inject.role.clone().unwrap_or_else(|| "system".to_owned()),
                text: if contains.is_empty() { GENERIC_REMINDER.to_owned() } else { contains },
                source: "the first turn_start_injects_message assertion".to_owned(),
            };
        }
        let mut seen = Vec::new();
        for assertion in assertions() {
            if let Assertion::ToolStartRewritesArgs(rewrite) = assertion {
                let example = RewriteExample {
                    tool_name: rewrite.tool_name.clone(),
                    args: rewrite.args.clone(),
                    expect_args: rewrite.expect_args.clone(),
                };
                // Evaluation-level assertions repeat in every scenario; replay each once.
                if !seen.contains(&example) {
                    seen.push(example);
                }
            }
        }
        data.rewrites = seen;
        if let Some(first) = data.rewrites.first() {
            data.rewrite = Rewrite { args: first.expect_args.clone(), source: "the first tool_start_rewrites_args assertion".to_owned() };
        } else if let Some((index, args)) = spec.examples.iter().enumerate().find_map(|(index, example)| {
            example.expected.as_deref().map(example_args).filter(|args| !args.is_empty()).map(|args| (index, args))
        }) {
            data.rewrite = Rewrite { args, source: format!("example {}", index + 1) };
        }
        data
    }
}

fn generic_rewrite() -> Map<String, Value> {
    let mut args = Map::new();
    args.insert("command".to_owned(), Value::String("echo rewritten by a mutant".to_owned()));
    args
}

/// The `key="value"` pairs in an example's prose (`command="uv pip install requests"`); the
/// value is read as a JSON string, so `\"` escapes work.
pub fn example_args(text: &str) -> Map<String, Value> {
    let mut args = Map::new();
    let mut rest = text;
    while let Some(at) = rest.find("=\"") {
        let key: String =
            rest[..at].chars().rev().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect::<Vec<_>>().into_iter().rev().collect();
        let quoted = &rest[at + 1..];
        let mut stream = serde_json::Deserializer::from_str(quoted).into_iter::<String>();
        match stream.next() {
            Some(Ok(value)) => {
                if !key.is_empty() {
                    args.entry(key).or_insert(Value::String(value));
                }
                rest = &quoted[stream.byte_offset()..];
            }
            _ => rest = &quoted[1..],
        }
    }
    args
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn example_args_reads_key_value_pairs() {
        assert_eq!(Value::Object(example_args("command=\"uv pip install requests\"")), json!({"command": "uv pip install requests"}));
        assert_eq!(
            Value::Object(example_args("Bash command=\"say \\\"hi\\\"\" cwd=\"/tmp\" and x=\"unterminated")),
            json!({"command": "say \"hi\"", "cwd": "/tmp"})
        );
        assert!(example_args("unchanged: pip list is not an install").is_empty());
        assert!(example_args("=\"no key\"").is_empty());
    }
}
