//! What the lifecycle assertions share: their steps as probes, the
//! normalisation of observations before two runs are compared, and a short
//! description of where two observations differ.

use modlearn_spec::LifecycleStep;
use modlearn_types::{Diagnostic, Observation, Probe};
use serde_json::{Map, Value, json};

use crate::{EVAL_AGENT_ID, EVAL_CONVERSATION_ID};

/// How steps are bound to a conversation.
#[derive(Clone, Copy)]
pub(crate) enum Conversation<'a> {
    /// Events get the harness's conversation id unless their payload names one.
    Default,
    /// Every event carries this conversation id, whatever the payload says.
    Forced(&'a str),
}

/// The probes of `steps`. Events get `agentId` and `conversationId` when absent, tool events a
/// `toolCallId`, and a `turn_start` without input one user message.
pub(crate) fn step_probes(steps: &[LifecycleStep], conversation: Conversation<'_>) -> Vec<Probe> {
    steps.iter().enumerate().map(|(index, step)| step_probe(index, step, conversation)).collect()
}

fn step_probe(index: usize, step: &LifecycleStep, conversation: Conversation<'_>) -> Probe {
    let call_id = format!("lifecycle-step-{}", index + 1);
    let conversation_id = match conversation {
        Conversation::Default => EVAL_CONVERSATION_ID,
        Conversation::Forced(id) => id,
    };
    let object_args = || step.args.clone().filter(Value::is_object).unwrap_or_else(|| json!({}));
    if let Some(event) = &step.emit {
        let mut payload = step.payload.clone().unwrap_or_default();
        let default = |key: &str, value: Value, payload: &mut Map<String, Value>| {
            payload.entry(key.to_owned()).or_insert(value);
        };
        default("agentId", json!(EVAL_AGENT_ID), &mut payload);
        match conversation {
            Conversation::Forced(id) => {
                payload.insert("conversationId".to_owned(), json!(id));
            }
            Conversation::Default => default("conversationId", json!(conversation_id), &mut payload),
        }
        if event == "tool_start" || event == "tool_end" {
            default("toolCallId", json!(call_id), &mut payload);
        }
        if event == "turn_start" {
            default("input", json!([{ "role": "user", "content": "Hello." }]), &mut payload);
        }
        return Probe::Emit { event: event.clone(), payload: Value::Object(payload), compare: None };
    }
    if let Some(tool_name) = &step.run_tool {
        return Probe::RunTool { tool_name: tool_name.clone(), args: object_args(), tool_call_id: call_id };
    }
    if let Some(command) = &step.run_command {
        let args = step.args.as_ref().and_then(Value::as_str).unwrap_or_default().to_owned();
        return Probe::RunCommand { command: command.clone(), args };
    }
    let tool_name = step.check_permissions.clone().unwrap_or_default();
    Probe::CheckPermissions {
        event: json!({
            "agentId": EVAL_AGENT_ID,
            "conversationId": conversation_id,
            "toolCallId": call_id,
            "toolName": tool_name,
            "args": object_args(),
            "phase": "approval",
        }),
    }
}

/// An observation as JSON with what legitimately differs between two runs removed: diagnostic
/// timestamps and load generations (both move on in a reused engine).
pub(crate) fn normalized(observation: &Observation) -> Value {
    let mut value = serde_json::to_value(observation).unwrap_or(Value::Null);
    strip(&mut value);
    value
}

fn strip(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.remove("timestamp");
            map.remove("generation");
            map.values_mut().for_each(strip);
        }
        Value::Array(items) => items.iter_mut().for_each(strip),
        _ => {}
    }
}

/// The first place two JSON values differ, as `path: a vs b` with both sides shortened.
pub(crate) fn first_difference(a: &Value, b: &Value) -> Option<String> {
    difference_at(a, b, String::new())
}

fn difference_at(a: &Value, b: &Value, path: String) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            keys.into_iter().find_map(|key| {
                let next = if path.is_empty() { key.clone() } else { format!("{path}.{key}") };
                difference_at(x.get(key).unwrap_or(&Value::Null), y.get(key).unwrap_or(&Value::Null), next)
            })
        }
        (Value::Array(x), Value::Array(y)) => {
            let common = x.iter().zip(y).enumerate().find_map(|(index, (x, y))| difference_at(x, y, format!("{path}[{index}]")));
            common.or_else(|| {
                (x.len() != y.len()).then(|| {
                    let extra = if x.len() > y.len() { &x[y.len()] } else { &y[x.len()] };
                    format!("{}{} item(s) vs {} (first extra: {})", at(&path), x.len(), y.len(), short(extra))
                })
            })
        }
        (Value::String(x), Value::String(y)) if x != y => {
            // Show both texts from a little before where they part.
            let same = x.chars().zip(y.chars()).take_while(|(a, b)| a == b).count();
            let from = same.saturating_sub(20);
            let tail = |text: &str| {
                let rest: String = text.chars().skip(from).collect();
                let shown = short(&Value::String(rest));
                if from > 0 { format!("\"...{}", &shown[1..]) } else { shown }
            };
            Some(format!("{}{} vs {}", at(&path), tail(x), tail(y)))
        }
        _ if a == b => None,
        _ => Some(format!("{}{} vs {}", at(&path), short(a), short(b))),
    }
}

