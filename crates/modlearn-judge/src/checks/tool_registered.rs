//! `tool_registered`: a tool is in the registry after loading, with the
//! approval settings and parameter schema keys the spec names.

use modlearn_spec::ToolRegistered;
use modlearn_types::Observation;
use serde_json::{Value, json};

use crate::check::{Judged, unexpected};

pub(crate) fn judge(assertion: &ToolRegistered, observation: &Observation) -> Judged {
    let Observation::Snapshot { snapshot } = observation else {
        return unexpected(observation);
    };
    let registered: Vec<&str> = snapshot.tools.iter().map(|tool| tool.name.as_str()).collect();
    let Some(tool) = snapshot.tools.iter().find(|tool| tool.name == assertion.tool_name) else {
        let details = json!({ "registered": registered, "diagnostics": snapshot.diagnostics });
        let message = if registered.is_empty() {
            format!("no tool `{}` is registered (no tools are)", assertion.tool_name)
        } else {
            format!("no tool `{}` is registered (registered: {})", assertion.tool_name, registered.join(", "))
        };
        return (false, message, details);
    };
    // (field, expected, actual) for every setting the spec names.
    let mut mismatches: Vec<(String, Value, Value)> = Vec::new();
    let mut compare = |field: &str, expected: Option<Value>, actual: Value| {
        if let Some(expected) = expected.filter(|expected| *expected != actual) {
            mismatches.push((field.to_owned(), expected, actual));
        }
    };
    compare("requiresApproval", assertion.requires_approval.map(Value::Bool), Value::Bool(tool.requires_approval));
    compare("approvalPolicy", assertion.approval_policy.map(|p| json!(p.as_str())), json!(tool.approval_policy));
    compare("parallelSafe", assertion.parallel_safe.map(Value::Bool), Value::Bool(tool.parallel_safe));
    for (key, expected) in assertion.parameters.iter().flatten() {
        let actual = tool.parameters.get(key).cloned().unwrap_or(Value::Null);
        compare(&format!("parameters.{key}"), Some(expected.clone()), actual);
    }
    let details = json!({
        "tool": tool,
        "mismatches": mismatches.iter().map(|(field, expected, actual)| json!({
            "field": field, "expected": expected, "actual": actual,
        })).collect::<Vec<_>>(),
    });
    match mismatches.first() {
        None => (true, format!("tool `{}` is registered ({})", tool.name, tool.approval_policy), details),
        Some((field, expected, actual)) => {
            let more = if mismatches.len() > 1 { format!(" (and {} more)", mismatches.len() - 1) } else { String::new() };
            (false, format!("tool `{}`: {field} is {actual}, expected {expected}{more}", tool.name), details)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::fixtures::snapshot;
    use modlearn_spec::ApprovalPolicy;

    fn tools() -> Value {
        json!([{
            "name": "read_notes", "description": "Reads notes",
            "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
            "approvalPolicy": "auto", "requiresApproval": false, "parallelSafe": true, "mod": "global:/c/m.js",
        }])
    }

    fn assertion() -> ToolRegistered {
        ToolRegistered {
            tool_name: "read_notes".to_owned(),
            requires_approval: Some(false),
            approval_policy: Some(ApprovalPolicy::Auto),
            parallel_safe: None,
            parameters: Some(json!({"required": ["path"], "type": "object"}).as_object().unwrap().clone()),
        }
    }

    #[test]
    fn passes_on_matching_settings_and_a_parameter_subset() {
        let (passed, message, _) = judge(&assertion(), &snapshot(tools(), json!([])));
        assert!(passed, "{message}");
    }

    #[test]
    fn fails_when_missing_or_different() {
        let (passed, message, _) = judge(&assertion(), &snapshot(json!([]), json!([])));
        assert!(!passed);
        assert_eq!(message, "no tool `read_notes` is registered (no tools are)");
        let mut asks = assertion();
        asks.requires_approval = Some(true);
        asks.parameters = Some(json!({"required": ["file"]}).as_object().unwrap().clone());
        let (passed, message, details) = judge(&asks, &snapshot(tools(), json!([])));
        assert!(!passed);
        assert_eq!(message, "tool `read_notes`: requiresApproval is false, expected true (and 1 more)");
        assert_eq!(details["mismatches"][1]["field"], "parameters.required");
    }
}
