//! `turn_start_cancels`: a turn_start handler cancels the turn.

use modlearn_spec::TurnStartCancels;
use modlearn_types::{Observation, Probe};
use serde_json::{Value, json};

use crate::check::{Judged, unexpected};
use crate::checks::turn_start_injects_message::turn_start_probe;
use crate::text::Substrings;

pub(crate) fn probe(assertion: &TurnStartCancels) -> Probe {
    turn_start_probe(assertion.input.as_ref())
}

pub(crate) fn judge(assertion: &TurnStartCancels, observation: &Observation) -> Judged {
    let Observation::Emitted { after, emission, .. } = observation else {
        return unexpected(observation);
    };
    let cancel = after.get("cancel").cloned().unwrap_or(Value::Null);
    let details = json!({
        "handlerCount": emission.handler_count,
        "cancel": cancel,
        "reasonContains": assertion.reason_contains.as_ref().map(|c| c.items()),
        "results": emission.results,
        "diagnostics": emission.diagnostics,
    });
    // The engine sets event.cancel only from the first valid returned cancel.
    let Some(reason) = cancel.get("reason").and_then(Value::as_str) else {
        let message = if emission.handler_count == 0 {
            "no turn_start handler is registered".to_owned()
        } else if let Some(invalid) = crate::check::returned(emission, "cancel") {
            format!("the turn was not cancelled: a handler returned cancel {invalid}, which has no non-empty string reason")
        } else {
            "the turn was not cancelled: no handler returned {cancel: {reason: <non-empty string>}} (setting event.cancel does nothing)"
                .to_owned()
        };
        return (false, message, details);
    };
    if let Some(failure) = Substrings::check(reason, assertion.reason_contains.as_ref(), None).failure("the cancel reason") {
        return (false, failure, details);
    }
    (true, format!("turn cancelled: {reason}"), details)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::fixtures::emitted;
    use modlearn_spec::StringOrList;

    fn assertion() -> TurnStartCancels {
        TurnStartCancels { input: None, reason_contains: Some(StringOrList::One("quiet hours".to_owned())) }
    }

    #[test]
    fn the_probe_uses_letta_default_input() {
        let Probe::Emit { payload, .. } = probe(&assertion()) else { panic!() };
        assert_eq!(payload["input"][0]["content"], "Install a Python package.");
    }

    #[test]
    fn passes_when_cancelled_with_the_reason() {
        let observation = emitted("turn_start", 1, json!({}), json!({"cancel": {"reason": "quiet hours: no turns"}}), Vec::new());
        let (passed, message, _) = judge(&assertion(), &observation);
        assert!(passed, "{message}");
    }

    #[test]
    fn fails_without_a_cancel_or_with_another_reason() {
        let observation = emitted("turn_start", 1, json!({}), json!({"input": []}), Vec::new());
        let (passed, message, _) = judge(&assertion(), &observation);
        assert!(!passed);
        assert!(message.starts_with("the turn was not cancelled"), "{message}");
        let observation = emitted("turn_start", 0, json!({}), json!({}), Vec::new());
        assert_eq!(judge(&assertion(), &observation).1, "no turn_start handler is registered");
        let observation = emitted("turn_start", 1, json!({}), json!({"cancel": {"reason": "busy"}}), Vec::new());
        assert_eq!(judge(&assertion(), &observation).1, "the cancel reason lacks `quiet hours`");
    }
}
