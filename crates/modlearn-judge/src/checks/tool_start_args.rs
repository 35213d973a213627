//! `tool_start_rewrites_args` and `tool_start_preserves_args`: emit one
//! `tool_start` and compare the args the handlers leave behind.

use modlearn_spec::{ToolStartPreservesArgs, ToolStartRewritesArgs};
use modlearn_types::{Observation, Probe};
use serde_json::{Map, Value, json};

use crate::check::{Judged, unexpected};
use crate::{EVAL_AGENT_ID, EVAL_CONVERSATION_ID, EVAL_TOOL_CALL_ID};

pub(crate) fn probe(tool_name: &str, args: &Map<String, Value>) -> Probe {
    Probe::Emit {
        event: "tool_start".to_owned(),
        payload: json!({
            "agentId": EVAL_AGENT_ID,
            "conversationId": EVAL_CONVERSATION_ID,
            "toolCallId": EVAL_TOOL_CALL_ID,
            "toolName": tool_name,
            "args": args,
        }),
    }
}

/// Handler count and diagnostics gate both checks, before any comparison.
fn gate(observation: &Observation) -> Result<(&Value, Value), Judged> {
    let Observation::Emitted { after, emission, .. } = observation else {
        return Err(unexpected(observation));
    };
    let actual = after.get("args").cloned().unwrap_or(Value::Null);
    let base = json!({
        "handlerCount": emission.handler_count,
        "actualArgs": actual,
        "diagnostics": emission.diagnostics,
    });
    if emission.handler_count == 0 {
        return Err((false, "no tool_start handler is registered".to_owned(), base));
    }
    if let Some(first) = emission.diagnostics.first() {
        let message = format!("a handler failed: [{}] {}", first.fault.as_str(), first.message);
        return Err((false, message, base));
    }
    Ok((after, base))
}

pub(crate) fn judge_rewrite(assertion: &ToolStartRewritesArgs, observation: &Observation) -> Judged {
    let (after, mut details) = match gate(observation) {
        Ok(gated) => gated,
        Err(mut judged) => {
            judged.2["expectArgs"] = Value::Object(assertion.expect_args.clone());
            return judged;
        }
    };
    details["expectArgs"] = Value::Object(assertion.expect_args.clone());
    let actual = after.get("args");
    let mismatched: Vec<&String> = assertion
        .expect_args
        .iter()
        .filter(|(key, expected)| actual.and_then(|args| args.get(key.as_str())) != Some(*expected))
        .map(|(key, _)| key)
        .collect();
    if mismatched.is_empty() {
        return (true, "args rewritten as expected".to_owned(), details);
    }
    let first = mismatched[0];
    let got = actual.and_then(|args| args.get(first.as_str())).cloned().unwrap_or(Value::Null);
    let message = format!("`{first}` is {got}, expected {}", assertion.expect_args[first.as_str()]);
    details["mismatchedKeys"] = json!(mismatched);
    (false, message, details)
}

pub(crate) fn judge_preserve(assertion: &ToolStartPreservesArgs, observation: &Observation) -> Judged {
    let (after, mut details) = match gate(observation) {
        Ok(gated) => gated,
        Err(judged) => return judged,
    };
    details["expectArgs"] = Value::Object(assertion.args.clone());
    let original = Value::Object(assertion.args.clone());
    if after.get("args") == Some(&original) {
        return (true, "args left unchanged".to_owned(), details);
    }
    let actual = after.get("args").cloned().unwrap_or(Value::Null);
    (false, format!("args changed to {actual}"), details)
}
