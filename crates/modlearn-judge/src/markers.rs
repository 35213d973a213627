//! Letta's result and trace markers, judged against a headless session (scripted or model-driven): plain substring checks,
//! one point each. Result markers look at the result text (the last assistant message), trace
//! markers at the JSONL trace.

use modlearn_spec::ResolvedScenario;
use modlearn_types::CheckResult;
use serde_json::{Value, json};

use crate::text::excerpt;

/// What a session left for the markers to look at.
#[derive(Clone, Copy, Debug)]
pub struct SessionTexts<'a> {
    /// The trace, one JSON object per line.
    pub trace: &'a str,
    /// The result text.
    pub result: &'a str,
    /// Why the session stopped early, if it did.
    pub error: Option<&'a str>,
}

/// The marker checks of a scenario with a session, in Letta's order (required result, required trace,
/// forbidden result, forbidden trace), numbered from `first_index + 1`. `None` for a session that
/// never ran: every marker fails.
pub fn session_marker_checks(scenario: &ResolvedScenario, session: Option<SessionTexts<'_>>, first_index: usize) -> Vec<CheckResult> {
    let lists = [
        ("required_result_marker", &scenario.required_result_markers, true, false),
        ("required_trace_marker", &scenario.required_trace_markers, true, true),
        ("forbidden_result_marker", &scenario.forbidden_result_markers, false, false),
        ("forbidden_trace_marker", &scenario.forbidden_trace_markers, false, true),
    ];
    let mut checks = Vec::new();
    for (kind, markers, required, in_trace) in lists {
        for marker in markers {
            let label = format!("{}. {kind} {marker:?}", first_index + checks.len() + 1);
            let (passed, message, details) = match session {
                None => (false, "the session did not run".to_owned(), Value::Null),
                Some(session) => judge_marker(marker, required, in_trace, session),
            };
            checks.push(CheckResult { label, kind: kind.to_owned(), passed, message, details, unchecked: false });
        }
    }
    checks
}

fn judge_marker(marker: &str, required: bool, in_trace: bool, session: SessionTexts<'_>) -> (bool, String, Value) {
    let (found, location, details) = if in_trace {
        let hit = session.trace.lines().enumerate().find(|(_, line)| line.contains(marker));
        let location = hit.map(|(index, line)| {
            let kind = serde_json::from_str::<Value>(line).ok().and_then(|entry| entry["type"].as_str().map(str::to_owned));
            format!("trace entry {} ({})", index + 1, kind.unwrap_or_default())
        });
        let details =
            json!({ "marker": marker, "in": "trace", "entry": hit.map(|(_, line)| line), "traceEntries": session.trace.lines().count() });
        (hit.is_some(), location, details)
    } else {
        let found = session.result.contains(marker);
        (found, found.then(|| "the result".to_owned()), json!({ "marker": marker, "in": "result", "result": session.result }))
    };
    let place = if in_trace { "the trace" } else { "the result" };
    if let Some(error) = session.error {
        return (false, format!("the session stopped early ({error}), so its {} is incomplete", &place[4..]), details);
    }
    let message = match (required, found) {
        (true, true) | (false, true) => format!("found in {}", location.unwrap_or_default()),
        (true, false) if in_trace => {
            let results = tool_results(session.trace);
            let count = session.trace.lines().count();
            let entries = format!("{count} {}", if count == 1 { "entry" } else { "entries" });
            if results.is_empty() {
                format!("not in the trace ({entries}, no tool results)")
            } else {
                format!("not in the trace ({entries}); tool results: {}", results.join("; "))
            }
        }
        (true, false) => format!("the result lacks it: {:?}", excerpt(session.result, 120)),
        (false, false) => format!("absent from {place}"),
    };
    (found == required, message, details)
}

/// `<tool> <status>: <output>` of each tool result in the trace (at most 3), so a failed trace
/// marker says what the calls did instead.
fn tool_results(trace: &str) -> Vec<String> {
    trace
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|entry| entry["type"] == "tool_result")
        .take(3)
        .map(|entry| {
            let output = entry["output"].as_str().map_or_else(|| entry["output"].to_string(), str::to_owned);
            format!(
                "{} {}: {:?}",
                entry["toolName"].as_str().unwrap_or("?"),
                entry["status"].as_str().unwrap_or("?"),
                excerpt(&output, 100)
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scenario() -> ResolvedScenario {
        let spec: modlearn_spec::ModLearningSpec = serde_json::from_value(json!({
            "name": "n", "objective": "o", "requirements": ["r"],
            "evaluation": {
                "script": [{ "user": "hi" }],
                "requiredResultMarkers": ["Installed."], "requiredTraceMarkers": ["uv pip install"],
                "forbiddenResultMarkers": ["Error"], "forbiddenTraceMarkers": ["\"outcome\":\"denied\""],
            }
        }))
        .unwrap();
        modlearn_spec::resolve_scenarios(&spec).remove(0)
    }

    const TRACE: &str = "{\"seq\":1,\"type\":\"turn\"}\n{\"seq\":2,\"type\":\"tool_call\",\"args\":{\"command\":\"uv pip install x\"}}\n";

    #[test]
    fn each_marker_is_one_check_with_letta_labels() {
        let texts = SessionTexts { trace: TRACE, result: "Installed.", error: None };
        let checks = session_marker_checks(&scenario(), Some(texts), 2);
        let summary: Vec<_> = checks.iter().map(|c| (c.label.as_str(), c.passed, c.message.as_str())).collect();
        assert_eq!(
            summary,
            [
                ("3. required_result_marker \"Installed.\"", true, "found in the result"),
                ("4. required_trace_marker \"uv pip install\"", true, "found in trace entry 2 (tool_call)"),
                ("5. forbidden_result_marker \"Error\"", true, "absent from the result"),
                ("6. forbidden_trace_marker \"\\\"outcome\\\":\\\"denied\\\"\"", true, "absent from the trace"),
            ]
        );
    }

    #[test]
    fn missing_and_forbidden_markers_fail_and_an_early_stop_fails_all() {
        let texts = SessionTexts { trace: "{\"outcome\":\"denied\"}\n", result: "Error: no", error: None };
        let checks = session_marker_checks(&scenario(), Some(texts), 0);
        assert!(checks.iter().all(|check| !check.passed));
        assert_eq!(checks[0].message, "the result lacks it: \"Error: no\"");
        assert_eq!(checks[1].message, "not in the trace (1 entry, no tool results)");
        assert_eq!(checks[3].message, "found in trace entry 1 ()");
        let with_result = SessionTexts {
            trace: "{\"type\":\"tool_result\",\"toolName\":\"Bash\",\"status\":\"error\",\"output\":\"blocked\"}\n",
            result: "",
            error: None,
        };
        let checks = session_marker_checks(&scenario(), Some(with_result), 0);
        assert_eq!(checks[1].message, "not in the trace (1 entry); tool results: Bash error: \"blocked\"");
        let stopped = SessionTexts { trace: TRACE, result: "Installed.", error: Some("engine failed") };
        let checks = session_marker_checks(&scenario(), Some(stopped), 0);
        assert!(checks.iter().all(|check| !check.passed));
        assert_eq!(checks[0].message, "the session stopped early (engine failed), so its result is incomplete");
        assert!(session_marker_checks(&scenario(), None, 0).iter().all(|check| !check.passed));
    }
}
