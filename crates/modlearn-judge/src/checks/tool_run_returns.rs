//! `tool_run_returns`: run a registered tool's `run(ctx)` as Letta's host
//! does and check the normalised result.

use modlearn_spec::{ToolRunReturns, ToolStatus};
use modlearn_types::{Observation, Probe, ToolRun};
use serde_json::{Value, json};

use crate::EVAL_TOOL_CALL_ID;
use crate::check::{Judged, unexpected};
use crate::text::{Substrings, excerpt, tool_output_text};

pub(crate) fn probe(assertion: &ToolRunReturns) -> Probe {
    Probe::RunTool {
        tool_name: assertion.tool_name.clone(),
        args: Value::Object(assertion.args.clone()),
        tool_call_id: EVAL_TOOL_CALL_ID.to_owned(),
    }
}

pub(crate) fn judge(assertion: &ToolRunReturns, observation: &Observation) -> Judged {
    let Observation::ToolRan { run } = observation else {
        return unexpected(observation);
    };
    let name = &assertion.tool_name;
    let (status, output, diagnostics) = match run {
        ToolRun::NotRegistered { registered } => {
            let listed = if registered.is_empty() { "no tools are".to_owned() } else { format!("registered: {}", registered.join(", ")) };
            return (false, format!("no tool `{name}` is registered ({listed})"), json!({ "registered": registered }));
        }
        ToolRun::Unavailable { reason, diagnostics } => {
            let details = json!({ "reason": reason, "diagnostics": diagnostics });
            return (false, format!("tool `{name}` is not available: {reason}"), details);
        }
        ToolRun::Ran { status, output, diagnostics, .. } => (status.as_str(), output, diagnostics),
    };
    let text = tool_output_text(output);
    let details = json!({
        "status": status,
        "output": output,
        "expectStatus": assertion.status.map(|s| s.as_str()),
        "equals": assertion.equals,
        "contains": assertion.contains.as_ref().map(|c| c.items()),
        "notContains": assertion.not_contains.as_ref().map(|c| c.items()),
        "diagnostics": diagnostics,
    });
    if let Some(expected) = assertion.status.filter(|expected| expected.as_str() != status) {
        let message = format!("status is `{status}`, expected `{}`; output: {}", expected.as_str(), excerpt(&text, 120));
        return (false, message, details);
    }
    // A throw is a bug unless the spec expects the tool to fail.
    if assertion.status != Some(ToolStatus::Error)
        && let Some(first) = diagnostics.first()
    {
        return (false, format!("run(ctx) failed: [{}] {}", first.fault.as_str(), first.message), details);
    }
    if let Some(expected) = assertion.equals.as_deref().filter(|expected| *expected != text) {
        return (false, format!("output is {text:?}, expected {expected:?}"), details);
    }
    let substrings = Substrings::check(&text, assertion.contains.as_ref(), assertion.not_contains.as_ref());
    if let Some(failure) = substrings.failure("the output") {
        return (false, failure, details);
    }
    (true, format!("`{status}`: {}", excerpt(&text, 120)), details)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::fixtures::diagnostic;
    use modlearn_spec::StringOrList;

    fn assertion() -> ToolRunReturns {
        ToolRunReturns {
            tool_name: "read_notes".to_owned(),
            args: json!({"topic": "db"}).as_object().unwrap().clone(),
            status: Some(ToolStatus::Success),
            equals: None,
            contains: Some(StringOrList::One("db".to_owned())),
            not_contains: Some(StringOrList::One("undefined".to_owned())),
        }
    }

    fn ran(status: &str, output: Value, diagnostics: Vec<modlearn_types::Diagnostic>) -> Observation {
        Observation::ToolRan { run: ToolRun::Ran { status: status.to_owned(), output, stdout: None, stderr: None, diagnostics } }
    }

    #[test]
    fn the_probe_runs_the_named_tool_with_the_assertion_call_id() {
        let Probe::RunTool { tool_name, args, tool_call_id } = probe(&assertion()) else { panic!() };
        assert_eq!((tool_name.as_str(), tool_call_id.as_str()), ("read_notes", EVAL_TOOL_CALL_ID));
        assert_eq!(args, json!({"topic": "db"}));
    }

    #[test]
    fn passes_on_matching_text_and_content_blocks() {
        let (passed, message, _) = judge(&assertion(), &ran("success", json!("notes about db"), Vec::new()));
        assert!(passed, "{message}");
        let blocks = json!([{"type": "text", "text": "db"}, {"type": "image", "source": {}}]);
        assert!(judge(&assertion(), &ran("success", blocks, Vec::new())).0);
        let mut exact = assertion();
        exact.equals = Some("a\nb".to_owned());
        exact.contains = None;
        assert!(judge(&exact, &ran("success", json!([{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]), Vec::new())).0);
    }

    #[test]
    fn a_throw_passes_only_when_an_error_is_expected() {
        let thrown = ran("error", json!("no db notes"), vec![diagnostic("tool.run", "no db notes")]);
        let (passed, message, _) = judge(&assertion(), &thrown);
        assert!(!passed);
        assert_eq!(message, "status is `error`, expected `success`; output: no db notes");
        let mut errors = assertion();
        errors.status = Some(ToolStatus::Error);
        assert!(judge(&errors, &thrown).0);
        errors.status = None;
        assert_eq!(judge(&errors, &thrown).1, "run(ctx) failed: [exception] no db notes");
    }

    #[test]
    fn fails_when_unregistered_unavailable_or_wrong() {
        let missing = Observation::ToolRan { run: ToolRun::NotRegistered { registered: vec!["other".to_owned()] } };
        assert_eq!(judge(&assertion(), &missing).1, "no tool `read_notes` is registered (registered: other)");
        let hidden = Observation::ToolRan {
            run: ToolRun::Unavailable { reason: "isEnabled(ctx) returned false".to_owned(), diagnostics: Vec::new() },
        };
        assert_eq!(judge(&assertion(), &hidden).1, "tool `read_notes` is not available: isEnabled(ctx) returned false");
        assert_eq!(judge(&assertion(), &ran("success", json!("db: undefined"), Vec::new())).1, "the output contains forbidden `undefined`");
        let mut exact = assertion();
        exact.equals = Some("db".to_owned());
        assert_eq!(judge(&exact, &ran("success", json!("db!"), Vec::new())).1, "output is \"db!\", expected \"db\"");
    }
}
