//! `isolated_conversations`: what a conversation observes does not depend
//! on another conversation running beside it.

use modlearn_spec::{DEFAULT_CONVERSATIONS, IsolatedConversations};
use modlearn_types::{ConversationPlan, Observation, Probe};
use serde_json::json;

use crate::check::{Judged, unexpected};
use crate::checks::lifecycle_steps::{Conversation, first_difference, normalized, probe_name, step_probes};

/// The conversation ids, the spec's or the defaults.
fn conversations(assertion: &IsolatedConversations) -> Vec<String> {
    match &assertion.conversations {
        Some(ids) => ids.clone(),
        None => DEFAULT_CONVERSATIONS.iter().map(|id| (*id).to_owned()).collect(),
    }
}

pub(crate) fn probe(assertion: &IsolatedConversations) -> Probe {
    Probe::Conversations {
        conversations: conversations(assertion)
            .into_iter()
            .map(|conversation| {
                let steps = step_probes(&assertion.steps, Conversation::Forced(&conversation));
                ConversationPlan { conversation, steps }
            })
            .collect(),
    }
}

pub(crate) fn judge(assertion: &IsolatedConversations, observation: &Observation) -> Judged {
    let Observation::ConversationsRan { report } = observation else {
        return unexpected(observation);
    };
    let details = json!({ "report": report });
    let steps = step_probes(&assertion.steps, Conversation::Default);
    let longest = report.solo.iter().map(|run| run.observations.len()).max().unwrap_or(0);
    // In the interleaved order: step 1 of each conversation, then step 2 of each, ...
    for step in 0..longest {
        for solo in &report.solo {
            let Some(interleaved) = report.interleaved.iter().find(|run| run.conversation == solo.conversation) else {
                return (false, format!("conversation `{}` did not run interleaved", solo.conversation), details);
            };
            let (Some(alone), Some(together)) = (solo.observations.get(step), interleaved.observations.get(step)) else {
                continue;
            };
            if let Some(difference) = first_difference(&normalized(alone), &normalized(together)) {
                let name = steps.get(step).map(probe_name).unwrap_or_default();
                return (
                    false,
                    format!(
                        "conversation `{}` step {} ({name}) differs when run beside the other conversation(s): \
                         {difference} (alone vs interleaved)",
                        solo.conversation,
                        step + 1
                    ),
                    details,
                );
            }
        }
    }
    let ids: Vec<&str> = report.solo.iter().map(|run| run.conversation.as_str()).collect();
    (
        true,
        format!("{} conversation(s) ({}) observed the same interleaved as alone in {longest} step(s)", ids.len(), ids.join(", ")),
        details,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use modlearn_spec::LifecycleStep;
    use modlearn_types::{ConversationRun, ConversationsReport, ToolRun};

    fn ran(output: &str) -> Observation {
        let run: ToolRun =
            serde_json::from_value(json!({ "outcome": "ran", "status": "success", "output": output, "diagnostics": [] })).unwrap();
        Observation::ToolRan { run }
    }

    fn run(conversation: &str, outputs: &[&str]) -> ConversationRun {
        ConversationRun { conversation: conversation.to_owned(), observations: outputs.iter().map(|o| ran(o)).collect() }
    }

    fn assertion() -> IsolatedConversations {
        let steps: Vec<LifecycleStep> = serde_json::from_value(json!([
            { "runTool": "remember", "args": { "text": "x" } }, { "runTool": "recall" }
        ]))
        .unwrap();
        IsolatedConversations { steps, conversations: None }
    }

    fn judged(solo: Vec<ConversationRun>, interleaved: Vec<ConversationRun>) -> Judged {
        judge(&assertion(), &Observation::ConversationsRan { report: Box::new(ConversationsReport { solo, interleaved }) })
    }

    #[test]
    fn probes_bind_every_step_to_its_conversation() {
        let Probe::Conversations { conversations } = probe(&assertion()) else { panic!() };
        assert_eq!(conversations.len(), 2);
        assert_eq!(conversations[1].conversation, "conversation-b");
        assert_eq!(conversations[1].steps.len(), 2);
    }

    #[test]
    fn passes_when_each_conversation_sees_only_its_own_state() {
        let solo = vec![run("conversation-a", &["ok", "x"]), run("conversation-b", &["ok", "x"])];
        let (passed, message, _) = judged(solo.clone(), solo);
        assert!(passed, "{message}");
        assert_eq!(message, "2 conversation(s) (conversation-a, conversation-b) observed the same interleaved as alone in 2 step(s)");
    }

    #[test]
    fn names_the_conversation_and_step_that_diverged() {
        let solo = vec![run("conversation-a", &["ok", "x"]), run("conversation-b", &["ok", "x"])];
        let interleaved = vec![run("conversation-a", &["ok", "x"]), run("conversation-b", &["ok", "x, x"])];
        let (passed, message, _) = judged(solo, interleaved);
        assert!(!passed);
        assert_eq!(
            message,
            "conversation `conversation-b` step 2 (runTool recall) differs when run beside the other \
             conversation(s): run.output: \"x\" vs \"x, x\" (alone vs interleaved)"
        );
    }
}
