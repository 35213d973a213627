//! `permission_decides`: ask the permission overlays about one tool call,
//! as Letta's `checkModPermissions` does, and compare the composed decision.

use modlearn_spec::PermissionDecides;
use modlearn_types::{Observation, PermissionCheck, Probe};
use serde_json::json;

use crate::check::{Judged, unexpected};
use crate::{EVAL_AGENT_ID, EVAL_CONVERSATION_ID, EVAL_TOOL_CALL_ID};

/// The check event; the engine fills `cwd`, `workingDirectory` and
/// `permissionMode` from its ctx.
pub(crate) fn probe(assertion: &PermissionDecides) -> Probe {
    Probe::CheckPermissions {
        event: json!({
            "agentId": EVAL_AGENT_ID,
            "conversationId": EVAL_CONVERSATION_ID,
            "toolCallId": EVAL_TOOL_CALL_ID,
            "toolName": assertion.tool_name,
            "args": assertion.args,
            "phase": assertion.phase.unwrap_or_default().as_str(),
        }),
    }
}

pub(crate) fn judge(assertion: &PermissionDecides, observation: &Observation) -> Judged {
    let Observation::PermissionChecked { check } = observation else {
        return unexpected(observation);
    };
    let expected = assertion.decision.as_str();
    let (decision, consulted, diagnostics) = match check {
        PermissionCheck::Threw { message, consulted, diagnostics, .. } => {
            let details = json!({ "expected": expected, "consulted": consulted, "diagnostics": diagnostics });
            let message = format!("the permission check threw: {message} (a check returned null; return undefined for no opinion)");
            return (false, message, details);
        }
        PermissionCheck::Decided { decision, consulted, diagnostics, .. } => (decision, consulted, diagnostics),
    };
    let actual = decision.as_ref().map_or("none", |d| d.decision.as_str());
    let details = json!({
        "expected": expected,
        "actual": actual,
        "decision": decision,
        "consulted": consulted,
        "diagnostics": diagnostics,
    });
    if let Some(first) = diagnostics.first() {
        let message = format!("an overlay failed: [{} {}] {}", first.phase, first.fault.as_str(), first.message);
        return (false, message, details);
    }
    let described = match decision {
        Some(d) => {
            let reason = d.reason.as_ref().and_then(|r| r.as_str()).map(|r| format!(": {r}")).unwrap_or_default();
            format!("`{}` by {}{reason}", d.decision, d.matched_rule)
        }
        None if consulted.is_empty() => "no opinion (no permission overlay is registered)".to_owned(),
        None => "no opinion from any overlay".to_owned(),
    };
    if actual == expected {
        (true, described, details)
    } else {
        (false, format!("decision is {described}, expected `{expected}`"), details)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::fixtures::diagnostic;
    use modlearn_spec::{ExpectedDecision, PermissionPhase};
    use modlearn_types::{PermissionConsultation, PermissionDecision};
    use serde_json::Value;

    fn assertion(decision: ExpectedDecision) -> PermissionDecides {
        PermissionDecides {
            tool_name: "Bash".to_owned(),
            args: json!({"command": "rm -rf build"}).as_object().unwrap().clone(),
            decision,
            phase: None,
        }
    }

    fn decided(decision: Option<&str>, diagnostics: Vec<modlearn_types::Diagnostic>) -> Observation {
        let consulted = vec![PermissionConsultation {
            id: "guard".to_owned(),
            owner: "global:/c/m.js".to_owned(),
            outcome: if decision.is_some() { "decided" } else { "no_opinion" }.to_owned(),
            decision: decision.map(str::to_owned),
            reason: None,
        }];
        let decision = decision.map(|d| PermissionDecision {
            decision: d.to_owned(),
            matched_rule: "mod permission:guard".to_owned(),
            reason: Some(json!("recursive delete")),
        });
        Observation::PermissionChecked { check: PermissionCheck::Decided { decision, event: Value::Null, consulted, diagnostics } }
    }

    #[test]
    fn the_probe_builds_letta_check_event() {
        let mut execution = assertion(ExpectedDecision::Deny);
        let Probe::CheckPermissions { event } = probe(&execution) else { panic!() };
        assert_eq!((event["phase"].as_str(), event["toolName"].as_str()), (Some("approval"), Some("Bash")));
        execution.phase = Some(PermissionPhase::Execution);
        let Probe::CheckPermissions { event } = probe(&execution) else { panic!() };
        assert_eq!(event["phase"], "execution");
    }

    #[test]
    fn passes_when_the_composed_decision_matches() {
        let (passed, message, _) = judge(&assertion(ExpectedDecision::Deny), &decided(Some("deny"), Vec::new()));
        assert!(passed);
        assert_eq!(message, "`deny` by mod permission:guard: recursive delete");
        assert!(judge(&assertion(ExpectedDecision::None), &decided(None, Vec::new())).0);
    }

    #[test]
    fn fails_on_another_decision_a_diagnostic_or_a_throw() {
        let (passed, message, _) = judge(&assertion(ExpectedDecision::Deny), &decided(None, Vec::new()));
        assert!(!passed);
        assert_eq!(message, "decision is no opinion from any overlay, expected `deny`");
        let failed = decided(Some("deny"), vec![diagnostic("permission.check", "boom")]);
        assert_eq!(judge(&assertion(ExpectedDecision::Deny), &failed).1, "an overlay failed: [permission.check exception] boom");
        let threw = Observation::PermissionChecked {
            check: PermissionCheck::Threw {
                message: "TypeError: cannot read property 'decision' of null".to_owned(),
                event: Value::Null,
                consulted: Vec::new(),
                diagnostics: Vec::new(),
            },
        };
        assert!(judge(&assertion(ExpectedDecision::None), &threw).1.starts_with("the permission check threw"));
    }
}
