//! `tool_start_blocks`: a tool_start handler answers the call with a
//! synthesized result, which in Letta stops the tool from running.

use modlearn_spec::ToolStartBlocks;
use modlearn_types::Observation;
use serde_json::{Value, json};

use crate::check::{Judged, handler_failure, missing_result, refused_call, tool_result, unexpected};
use crate::text::{Substrings, excerpt};

pub(crate) fn judge(assertion: &ToolStartBlocks, observation: &Observation) -> Judged {
    let Observation::Emitted { after, emission, .. } = observation else {
        return unexpected(observation);
    };
    let details = json!({
        "handlerCount": emission.handler_count,
        "result": after.get("result").cloned().unwrap_or(Value::Null),
        "expectStatus": assertion.status.map(|s| s.as_str()),
        "contains": assertion.contains.as_ref().map(|c| c.items()),
        "diagnostics": emission.diagnostics,
    });
    if let Some(failure) = handler_failure("tool_start", emission).or_else(|| refused_call(after)) {
        return (false, failure, details);
    }
    let (status, output) = match tool_result(after) {
        Ok(result) => result,
        Err(why) => return (false, format!("{}, so the tool would run", missing_result(emission, why)), details),
    };
    if let Some(expected) = assertion.status.filter(|expected| expected.as_str() != status) {
        return (false, format!("the result's status is `{status}`, expected `{}`", expected.as_str()), details);
    }
    if let Some(failure) = Substrings::check(output, assertion.contains.as_ref(), None).failure("the result's output") {
        return (false, failure, details);
    }
    (true, format!("blocked with a `{status}` result: {}", excerpt(output, 120)), details)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::fixtures::{diagnostic, emitted};
    use modlearn_spec::{StringOrList, ToolStatus};

    fn assertion() -> ToolStartBlocks {
        ToolStartBlocks {
            tool_name: "Bash".to_owned(),
            args: json!({"command": "rm -rf /"}).as_object().unwrap().clone(),
            status: Some(ToolStatus::Error),
            contains: Some(StringOrList::One("refused".to_owned())),
        }
    }

    fn run(after: Value, handlers: usize) -> Judged {
        judge(&assertion(), &emitted("tool_start", handlers, json!({}), after, Vec::new()))
    }

    #[test]
    fn passes_on_a_matching_synthesized_result() {
        let (passed, message, _) = run(json!({"result": {"status": "error", "output": "refused: rm -rf /"}}), 1);
        assert!(passed, "{message}");
    }

    #[test]
    fn fails_without_a_result_a_handler_or_with_the_wrong_status_or_text() {
        let (passed, message, _) = run(json!({"args": {}}), 1);
        assert!(!passed);
        assert_eq!(message, "no handler returned a `result`, so the tool would run");
        assert_eq!(run(json!({}), 0).1, "no tool_start handler is registered");
        let (passed, message, _) = run(json!({"result": {"status": "success", "output": "refused"}}), 1);
        assert!(!passed);
        assert_eq!(message, "the result's status is `success`, expected `error`");
        let (_, message, _) = run(json!({"result": {"status": "error", "output": "no"}}), 1);
        assert_eq!(message, "the result's output lacks `refused`");
        let (_, message, _) = run(json!({"result": {"status": "error", "output": 3}}), 1);
        assert!(message.contains("is not a tool result"), "{message}");
    }

    #[test]
    fn a_call_pi_refused_before_any_gate_is_no_block() {
        let (passed, message, _) = run(json!({"refused": "Tool deploy not found"}), 1);
        assert!(!passed);
        assert_eq!(message, "Pi refused the call before any tool_call handler saw it: Tool deploy not found");
    }

    #[test]
    fn an_ignored_invalid_result_is_named() {
        let mut observation = emitted("tool_start", 1, json!({}), json!({}), Vec::new());
        if let Observation::Emitted { emission, .. } = &mut observation {
            emission.results.push(json!({"result": {"status": "blocked", "output": "no"}}));
        }
        let (passed, message, _) = judge(&assertion(), &observation);
        assert!(!passed);
        assert!(message.starts_with("a handler returned result {\"status\":\"blocked\""), "{message}");
    }

    #[test]
    fn a_failed_handler_fails_it_even_with_a_result() {
        let observation = emitted(
            "tool_start",
            2,
            json!({}),
            json!({"result": {"status": "error", "output": "refused"}}),
            vec![diagnostic("event", "boom")],
        );
        let (passed, message, _) = judge(&assertion(), &observation);
        assert!(!passed);
        assert_eq!(message, "a handler failed: [exception] boom");
    }
}
