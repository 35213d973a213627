//! `turn_start_injects_message`: only messages *appended* after the original
//! input count, filtered by role (default `system`); the original items must
//! be left as they were and no handler may fail (Letta's conditions).

use modlearn_spec::TurnStartInjectsMessage;
use modlearn_types::{LiveCompare, Observation, Probe};
use serde_json::{Value, json};

use crate::check::{Judged, handler_failure, unexpected};
use crate::text::quoted;
use crate::{EVAL_AGENT_ID, EVAL_CONVERSATION_ID};

/// Letta's default turn input for assertions that do not give one.
pub(crate) fn default_input() -> Vec<Value> {
    vec![json!({"type": "message", "role": "user", "content": "Install a Python package."})]
}

pub(crate) fn probe(assertion: &TurnStartInjectsMessage) -> Probe {
    let mut probe = turn_start_probe(assertion.input.as_ref());
    // Letta checks the original items on the live input with its stableJson (an item key set
    // to `undefined` is a change), so the engine compares them there.
    if let Probe::Emit { payload, compare, .. } = &mut probe {
        let expected = payload.get("input").and_then(Value::as_array).cloned().unwrap_or_default();
        let role = assertion.role.clone().unwrap_or_else(|| "system".to_owned());
        *compare = Some(LiveCompare::InputPrefix { expected, role });
    }
    probe
}

/// A turn_start emission with `input`, or Letta's default input: shared by
/// every assertion that drives turn_start.
pub(crate) fn turn_start_probe(input: Option<&Vec<Value>>) -> Probe {
    Probe::Emit {
        event: "turn_start".to_owned(),
        payload: json!({
            "agentId": EVAL_AGENT_ID,
            "conversationId": EVAL_CONVERSATION_ID,
            "input": input.cloned().unwrap_or_else(default_input),
        }),
        compare: None,
    }
}

pub(crate) fn judge(assertion: &TurnStartInjectsMessage, observation: &Observation) -> Judged {
    // What Letta reads of the appended items (getters, prototypes, proxies, toJSON) is read on
    // the live event in the engine: JSON out of it would show none of it.
    let Observation::Emitted { before, after, emission, compared: Some(compared) } = observation else {
        return unexpected(observation);
    };
    let Some(live) = compared.appended.as_deref() else {
        return unexpected(observation);
    };
    let role = assertion.role.as_deref().unwrap_or("system");
    let original = before.get("input").and_then(Value::as_array).cloned().unwrap_or_default();
    let final_input = after.get("input").and_then(Value::as_array).cloned().unwrap_or_default();
    let appended: Vec<&Value> = final_input.iter().skip(original.len()).collect();
    let text = &live.text;
    let contains = assertion.contains.as_ref().map(|c| c.items()).unwrap_or_default();
    let not_contains = assertion.not_contains.as_ref().map(|c| c.items()).unwrap_or_default();
    let missing: Vec<&str> = contains.iter().copied().filter(|s| !text.contains(s)).collect();
    let forbidden: Vec<&str> = not_contains.iter().copied().filter(|s| text.contains(s)).collect();
    let original_kept = compared.matched;
    let details = json!({
        "handlerCount": emission.handler_count,
        "role": role,
        "injectedText": text,
        "appended": appended,
        "contains": contains,
        "notContains": not_contains,
        "missing": missing,
        "forbiddenPresent": forbidden,
        "originalKept": original_kept,
        "finalInput": final_input,
        "diagnostics": emission.diagnostics,
    });
    let message = if let Some(failure) = handler_failure("turn_start", emission) {
        failure
    } else if let Some(error) = &live.error {
        error.clone()
    } else if live.matching == 0 {
        if live.count == 0 {
            format!("no message was appended (only appended `{role}` messages count; prepending or editing the user message does not)")
        } else {
            format!("{} message(s) appended, none with role `{role}`", live.count)
        }
    } else if !missing.is_empty() {
        format!("injected text lacks {}", quoted(&missing))
    } else if !forbidden.is_empty() {
        format!("injected text contains forbidden {}", quoted(&forbidden))
    } else if !original_kept {
        "the original input items were changed".to_owned()
    } else {
        return (true, format!("{} `{role}` message(s) appended", live.matching), details);
    };
    (false, message, details)
}
