//! The agent's tools: `list`, `read` and `search` over the [`Workspace`],
//! and `write_candidate`, which delivers the mod and ends the session.

use serde_json::{Value, json};

use super::workspace::{READ_LINE_DEFAULT, Workspace};
use crate::extract_code;
use crate::toolchat::{ToolCall, ToolSpec};

/// The tool that delivers the candidate.
pub const WRITE_CANDIDATE: &str = "write_candidate";

/// The four tools, with their argument schemas.
pub fn agent_tools() -> Vec<ToolSpec> {
    let tool = |name: &str, description: &str, parameters: Value| ToolSpec {
        name: name.to_owned(),
        description: description.to_owned(),
        parameters,
    };
    vec![
        tool(
            "list",
            "List a directory of the run directory (default: its top). Directories end with `/`. Paths are relative to the run directory.",
            json!({"type": "object", "properties": {"path": {"type": "string", "description": "Directory, relative to the run directory"}}, "additionalProperties": false}),
        ),
        tool(
            "read",
            "Read a text file of the run directory, a window of lines at a time (at most 400 lines or 16000 characters).",
            json!({"type": "object", "properties": {
                "path": {"type": "string", "description": "File, relative to the run directory"},
                "offset": {"type": "integer", "minimum": 1, "description": "First line to read (1-based, default 1)"},
                "limit": {"type": "integer", "minimum": 1, "description": "Lines to read (default 400)"}
            }, "required": ["path"], "additionalProperties": false}),
        ),
        tool(
            "search",
            "Find lines containing a substring (or matching a regular expression) in the files of the run directory; at most 50 matches, as `file:line: text`.",
            json!({"type": "object", "properties": {
                "pattern": {"type": "string", "description": "Text to find"},
                "regex": {"type": "boolean", "description": "Treat the pattern as a regular expression (default false)"},
                "path": {"type": "string", "description": "Search only under this file or directory"}
            }, "required": ["pattern"], "additionalProperties": false}),
        ),
        tool(
            WRITE_CANDIDATE,
            "Save the complete source of the candidate mod (one ES module exporting activate(letta)). This ends the session: call it once, when the mod is finished.",
            json!({"type": "object", "properties": {"source": {"type": "string", "description": "The whole mod source"}}, "required": ["source"], "additionalProperties": false}),
        ),
    ]
}

/// What running one call gave.
pub(crate) enum Outcome {
    /// A result for the model (`ok: false` for an error it can correct).
    Result { ok: bool, text: String },
    /// The candidate's source: the session ends.
    Candidate(String),
}

/// Runs `call` against `workspace`.
pub(crate) fn run(call: &ToolCall, workspace: &Workspace) -> Outcome {
    let result = match call.arguments.as_object() {
        None => Err(format!(
            "the arguments of `{}` are not a JSON object: {}",
            call.name,
            super::workspace::clip(&call.arguments.to_string(), 200)
        )),
        Some(arguments) => dispatch(&call.name, arguments, workspace),
    };
    match result {
        Ok(Outcome::Result { ok, text }) => Outcome::Result { ok, text },
        Ok(candidate) => candidate,
        Err(message) => Outcome::Result { ok: false, text: format!("error: {message}") },
    }
}

fn dispatch(name: &str, arguments: &serde_json::Map<String, Value>, workspace: &Workspace) -> Result<Outcome, String> {
    let string = |key: &str| -> Result<Option<&str>, String> {
        match arguments.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(text)) => Ok(Some(text)),
            Some(other) => Err(format!("`{key}` must be a string, not {other}")),
        }
    };
    let number = |key: &str, default: usize| -> Result<usize, String> {
        match arguments.get(key) {
            None | Some(Value::Null) => Ok(default),
            Some(value) => value
                .as_u64()
                .filter(|n| *n >= 1)
                .map(|n| n as usize)
                .ok_or_else(|| format!("`{key}` must be a whole number of at least 1, not {value}")),
        }
    };
    let text = match name {
        "list" => workspace.list(string("path")?.unwrap_or(""))?,
        "read" => {
            let path = string("path")?.ok_or("`read` needs `path`")?;
            workspace.read(path, number("offset", 1)?, number("limit", READ_LINE_DEFAULT)?)?
        }
        "search" => {
            let pattern = string("pattern")?.ok_or("`search` needs `pattern`")?;
            let regex = match arguments.get("regex") {
                None | Some(Value::Null) => false,
                Some(Value::Bool(flag)) => *flag,
                Some(other) => return Err(format!("`regex` must be true or false, not {other}")),
            };
            workspace.search(pattern, regex, string("path")?)?
        }
        WRITE_CANDIDATE => {
            let source = string("source")?.ok_or("`write_candidate` needs `source`, the whole mod")?;
            return candidate(source).map(Outcome::Candidate);
        }
        other => return Err(format!("there is no tool `{other}`; the tools are list, read, search and {WRITE_CANDIDATE}")),
    };
    Ok(Outcome::Result { ok: true, text })
}

/// The source as given; a source wrapped in a Markdown fence is unwrapped.
fn candidate(source: &str) -> Result<String, String> {
    if source.trim().is_empty() {
        return Err("`source` is empty; pass the whole mod".to_owned());
    }
    if source.trim_start().starts_with("```") || source.trim_start().starts_with("~~~") {
        return extract_code(source).map_err(|reason| format!("`source` is a fenced block without usable code: {reason}"));
    }
    let mut source = source.trim_end().to_owned();
    source.push('\n');
    Ok(source)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(name: &str, arguments: Value) -> ToolCall {
        ToolCall { id: "c".into(), name: name.into(), arguments }
    }

    fn text(outcome: Outcome) -> (bool, String) {
        match outcome {
            Outcome::Result { ok, text } => (ok, text),
            Outcome::Candidate(source) => panic!("a candidate: {source}"),
        }
    }

    #[test]
    fn bad_arguments_are_error_results_the_model_can_fix() {
        let dir = tempfile::tempdir().unwrap();
        let workspace = Workspace::new(dir.path(), vec![]).unwrap();
        for (name, arguments, error) in [
            ("read", json!({}), "error: `read` needs `path`"),
            ("read", json!({"path": 3}), "error: `path` must be a string, not 3"),
            ("read", json!({"path": "a", "offset": 0}), "error: `offset` must be a whole number of at least 1, not 0"),
            ("search", json!({"pattern": "x", "regex": "yes"}), "error: `regex` must be true or false, not \"yes\""),
            ("shell", json!({}), "error: there is no tool `shell`; the tools are list, read, search and write_candidate"),
            ("list", json!("{broken"), "error: the arguments of `list` are not a JSON object: \"{broken\""),
            (WRITE_CANDIDATE, json!({"source": "  "}), "error: `source` is empty; pass the whole mod"),
        ] {
            assert_eq!(text(run(&call(name, arguments), &workspace)), (false, error.to_owned()));
        }
    }

    #[test]
    fn write_candidate_takes_plain_or_fenced_source() {
        let dir = tempfile::tempdir().unwrap();
        let workspace = Workspace::new(dir.path(), vec![]).unwrap();
        for source in ["export function activate() {}\n\n", "```ts\nexport function activate() {}\n```"] {
            let Outcome::Candidate(got) = run(&call(WRITE_CANDIDATE, json!({"source": source})), &workspace) else {
                panic!("no candidate")
            };
            assert_eq!(got, "export function activate() {}\n");
        }
    }
}
