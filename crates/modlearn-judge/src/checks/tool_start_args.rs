//! `tool_start_rewrites_args` and `tool_start_preserves_args`: emit one
//! `tool_start` and compare the args the handlers leave behind.

use modlearn_spec::{Dialect, ToolStartPreservesArgs, ToolStartRewritesArgs};
use modlearn_types::{Compared, LiveCompare, Observation, Probe};
use serde_json::{Map, Value, json};

use crate::check::{Judged, refused_call, tool_result, unexpected};
use crate::text::excerpt;
use crate::{EVAL_AGENT_ID, EVAL_CONVERSATION_ID, EVAL_TOOL_CALL_ID};

/// One `tool_start` for `tool_name` with `args`, its keys in the order Letta's harness writes
/// them (a mod that serialises or hashes the event sees the same); `compare` is made on the
/// live args afterwards.
pub(crate) fn probe(tool_name: &str, args: &Map<String, Value>, compare: Option<LiveCompare>) -> Probe {
    Probe::Emit {
        event: "tool_start".to_owned(),
        payload: json!({
            "agentId": EVAL_AGENT_ID,
            "args": args,
            "conversationId": EVAL_CONVERSATION_ID,
            "toolCallId": EVAL_TOOL_CALL_ID,
            "toolName": tool_name,
        }),
        compare,
    }
}

/// Letta compares with its stableJson of the live args (a key set to `undefined` is a change),
/// and `tool_start_rewrites_args` only at the expected keys.
pub(crate) fn rewrite_probe(assertion: &ToolStartRewritesArgs) -> Probe {
    let compare = LiveCompare::ArgsContain { expected: assertion.expect_args.clone() };
    probe(&assertion.tool_name, &assertion.args, Some(compare))
}

pub(crate) fn preserve_probe(assertion: &ToolStartPreservesArgs) -> Probe {
    let compare = LiveCompare::ArgsEqual { expected: Value::Object(assertion.args.clone()) };
    probe(&assertion.tool_name, &assertion.args, Some(compare))
}

/// Handler count and diagnostics gate both checks, before any comparison; then the live
/// comparison the probe asked for. For Pi and DSH, a blocked call fails both: the tool never
/// runs, so its arguments were neither kept nor rewritten (Letta compares the args alone); and
/// with no handler the call simply runs, so only the comparison decides.
fn gate(observation: &Observation, dialect: Dialect) -> Result<(&Value, &Compared, Value), Judged> {
    let Observation::Emitted { after, emission, compared, .. } = observation else {
        return Err(unexpected(observation));
    };
    let actual = after.get("args").cloned().unwrap_or(Value::Null);
    let base = json!({
        "handlerCount": emission.handler_count,
        "actualArgs": actual,
        "diagnostics": emission.diagnostics,
    });
    // Letta's harness fails a mod with no handler; Pi runs the call as it came.
    if emission.handler_count == 0 && dialect == Dialect::Letta {
        return Err((false, "no tool_start handler is registered".to_owned(), base));
    }
    if let Some(first) = emission.diagnostics.first() {
        let message = format!("a handler failed: [{}] {}", first.fault.as_str(), first.message);
        return Err((false, message, base));
    }
    if let Some(refused) = refused_call(after) {
        return Err((false, refused, base));
    }
    if dialect != Dialect::Letta
        && let Ok((_, reason)) = tool_result(after)
    {
        return Err((false, format!("the call is blocked, so the tool never runs: {}", excerpt(reason, 120)), base));
    }
    let Some(compared) = compared else {
        return Err(unexpected(observation));
    };
    Ok((after, compared, base))
}

pub(crate) fn judge_rewrite(assertion: &ToolStartRewritesArgs, observation: &Observation, dialect: Dialect) -> Judged {
    let (after, compared, mut details) = match gate(observation, dialect) {
        Ok(gated) => gated,
        Err(mut judged) => {
            judged.2["expectArgs"] = Value::Object(assertion.expect_args.clone());
            return judged;
        }
    };
    details["expectArgs"] = Value::Object(assertion.expect_args.clone());
    if compared.matched {
        return (true, "args rewritten as expected".to_owned(), details);
    }
    let Some(first) = compared.mismatched.first() else {
        return (false, format!("args are {}", compared.actual), details);
    };
    // JSON drops a key holding `undefined`; the live args may still have it.
    let got = match after.get("args").and_then(|args| args.get(first.as_str())) {
        Some(value) => value.to_string(),
        None => "undefined".to_owned(),
    };
    let expected = assertion.expect_args.get(first.as_str()).cloned().unwrap_or(Value::Null);
    let message = format!("`{first}` is {got}, expected {expected}");
    details["mismatchedKeys"] = json!(compared.mismatched);
    (false, message, details)
}

pub(crate) fn judge_preserve(assertion: &ToolStartPreservesArgs, observation: &Observation, dialect: Dialect) -> Judged {
    let (_, compared, mut details) = match gate(observation, dialect) {
        Ok(gated) => gated,
        Err(judged) => return judged,
    };
    details["expectArgs"] = Value::Object(assertion.args.clone());
    if compared.matched {
        return (true, "args left unchanged".to_owned(), details);
    }
    // Letta's stable JSON, so a key set to `undefined` shows.
    details["actualStableJson"] = json!(compared.actual);
    (false, format!("args changed to {}", compared.actual), details)
}
