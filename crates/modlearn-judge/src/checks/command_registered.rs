//! `command_registered`: a slash command is in the registry after loading.

use modlearn_spec::CommandRegistered;
use modlearn_types::Observation;
use serde_json::json;

use crate::check::{Judged, unexpected};

pub(crate) fn judge(assertion: &CommandRegistered, observation: &Observation) -> Judged {
    let Observation::Snapshot { snapshot } = observation else {
        return unexpected(observation);
    };
    let id = &assertion.command;
    let registered: Vec<&str> = snapshot.commands.iter().map(|command| command.id.as_str()).collect();
    let Some(command) = snapshot.commands.iter().find(|command| command.id == *id) else {
        let listed = if registered.is_empty() {
            "no commands are; the headless profile has none".to_owned()
        } else {
            format!("registered: /{}", registered.join(", /"))
        };
        return (false, format!("no command `/{id}` is registered ({listed})"), json!({ "registered": registered }));
    };
    let details = json!({ "command": command, "description": assertion.description });
    match assertion.description.as_deref().filter(|wanted| !command.description.contains(wanted)) {
        Some(wanted) => (false, format!("`/{id}`'s description {:?} lacks `{wanted}`", command.description), details),
        None => (true, format!("`/{id}` is registered: {}", command.description), details),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::fixtures::snapshot;

    fn assertion(description: Option<&str>) -> CommandRegistered {
        CommandRegistered { command: "notes".to_owned(), description: description.map(str::to_owned) }
    }

    fn commands() -> serde_json::Value {
        json!([{"id": "notes", "description": "List the session notes", "order": 250, "mod": "global:/c/m.js"}])
    }

    #[test]
    fn passes_when_registered_with_the_description() {
        let (passed, message, _) = judge(&assertion(Some("session notes")), &snapshot(json!([]), commands()));
        assert!(passed, "{message}");
    }

    #[test]
    fn fails_when_missing_or_described_otherwise() {
        let (passed, message, _) = judge(&assertion(None), &snapshot(json!([]), json!([])));
        assert!(!passed);
        assert_eq!(message, "no command `/notes` is registered (no commands are; the headless profile has none)");
        let (_, message, _) = judge(&assertion(Some("todo")), &snapshot(json!([]), commands()));
        assert_eq!(message, "`/notes`'s description \"List the session notes\" lacks `todo`");
    }
}
