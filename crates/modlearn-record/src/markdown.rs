//! `report.md`: the run at a glance, then every failed check with what was
//! expected against what happened, and the diagnostics behind it.

use std::fmt::Write;

use modlearn_types::untrusted::{md_cell, md_code, md_fence};
use modlearn_types::{Attempt, CheckResult, Diagnostic, RunReport};
use serde_json::Value;

/// The run-level `report.md`.
pub fn render_run_report(report: &RunReport) -> String {
    let mut out = String::new();
    let verdict = if report.passed { "PASS" } else { "FAIL" };
    let _ = writeln!(out, "# modlearn report: {}\n", report.spec.name);
    let _ = writeln!(out, "- Result: **{verdict}** ({}/{})", report.score, report.max_score);
    let _ = writeln!(out, "- Spec: `{}` ({} scenarios)", report.spec.path, report.spec.scenarios);
    if !report.spec.host.is_empty() {
        let _ = writeln!(out, "- Judged against: {}", report.spec.host);
    }
    match &report.selected {
        Some(selected) => {
            let _ = writeln!(out, "- Selected: candidate {} `{}`", selected.candidate_index, selected.candidate_path);
        }
        None => out.push_str("- Selected: none\n"),
    }
    if let Some(promoted) = &report.promoted_to {
        let _ = writeln!(out, "- Promoted to: `{promoted}`");
    }
    let _ = writeln!(out, "- Candidates: {}", report.attempts.len());
    render_eval_total(&mut out, &report.attempts);
    if let Some(learning) = &report.learning {
        let usage = &learning.usage;
        let _ = writeln!(
            out,
            "- Model: `{}`; rounds {} of {} ({} per round); stopped: {}",
            learning.model, learning.rounds_run, learning.rounds_planned, learning.candidates_per_round, learning.stopped
        );
        let _ = writeln!(
            out,
            "- Usage: {} proposal(s), {} tokens in, {} out, ${:.4}, {} ms of model time",
            usage.proposals, usage.input_tokens, usage.output_tokens, usage.cost_usd, usage.latency_ms
        );
        out.push_str("\n| Round | Proposals | Tokens in | Tokens out | Cost | Model time |\n|---|---|---|---|---|---|\n");
        for (round, totals) in learning.per_round.iter().enumerate() {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | ${:.4} | {} ms |",
                round + 1,
                totals.proposals,
                totals.input_tokens,
                totals.output_tokens,
                totals.cost_usd,
                totals.latency_ms
            );
        }
    }
    out.push_str("\n## Candidates\n\n");
    out.push_str("| # | Candidate | Result | Score | Visible | Hidden | Diagnostics |\n");
    out.push_str("|---|---|---|---|---|---|---|\n");
    for attempt in &report.attempts {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {}/{} | {}/{} | {}/{} | {} |",
            attempt.candidate_index,
            md_cell(&attempt.candidate_path),
            result(attempt),
            attempt.score,
            attempt.max_score,
            attempt.visible_score,
            attempt.visible_max_score,
            attempt.hidden_score,
            attempt.hidden_max_score,
            diagnostic_summary(&attempt.diagnostics),
        );
    }
    for attempt in &report.attempts {
        out.push('\n');
        render_attempt(&mut out, attempt, "##");
    }
    out
}

/// The eval model's spending over all candidates, apart from the proposals'.
fn render_eval_total(out: &mut String, attempts: &[Attempt]) {
    let evals: Vec<_> = attempts.iter().filter_map(|attempt| attempt.eval.as_ref()).collect();
    let Some(first) = evals.first() else { return };
    let sum = |field: fn(&modlearn_types::EvalUsage) -> u64| evals.iter().map(|eval| field(eval)).sum::<u64>();
    let cost: f64 = evals.iter().map(|eval| eval.cost_usd).sum();
    let _ = writeln!(
        out,
        "- Eval model: `{}` (the agent of prompt scenarios): {} session(s), {} turn(s), {} tokens in, {} out, ${cost:.4} (eval cost, apart from proposals)",
        first.model,
        sum(|eval| eval.sessions as u64),
        sum(|eval| eval.turns as u64),
        sum(|eval| eval.input_tokens),
        sum(|eval| eval.output_tokens),
    );
}

/// A single candidate's `report.md`.
pub fn render_candidate_report(spec_name: &str, attempt: &Attempt) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# modlearn report: {spec_name}\n");
    render_attempt(&mut out, attempt, "##");
    out
}

