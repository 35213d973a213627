//! `post_execute_decides`: what a post-execute step (DSH's `tools/post-execute` waterfall, Pi's
//! `tool_result` handlers) decides about a tool's result, and what the model then sees. The
//! engine marks the event with `postExecute: {decision, contexts}`; no mark is an `accept`.

use modlearn_spec::{PostExecuteDecides, PostExecuteDecision};
use modlearn_types::{Observation, Probe};
use serde_json::{Value, json};

use crate::check::{Judged, handler_failure, refused_call, unexpected};
use crate::checks::tool_end_rewrites_result;
use crate::text::{Substrings, excerpt};

pub(crate) fn probe(assertion: &PostExecuteDecides) -> Probe {
    tool_end_rewrites_result::tool_end_probe(&assertion.tool_name, &assertion.args, assertion.status, &assertion.output)
}

pub(crate) fn judge(assertion: &PostExecuteDecides, observation: &Observation) -> Judged {
    let Observation::Emitted { after, emission, .. } = observation else {
        return unexpected(observation);
    };
    let marked = after.get("postExecute").cloned().unwrap_or(Value::Null);
    let decision = marked.get("decision").and_then(Value::as_str).unwrap_or(PostExecuteDecision::Accept.as_str());
    let seen = after.get("result").and_then(|result| result.get("output")).and_then(Value::as_str).unwrap_or(&assertion.output);
    let contexts: Vec<&str> = marked.get("contexts").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
    let details = json!({
        "decision": decision,
        "expected": assertion.decision.as_str(),
        "original": { "status": assertion.status.as_str(), "output": assertion.output },
        "result": after.get("result").cloned().unwrap_or(Value::Null),
        "contexts": contexts,
        "diagnostics": emission.diagnostics,
    });
    if let Some(failure) = handler_failure("tool_end", emission).or_else(|| refused_call(after)) {
        return (false, failure, details);
    }
    if decision != assertion.decision.as_str() {
        let what = match decision {
            "accept" => "the result was accepted as the tool left it".to_owned(),
            "replace" => format!("the result was replaced: {}", excerpt(seen, 120)),
            other => format!("the result was {other}ed: {}", excerpt(seen, 120)),
        };
        return (false, format!("expected `{}`, but {what}", assertion.decision.as_str()), details);
    }
    if let Some(failure) =
        Substrings::check(seen, assertion.contains.as_ref(), assertion.not_contains.as_ref()).failure("what the model sees")
    {
        return (false, failure, details);
    }
    let joined = contexts.join("\n");
    if let Some(failure) = Substrings::check(&joined, assertion.context_contains.as_ref(), None).failure("the added context") {
        return (false, failure, details);
    }
    (true, format!("`{decision}`; the model sees {}", excerpt(seen, 120)), details)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::fixtures::emitted;
    use modlearn_spec::{StringOrList, ToolStatus};

    fn assertion(decision: PostExecuteDecision, contains: Option<&str>) -> PostExecuteDecides {
        PostExecuteDecides {
            tool_name: "bash".to_owned(),
            args: json!({"command": "cat .env"}).as_object().unwrap().clone(),
            status: ToolStatus::Success,
            output: "KEY=secret".to_owned(),
            decision,
            contains: contains.map(|c| StringOrList::One(c.to_owned())),
            not_contains: None,
            context_contains: None,
        }
    }

    #[test]
    fn a_block_with_its_feedback_passes() {
        let after =
            json!({"postExecute": {"decision": "block", "contexts": []}, "result": {"status": "error", "output": "secrets withheld"}});
        let (passed, message, _) =
            judge(&assertion(PostExecuteDecision::Block, Some("withheld")), &emitted("tool_end", 1, json!({}), after, Vec::new()));
        assert!(passed, "{message}");
    }

    #[test]
    fn no_mark_is_an_accept_of_the_original() {
        let (passed, message, _) =
            judge(&assertion(PostExecuteDecision::Block, None), &emitted("tool_end", 1, json!({}), json!({}), Vec::new()));
        assert!(!passed);
        assert_eq!(message, "expected `block`, but the result was accepted as the tool left it");
        let (passed, _, _) =
            judge(&assertion(PostExecuteDecision::Accept, Some("KEY=")), &emitted("tool_end", 1, json!({}), json!({}), Vec::new()));
        assert!(passed);
    }
}