fn at(path: &str) -> String {
    if path.is_empty() { String::new() } else { format!("{path}: ") }
}

/// A value in at most 80 characters.
pub(crate) fn short(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() <= 80 { text } else { format!("{}...", text.chars().take(77).collect::<String>()) }
}

/// A short name for a step's probe, for messages: `emit turn_start`, `runTool remember`, ...
pub(crate) fn probe_name(probe: &Probe) -> String {
    match probe {
        Probe::Snapshot => "registry snapshot".to_owned(),
        Probe::LoadSnapshot => "registry snapshot at load".to_owned(),
        Probe::EndSnapshot => "registry snapshot at the end".to_owned(),
        Probe::Emit { event, .. } => format!("emit {event}"),
        Probe::RunTool { tool_name, .. } => format!("runTool {tool_name}"),
        Probe::CheckPermissions { event } => {
            format!("checkPermissions {}", event.get("toolName").and_then(Value::as_str).unwrap_or("?"))
        }
        Probe::RunCommand { command, .. } => format!("runCommand /{command}"),
        _ => "lifecycle probe".to_owned(),
    }
}

/// One diagnostic as `[phase] message`.
pub(crate) fn describe_diagnostic(diagnostic: &Diagnostic) -> String {
    format!("[{}] {}", diagnostic.phase, diagnostic.message)
}

/// `n thing` or `n things`.
pub(crate) fn count(n: usize, thing: &str) -> String {
    if n == 1 { format!("1 {thing}") } else { format!("{n} {thing}s") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_become_probes_with_defaults() {
        let steps: Vec<LifecycleStep> = serde_json::from_value(json!([
            { "emit": "turn_start" },
            { "emit": "tool_start", "payload": { "toolName": "Bash", "conversationId": "mine" } },
            { "runTool": "remember", "args": { "text": "x" } },
            { "runCommand": "notes", "args": "list" },
            { "checkPermissions": "Bash", "args": { "command": "ls" } },
        ]))
        .unwrap();
        let probes = step_probes(&steps, Conversation::Default);
        let Probe::Emit { payload, .. } = &probes[0] else { panic!() };
        assert_eq!(payload["input"][0]["role"], "user");
        let Probe::Emit { payload, .. } = &probes[1] else { panic!() };
        assert_eq!(payload["conversationId"], "mine");
        assert_eq!(payload["toolCallId"], "lifecycle-step-2");
        let forced = step_probes(&steps, Conversation::Forced("b"));
        let Probe::Emit { payload, .. } = &forced[1] else { panic!() };
        assert_eq!(payload["conversationId"], "b");
        assert_eq!(probe_name(&probes[2]), "runTool remember");
        assert_eq!(probes[3], Probe::RunCommand { command: "notes".to_owned(), args: "list".to_owned() });
        assert_eq!(probe_name(&probes[4]), "checkPermissions Bash");
    }

    #[test]
    fn differences_name_their_path() {
        let a = json!({ "run": { "output": "call 1", "timestamp": "x" }, "list": [1, 2] });
        let b = json!({ "run": { "output": "call 2", "timestamp": "y" }, "list": [1, 2] });
        assert_eq!(first_difference(&a, &b).unwrap(), "run.output: \"call 1\" vs \"call 2\"");
        assert_eq!(first_difference(&a, &a), None);
        assert_eq!(first_difference(&json!({"a": [1]}), &json!({"a": [1, 2]})).unwrap(), "a: 1 item(s) vs 2 (first extra: 2)");
        let long = "NOTES: this conversation has 0 note(s); tip one";
        let other = "NOTES: this conversation has 0 note(s); tip two";
        assert_eq!(
            first_difference(&json!(long), &json!(other)).unwrap(),
            "\"... has 0 note(s); tip one\" vs \"... has 0 note(s); tip two\""
        );
    }
}
