//! `history.json` and `history.md`: what earlier candidates did, for the
//! next round's proposers. Hidden scenarios never appear here: scores are
//! the visible ones and failed checks come from visible scenarios only.

use std::fmt::Write;

use modlearn_types::untrusted::md_code;
use modlearn_types::{Attempt, RunReport};
use serde_json::{Value, json};

/// The history manifest (Letta's `mod_learning_history_manifest`, version 1).
pub fn history_json(report: &RunReport) -> Value {
    let attempts: Vec<Value> = report
        .attempts
        .iter()
        .map(|attempt| {
            json!({
                "candidateIndex": attempt.candidate_index,
                "round": attempt.round,
                "candidatePath": attempt.candidate_path,
                "artifactsDir": attempt.artifacts_dir,
                "passed": visible_passed(attempt),
                "score": attempt.visible_score,
                "maxScore": attempt.visible_max_score,
                "error": attempt.error,
                "failedChecks": failed_visible_checks(attempt),
                "diagnostics": attempt.visible_diagnostics.iter().map(|d| json!({
                    "phase": d.phase,
                    "fault": d.fault,
                    "severity": d.severity,
                    "message": d.message,
                    "hint": d.hint,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "kind": "mod_learning_history_manifest",
        "version": 1,
        "spec": { "name": report.spec.name, "slug": report.spec.slug },
        "attempts": attempts,
    })
}

fn visible_passed(attempt: &Attempt) -> bool {
    attempt.error.is_none() && attempt.scenarios.iter().filter(|s| !s.hidden).all(|s| s.passed)
}

fn failed_visible_checks(attempt: &Attempt) -> Vec<Value> {
    attempt
        .scenarios
        .iter()
        .filter(|scenario| !scenario.hidden)
        .flat_map(|scenario| {
            scenario.checks.iter().filter(|check| check.failed()).map(move |check| {
                json!({
                    "scenario": scenario.name,
                    "label": check.label,
                    "type": check.kind,
                    "message": check.message,
                })
            })
        })
        .collect()
}

/// `history.md`: one section per earlier candidate.
pub fn render_history(report: &RunReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Candidate history: {}\n", report.spec.name);
    if report.attempts.is_empty() {
        out.push_str("No candidates yet.\n");
    }
    for attempt in &report.attempts {
        let status = if visible_passed(attempt) { "passed" } else { "failed" };
        let _ = writeln!(
            out,
            "## Candidate {} (round {}): {status}, {}/{}\n",
            attempt.candidate_index, attempt.round, attempt.visible_score, attempt.visible_max_score
        );
        let _ = writeln!(out, "- File: `{}`", attempt.candidate_path);
        if !attempt.artifacts_dir.is_empty() {
            let _ = writeln!(out, "- Artifacts: `{}/`", attempt.artifacts_dir);
        }
        // The mod's (or a server's) text, quoted: the next proposer reads this file.
        if let Some(error) = &attempt.error {
            let _ = writeln!(out, "- Not evaluated: {}", md_code(error));
        }
        for check in failed_visible_checks(attempt) {
            let _ = writeln!(
                out,
                "- FAIL {}: {}: {}",
                check["scenario"].as_str().unwrap_or(""),
                check["label"].as_str().unwrap_or(""),
                md_code(check["message"].as_str().unwrap_or(""))
            );
        }
        for diagnostic in &attempt.visible_diagnostics {
            let _ = writeln!(out, "- diagnostic [{} {}] {}", diagnostic.phase, diagnostic.fault.as_str(), md_code(&diagnostic.message));
        }
        out.push('\n');
    }
    out
}
