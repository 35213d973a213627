//! `turn_end_continues`: a turn_end handler asks for a follow-up turn.

use modlearn_spec::TurnEndContinues;
use modlearn_types::{Observation, Probe};
use serde_json::{Value, json};

use crate::check::{Judged, unexpected};
use crate::text::{Substrings, excerpt};
use crate::{EVAL_AGENT_ID, EVAL_CONVERSATION_ID};

pub(crate) fn probe(assertion: &TurnEndContinues) -> Probe {
    let mut payload = json!({
        "agentId": EVAL_AGENT_ID,
        "conversationId": EVAL_CONVERSATION_ID,
        "stopReason": assertion.stop_reason.as_deref().unwrap_or("end_turn"),
    });
    // Letta leaves the key out when there is no assistant message.
    if let Some(message) = &assertion.assistant_message {
        payload["assistantMessage"] = Value::String(message.clone());
    }
    Probe::Emit { event: "turn_end".to_owned(), payload, compare: None }
}

pub(crate) fn judge(assertion: &TurnEndContinues, observation: &Observation) -> Judged {
    let Observation::Emitted { after, emission, .. } = observation else {
        return unexpected(observation);
    };
    let follow_up = after.get("continue").cloned().unwrap_or(Value::Null);
    let details = json!({
        "handlerCount": emission.handler_count,
        "continue": follow_up,
        "contains": assertion.contains.as_ref().map(|c| c.items()),
        "results": emission.results,
        "diagnostics": emission.diagnostics,
    });
    let Some(text) = follow_up.as_str().filter(|text| !text.is_empty()) else {
        let message = if emission.handler_count == 0 {
            "no turn_end handler is registered".to_owned()
        } else {
            format!("no follow-up turn: event.continue is {follow_up}, not a non-empty string")
        };
        return (false, message, details);
    };
    if let Some(failure) = Substrings::check(text, assertion.contains.as_ref(), None).failure("the follow-up message") {
        return (false, failure, details);
    }
    (true, format!("continues with: {}", excerpt(text, 120)), details)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::fixtures::emitted;
    use modlearn_spec::StringOrList;

    fn assertion() -> TurnEndContinues {
        TurnEndContinues {
            stop_reason: None,
            assistant_message: Some("- [ ] write tests".to_owned()),
            contains: Some(StringOrList::One("checklist".to_owned())),
        }
    }

    #[test]
    fn the_probe_defaults_to_end_turn() {
        let Probe::Emit { event, payload, .. } = probe(&assertion()) else { panic!() };
        assert_eq!((event.as_str(), &payload["stopReason"]), ("turn_end", &json!("end_turn")));
        assert_eq!(payload["assistantMessage"], "- [ ] write tests");
        let Probe::Emit { payload, .. } = probe(&TurnEndContinues::default()) else { panic!() };
        assert!(payload.get("assistantMessage").is_none());
    }

    #[test]
    fn passes_with_a_matching_follow_up() {
        let observation = emitted("turn_end", 1, json!({}), json!({"continue": "Finish the checklist."}), Vec::new());
        let (passed, message, _) = judge(&assertion(), &observation);
        assert!(passed, "{message}");
    }

    #[test]
    fn fails_without_a_follow_up_or_with_other_text() {
        let observation = emitted("turn_end", 1, json!({}), json!({"continue": ""}), Vec::new());
        let (passed, message, _) = judge(&assertion(), &observation);
        assert!(!passed);
        assert_eq!(message, "no follow-up turn: event.continue is \"\", not a non-empty string");
        let observation = emitted("turn_end", 0, json!({}), json!({}), Vec::new());
        assert_eq!(judge(&assertion(), &observation).1, "no turn_end handler is registered");
        let observation = emitted("turn_end", 1, json!({}), json!({"continue": "Go on."}), Vec::new());
        assert_eq!(judge(&assertion(), &observation).1, "the follow-up message lacks `checklist`");
    }
}
