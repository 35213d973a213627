//! `command_runs`: run a registered slash command as Letta's command
//! runtime does and check its normalised result.

use modlearn_spec::CommandRuns;
use modlearn_types::{CommandRun, Observation, Probe};
use serde_json::{Value, json};

use crate::check::{Judged, unexpected};
use crate::text::{Substrings, excerpt};

pub(crate) fn probe(assertion: &CommandRuns) -> Probe {
    Probe::RunCommand { command: assertion.command.clone(), args: assertion.args.clone().unwrap_or_default() }
}

pub(crate) fn judge(assertion: &CommandRuns, observation: &Observation) -> Judged {
    let Observation::CommandRan { run } = observation else {
        return unexpected(observation);
    };
    let (result, text, invocation) = match run {
        CommandRun::NotRegistered { invocation, registered } => {
            let listed = if registered.is_empty() {
                "no commands are; the headless profile has none".to_owned()
            } else {
                format!("registered: /{}", registered.join(", /"))
            };
            let details = json!({ "invocation": invocation, "registered": registered });
            return (false, format!("no command `/{}` is registered ({listed})", invocation.command), details);
        }
        CommandRun::Failed { message, invocation, diagnostics } => {
            let details = json!({ "invocation": invocation, "diagnostics": diagnostics });
            let fault = diagnostics.first().map(|d| d.fault.as_str()).unwrap_or("exception");
            return (false, format!("`{}` failed: [{fault}] {message}", invocation.raw_input), details);
        }
        CommandRun::Ran { result, text, invocation } => (result, text, invocation),
    };
    let result_type = result.get("type").and_then(Value::as_str).unwrap_or("");
    let details = json!({
        "invocation": invocation,
        "result": result,
        "text": text,
        "expectResultType": assertion.result_type.map(|t| t.as_str()),
        "contains": assertion.contains.as_ref().map(|c| c.items()),
    });
    if let Some(expected) = assertion.result_type.filter(|expected| expected.as_str() != result_type) {
        return (false, format!("the result is of type `{result_type}`, expected `{}`", expected.as_str()), details);
    }
    if assertion.contains.is_some() {
        let Some(text) = text else {
            return (false, format!("the result is of type `{result_type}`, which has no text to check"), details);
        };
        if let Some(failure) = Substrings::check(text, assertion.contains.as_ref(), None).failure("the result's text") {
            return (false, failure, details);
        }
    }
    let shown = text.as_deref().map(|text| format!(": {}", excerpt(text, 120))).unwrap_or_default();
    (true, format!("`{}` returned `{result_type}`{shown}", invocation.raw_input), details)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::fixtures::diagnostic;
    use modlearn_spec::{CommandResultType, StringOrList};
    use modlearn_types::CommandInvocation;

    fn invocation() -> CommandInvocation {
        CommandInvocation {
            raw_input: "/notes add 'a b'".to_owned(),
            command: "notes".to_owned(),
            args: "add 'a b'".to_owned(),
            argv: vec!["add".to_owned(), "a b".to_owned()],
        }
    }

    fn assertion() -> CommandRuns {
        CommandRuns {
            command: "notes".to_owned(),
            args: Some("add 'a b'".to_owned()),
            result_type: Some(CommandResultType::Prompt),
            contains: Some(StringOrList::Many(vec!["<system-reminder>".to_owned(), "a b".to_owned()])),
        }
    }

    fn ran(result: Value, text: Option<&str>) -> Observation {
        Observation::CommandRan { run: CommandRun::Ran { result, text: text.map(str::to_owned), invocation: invocation() } }
    }

    #[test]
    fn the_probe_passes_raw_args() {
        assert_eq!(probe(&assertion()), Probe::RunCommand { command: "notes".to_owned(), args: "add 'a b'".to_owned() });
    }

    #[test]
    fn passes_on_the_expected_type_and_text() {
        let observation = ran(json!({"type": "prompt", "content": "a b"}), Some("<system-reminder>\na b\n</system-reminder>"));
        let (passed, message, _) = judge(&assertion(), &observation);
        assert!(passed, "{message}");
    }

    #[test]
    fn fails_when_missing_failing_or_different() {
        let missing = Observation::CommandRan { run: CommandRun::NotRegistered { invocation: invocation(), registered: Vec::new() } };
        assert_eq!(judge(&assertion(), &missing).1, "no command `/notes` is registered (no commands are; the headless profile has none)");
        let failed = Observation::CommandRan {
            run: CommandRun::Failed {
                message: "Mod command prompt result requires content".to_owned(),
                invocation: invocation(),
                diagnostics: vec![diagnostic("command.run", "Mod command prompt result requires content")],
            },
        };
        assert_eq!(judge(&assertion(), &failed).1, "`/notes add 'a b'` failed: [exception] Mod command prompt result requires content");
        let output = ran(json!({"type": "output", "output": "a b"}), Some("a b"));
        assert_eq!(judge(&assertion(), &output).1, "the result is of type `output`, expected `prompt`");
        let plain = ran(json!({"type": "prompt", "content": "a b", "systemReminder": false}), Some("a b"));
        assert_eq!(judge(&assertion(), &plain).1, "the result's text lacks `<system-reminder>`");
        let mut any = assertion();
        any.result_type = None;
        assert_eq!(judge(&any, &ran(json!({"type": "handled"}), None)).1, "the result is of type `handled`, which has no text to check");
    }
}
