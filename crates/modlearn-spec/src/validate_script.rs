//! Checks on scripted scenarios: every step well formed, tool calls and assistant messages inside
//! a turn, environment names that can name a folder.

use crate::path::JsonPath;
use crate::script::ScriptStep;
use crate::validate::Findings;

/// Checks a script's steps.
pub(super) fn check_script(findings: &mut Findings, script: &[ScriptStep], path: &JsonPath) {
    if script.is_empty() {
        findings.problem(path.clone(), "must not be empty");
    }
    let mut in_turn = false;
    for (index, step) in script.iter().enumerate() {
        let step_path = path.index(index);
        match step {
            ScriptStep::User(step) => {
                findings.non_blank(&step.user, step_path.key("user"));
                in_turn = true;
            }
            ScriptStep::Assistant(_) | ScriptStep::Tool(_) if !in_turn => {
                findings.problem(
                    step_path.key(step.kind()),
                    format!("a `{}` step belongs to a turn: put a `user` step before it", step.kind()),
                );
            }
            ScriptStep::Tool(step) => {
                let name = &step.tool;
                let valid = (1..=64).contains(&name.len()) && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
                if !valid {
                    findings.problem(step_path.key("tool"), format!("`{name}` is not a tool name (1-64 letters, digits, `_` or `-`)"));
                }
                if let Some(id) = &step.tool_call_id {
                    findings.non_blank(id, step_path.key("toolCallId"));
                }
            }
            ScriptStep::Llm(step) => findings.non_blank(&step.llm, step_path.key("llm")),
            ScriptStep::Assistant(_) | ScriptStep::ConversationOpen(_) | ScriptStep::ConversationClose(_) | ScriptStep::Compact(_) => {}
        }
    }
}

/// An environment name is the name of a folder under `envs/`.
pub(super) fn check_env_name(findings: &mut Findings, name: &str, path: &JsonPath) {
    let mut bytes = name.bytes();
    let valid = bytes.next().is_some_and(|b| b.is_ascii_alphanumeric())
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    if !valid {
        findings
            .problem(path.clone(), format!("`{name}` is not an environment name (a folder under envs/: letters, digits, `-`, `_`, `.`)"));
    }
}
