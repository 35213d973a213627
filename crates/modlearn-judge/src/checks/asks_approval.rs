//! `asks_approval`: a tool call is put to a human instead of decided: DSH's `{kind: "ask"}`, or a
//! Pi `tool_call` handler opening a dialog. The engine marks the event with `approval`; when the
//! answer was no (or nobody could answer) the call must also have been stopped.

use modlearn_spec::AsksApproval;
use modlearn_types::Observation;
use serde_json::{Value, json};

use crate::check::{Judged, handler_failure, refused_call, unexpected};
use crate::text::Substrings;

pub(crate) fn judge(assertion: &AsksApproval, observation: &Observation) -> Judged {
    let Observation::Emitted { after, emission, .. } = observation else {
        return unexpected(observation);
    };
    let approval = after.get("approval").cloned().unwrap_or(Value::Null);
    let details = json!({
        "approval": approval,
        "result": after.get("result").cloned().unwrap_or(Value::Null),
        "reasonContains": assertion.reason_contains.as_ref().map(|c| c.items()),
        "diagnostics": emission.diagnostics,
    });
    if let Some(failure) = handler_failure("tool_start", emission).or_else(|| refused_call(after)) {
        return (false, failure, details);
    }
    if approval.get("asked") != Some(&Value::Bool(true)) {
        let decided = match after.get("result").and_then(|result| result.get("output")).and_then(Value::as_str) {
            Some(reason) => format!("the call was decided without asking: {reason}"),
            None => "the call went ahead without asking".to_owned(),
        };
        return (false, decided, details);
    }
    let reason = approval.get("reason").and_then(Value::as_str).unwrap_or("");
    // Asking is not enough: a refusal, or nobody to answer, must stop the call, and a yes must
    // let it run.
    let stopped = !after.get("result").is_none_or(Value::is_null);
    match approval.get("granted") {
        Some(Value::Bool(false)) if !stopped => {
            return (false, format!("asked ({reason}), but the call went ahead without a yes"), details);
        }
        Some(Value::Bool(true)) if stopped => {
            return (false, format!("asked ({reason}), but the call was stopped though the answer was yes"), details);
        }
        Some(Value::Null) => {
            let what = if stopped { "the call was stopped" } else { "the call went ahead" };
            return (
                false,
                format!(
                    "asked ({reason}) and {what}, but the answer says neither yes nor no, so whether that was right cannot be judged: give the scenario's `ui` rule `assents: true` or `false`"
                ),
                details,
            );
        }
        _ => {}
    }
    if let Some(failure) = Substrings::check(reason, assertion.reason_contains.as_ref(), None).failure("the approval's reason") {
        return (false, failure, details);
    }
    (true, format!("asked for approval: {reason}"), details)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::fixtures::emitted;
    use modlearn_spec::StringOrList;

    fn assertion(reason: Option<&str>) -> AsksApproval {
        AsksApproval {
            tool_name: "write".to_owned(),
            args: json!({"path": "/etc/passwd"}).as_object().unwrap().clone(),
            reason_contains: reason.map(|r| StringOrList::One(r.to_owned())),
        }
    }

    #[test]
    fn passes_when_asked_with_the_reason() {
        let after = json!({"approval": {"asked": true, "reason": "write outside /workspace"}, "result": {"status": "error", "output": "Error: write outside /workspace"}});
        let (passed, message, _) = judge(&assertion(Some("outside")), &emitted("tool_start", 1, json!({}), after, Vec::new()));
        assert!(passed, "{message}");
    }

    #[test]
    fn fails_when_decided_or_let_through_or_the_reason_differs() {
        let denied = json!({"result": {"status": "error", "output": "Error: no"}});
        let (passed, message, _) = judge(&assertion(None), &emitted("tool_start", 1, json!({}), denied, Vec::new()));
        assert!(!passed);
        assert_eq!(message, "the call was decided without asking: Error: no");
        let (_, message, _) = judge(&assertion(None), &emitted("tool_start", 1, json!({}), json!({}), Vec::new()));
        assert_eq!(message, "the call went ahead without asking");
        let asked = json!({"approval": {"asked": true, "reason": "why not"}});
        let (passed, message, _) = judge(&assertion(Some("outside")), &emitted("tool_start", 1, json!({}), asked, Vec::new()));
        assert!(!passed);
        assert_eq!(message, "the approval's reason lacks `outside`");
    }

    #[test]
    fn a_refused_ask_that_lets_the_call_run_fails() {
        let ran = json!({"approval": {"asked": true, "reason": "Allow sudo ls?", "granted": false}});
        let (passed, message, _) = judge(&assertion(None), &emitted("tool_start", 1, json!({}), ran, Vec::new()));
        assert!(!passed);
        assert_eq!(message, "asked (Allow sudo ls?), but the call went ahead without a yes");
        let granted = json!({"approval": {"asked": true, "reason": "Allow sudo ls?", "granted": true}});
        assert!(judge(&assertion(None), &emitted("tool_start", 1, json!({}), granted, Vec::new())).0);
        let stopped = json!({"approval": {"asked": true, "reason": "Allow sudo ls?", "granted": true}, "result": {"status": "error", "output": "no"}});
        let (passed, message, _) = judge(&assertion(None), &emitted("tool_start", 1, json!({}), stopped, Vec::new()));
        assert!(!passed);
        assert_eq!(message, "asked (Allow sudo ls?), but the call was stopped though the answer was yes");
    }

    #[test]
    fn an_answer_that_says_neither_yes_nor_no_cannot_be_judged() {
        let chosen = json!({"approval": {"asked": true, "reason": "Allow sudo ls?", "granted": null}, "result": {"status": "error", "output": "no"}});
        let (passed, message, _) = judge(&assertion(None), &emitted("tool_start", 1, json!({}), chosen, Vec::new()));
        assert!(!passed);
        assert!(message.contains("give the scenario's `ui` rule `assents: true` or `false`"), "{message}");
    }
}
