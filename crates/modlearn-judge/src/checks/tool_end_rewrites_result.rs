//! `tool_end_rewrites_result`: a tool_end handler replaces the tool's result.

use modlearn_spec::{ToolEndRewritesResult, ToolStatus};
use modlearn_types::{Observation, Probe};
use serde_json::{Map, Value, json};

use crate::check::{Judged, handler_failure, missing_result, refused_call, tool_result, unexpected};
use crate::text::{Substrings, excerpt};
use crate::{EVAL_AGENT_ID, EVAL_CONVERSATION_ID, EVAL_TOOL_CALL_ID};

pub(crate) fn probe(assertion: &ToolEndRewritesResult) -> Probe {
    tool_end_probe(&assertion.tool_name, &assertion.args, assertion.status, &assertion.output)
}

/// A `tool_end` event for `tool_name(args)` that returned `{status, output}`.
pub(crate) fn tool_end_probe(tool_name: &str, args: &Map<String, Value>, status: ToolStatus, output: &str) -> Probe {
    Probe::Emit {
        event: "tool_end".to_owned(),
        payload: json!({
            "agentId": EVAL_AGENT_ID,
            "conversationId": EVAL_CONVERSATION_ID,
            "toolCallId": EVAL_TOOL_CALL_ID,
            "toolName": tool_name,
            "args": args,
            "status": status.as_str(),
            "output": output,
        }),
        compare: None,
    }
}

pub(crate) fn judge(assertion: &ToolEndRewritesResult, observation: &Observation) -> Judged {
    let Observation::Emitted { after, emission, .. } = observation else {
        return unexpected(observation);
    };
    let details = json!({
        "handlerCount": emission.handler_count,
        "original": { "status": assertion.status.as_str(), "output": assertion.output },
        "result": after.get("result").cloned().unwrap_or(Value::Null),
        "expectStatus": assertion.expect_status.map(|s| s.as_str()),
        "contains": assertion.contains.as_ref().map(|c| c.items()),
        "notContains": assertion.not_contains.as_ref().map(|c| c.items()),
        "diagnostics": emission.diagnostics,
    });
    if let Some(failure) = handler_failure("tool_end", emission).or_else(|| refused_call(after)) {
        return (false, failure, details);
    }
    let (status, output) = match tool_result(after) {
        Ok(result) => result,
        Err(why) => return (false, format!("{}, so the tool's own result stands", missing_result(emission, why)), details),
    };
    if let Some(expected) = assertion.expect_status.filter(|expected| expected.as_str() != status) {
        return (false, format!("the new result's status is `{status}`, expected `{}`", expected.as_str()), details);
    }
    let substrings = Substrings::check(output, assertion.contains.as_ref(), assertion.not_contains.as_ref());
    if let Some(failure) = substrings.failure("the new output") {
        return (false, failure, details);
    }
    (true, format!("result replaced with `{status}`: {}", excerpt(output, 120)), details)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::fixtures::emitted;
    use modlearn_spec::{StringOrList, ToolStatus};

    fn assertion() -> ToolEndRewritesResult {
        ToolEndRewritesResult {
            tool_name: "Bash".to_owned(),
            args: json!({"command": "npm test"}).as_object().unwrap().clone(),
            status: ToolStatus::Error,
            output: "1 failing".to_owned(),
            expect_status: Some(ToolStatus::Error),
            contains: Some(StringOrList::Many(vec!["1 failing".to_owned(), "Hint:".to_owned()])),
            not_contains: Some(StringOrList::One("undefined".to_owned())),
        }
    }

    fn run(after: Value) -> Judged {
        judge(&assertion(), &emitted("tool_end", 1, json!({}), after, Vec::new()))
    }

    #[test]
    fn the_probe_carries_letta_tool_end_fields() {
        let Probe::Emit { event, payload, .. } = probe(&assertion()) else { panic!() };
        assert_eq!(event, "tool_end");
        assert_eq!(payload["status"], "error");
        assert_eq!(payload["output"], "1 failing");
        assert_eq!(payload["toolCallId"], EVAL_TOOL_CALL_ID);
    }

    #[test]
    fn passes_when_the_result_is_replaced_as_expected() {
        let (passed, message, _) = run(json!({"result": {"status": "error", "output": "1 failing\nHint: run one test"}}));
        assert!(passed, "{message}");
    }

    #[test]
    fn fails_when_not_replaced_or_not_as_expected() {
        assert_eq!(run(json!({})).1, "no handler returned a `result`, so the tool's own result stands");
        let (passed, message, _) = run(json!({"result": {"status": "success", "output": "1 failing Hint:"}}));
        assert!(!passed);
        assert_eq!(message, "the new result's status is `success`, expected `error`");
        assert_eq!(run(json!({"result": {"status": "error", "output": "1 failing"}})).1, "the new output lacks `Hint:`");
        let (_, message, _) = run(json!({"result": {"status": "error", "output": "1 failing Hint: undefined"}}));
        assert_eq!(message, "the new output contains forbidden `undefined`");
        let observation = emitted("tool_end", 0, json!({}), json!({}), Vec::new());
        assert_eq!(judge(&assertion(), &observation).1, "no tool_end handler is registered");
    }
}