fn render_attempt(out: &mut String, attempt: &Attempt, heading: &str) {
    let verdict = if attempt.passed { "PASS" } else { "FAIL" };
    let _ = writeln!(
        out,
        "{heading} Candidate {}: `{}`: {verdict} {}/{}\n",
        attempt.candidate_index, attempt.candidate_path, attempt.score, attempt.max_score
    );
    if let Some(proposal) = &attempt.proposal {
        let _ = writeln!(
            out,
            "Proposed by `{}` in round {}: {} tokens in, {} out, ${:.4}, {} ms, {} HTTP attempt(s){}\n",
            proposal.model,
            attempt.round,
            proposal.input_tokens,
            proposal.output_tokens,
            proposal.cost_usd,
            proposal.latency_ms,
            proposal.http_attempts,
            if proposal.cached { " (from the response cache)" } else { "" }
        );
    }
    if let Some(eval) = &attempt.eval {
        let _ = writeln!(
            out,
            "Prompt scenarios run by `{}`: {} session(s), {} turn(s) ({} from the response cache), {} tokens in, {} out, ${:.4}\n",
            eval.model, eval.sessions, eval.turns, eval.cached_turns, eval.input_tokens, eval.output_tokens, eval.cost_usd
        );
    }
    // Messages, values and diagnostics carry the mod's (or a server's) text: quoted, so they
    // cannot forge headings, HTML or images in what the next proposer reads.
    if let Some(error) = &attempt.error {
        let _ = writeln!(out, "Not evaluated: {}\n", md_code(error));
    }
    out.push_str("| Scenario | Result | Score |\n|---|---|---|\n");
    for scenario in &attempt.scenarios {
        let hidden = if scenario.hidden { " (hidden)" } else { "" };
        let _ = writeln!(
            out,
            "| `{}`{hidden} | {} | {}/{} |",
            scenario.name,
            if scenario.passed { "PASS" } else { "FAIL" },
            scenario.score,
            scenario.max_score
        );
    }
    crate::world_md::render_world(out, &attempt.scenarios, heading);
    let failed: Vec<(&str, &CheckResult)> = attempt
        .scenarios
        .iter()
        .flat_map(|scenario| scenario.checks.iter().filter(|c| c.failed()).map(move |c| (scenario.name.as_str(), c)))
        .collect();
    if !failed.is_empty() {
        let _ = writeln!(out, "\n{heading}# Failed checks\n");
        for (scenario, check) in failed {
            let _ = writeln!(out, "- **{scenario}: {}**: {}", check.label, md_code(&check.message));
            render_evidence(out, check);
        }
    }
    if !attempt.diagnostics.is_empty() {
        let _ = writeln!(out, "\n{heading}# Diagnostics\n");
        for diagnostic in &attempt.diagnostics {
            render_diagnostic(out, diagnostic);
        }
    }
}

fn render_evidence(out: &mut String, check: &CheckResult) {
    let details = &check.details;
    match check.kind.as_str() {
        "tool_start_rewrites_args" | "tool_start_preserves_args" => {
            if let (Some(expected), Some(actual)) = (details.get("expectArgs"), details.get("actualArgs")) {
                out.push_str("\n  expected (-) against actual (+) args:\n\n");
                out.push_str(&md_fence(&args_diff(expected, actual).join("\n"), "diff", "  "));
                out.push('\n');
            }
        }
        "turn_start_injects_message" => {
            let text = details.get("injectedText").and_then(Value::as_str).unwrap_or("");
            let role = details.get("role").and_then(Value::as_str).unwrap_or("system");
            let contains = details.get("contains").cloned().unwrap_or(Value::Null);
            let _ = writeln!(out, "  - expected: appended {} message(s) containing {}", md_code(role), md_code(&contains.to_string()));
            if text.is_empty() {
                let appended = details.get("appended").cloned().unwrap_or(Value::Null);
                let _ = writeln!(out, "  - actual: no `{role}` text appended; appended items: {}", md_code(&appended.to_string()));
            } else {
                out.push_str("  - actual injected text:\n\n");
                out.push_str(&md_fence(text, "text", "    "));
            }
        }
        _ => {}
    }
}

/// Expected and actual args as diff lines (`-` expected, `+` actual), keys
/// in expected order, then keys only the actual args have.
fn args_diff(expected: &Value, actual: &Value) -> Vec<String> {
    let empty = serde_json::Map::new();
    let expected = expected.as_object().unwrap_or(&empty);
    let Some(actual) = actual.as_object() else {
        return vec![format!("- {}", Value::Object(expected.clone())), format!("+ {actual}")];
    };
    let mut lines = Vec::new();
    for (key, want) in expected {
        match actual.get(key) {
            Some(got) if got == want => lines.push(format!("  {key}: {want}")),
            Some(got) => {
                lines.push(format!("- {key}: {want}"));
                lines.push(format!("+ {key}: {got}"));
            }
            None => lines.push(format!("- {key}: {want}")),
        }
    }
    for (key, got) in actual {
        if !expected.contains_key(key) {
            lines.push(format!("+ {key}: {got}"));
        }
    }
    lines
}

fn render_diagnostic(out: &mut String, diagnostic: &Diagnostic) {
    let capability = diagnostic.capability.as_ref().map(|c| format!(" {} {}", c.kind, md_code(&c.id))).unwrap_or_default();
    let severity = match diagnostic.severity {
        modlearn_types::Severity::Error => "error",
        modlearn_types::Severity::Warning => "warning",
    };
    let _ = writeln!(
        out,
        "- {severity} [{}{capability}] {}: {}: {}",
        diagnostic.phase,
        diagnostic.fault.as_str(),
        md_code(&diagnostic.error_name),
        md_code(&diagnostic.message)
    );
    if let Some(hint) = &diagnostic.hint {
        let _ = writeln!(out, "  - hint: {}", md_code(hint));
    }
}

/// `ERROR` for a candidate that could not be judged (no answer, no code), as on the terminal.
fn result(attempt: &Attempt) -> &'static str {
    attempt.result_word()
}

fn diagnostic_summary(diagnostics: &[Diagnostic]) -> String {
    if diagnostics.is_empty() {
        return "none".to_owned();
    }
    let mut kinds: Vec<String> = diagnostics.iter().map(|d| format!("{}/{}", d.phase, d.fault.as_str())).collect();
    kinds.dedup();
    kinds.join(", ")
}
