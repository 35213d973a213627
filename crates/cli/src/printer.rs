//! Terminal output: the progress bar (only on a terminal) and the summary table.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};
use modlearn_types::RunReport;
use tabled::settings::Style;
use tabled::{Table, Tabled};

/// A progress bar on stderr when it is a terminal; hidden otherwise.
pub fn progress(total: usize, message: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total as u64);
    bar.set_style(
        ProgressStyle::with_template("{spinner} {msg} [{bar:30}] {pos}/{len} {elapsed}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    bar.set_message(message.to_owned());
    bar
}

#[derive(Tabled)]
struct ProposedRow {
    #[tabled(rename = "#")]
    index: String,
    #[tabled(rename = "round")]
    round: u32,
    #[tabled(rename = "candidate")]
    candidate: String,
    #[tabled(rename = "result")]
    result: &'static str,
    #[tabled(rename = "score")]
    score: String,
    #[tabled(rename = "tokens in/out")]
    tokens: String,
    #[tabled(rename = "cost")]
    cost: String,
    #[tabled(rename = "diagnostics")]
    diagnostics: String,
}

#[derive(Tabled)]
struct Row {
    #[tabled(rename = "#")]
    index: String,
    #[tabled(rename = "candidate")]
    candidate: String,
    #[tabled(rename = "result")]
    result: &'static str,
    #[tabled(rename = "score")]
    score: String,
    #[tabled(rename = "hidden")]
    hidden: String,
    #[tabled(rename = "diagnostics")]
    diagnostics: String,
}

/// The summary table of a run, then the selection and where the report is.
pub fn summary(report: &RunReport, report_path: &str) -> String {
    let selected = report.selected.as_ref().map(|s| s.candidate_index);
    let marker = |index: usize| if Some(index) == selected { format!("*{index}") } else { index.to_string() };
    let result = |attempt: &modlearn_types::Attempt| {
        if attempt.error.is_some() {
            "ERROR"
        } else if attempt.passed {
            "PASS"
        } else {
            "FAIL"
        }
    };
    let faults = |attempt: &modlearn_types::Attempt| {
        // A candidate that was not judged has no diagnostics: say why instead.
        if let Some(error) = &attempt.error {
            return shorten(&terminal_safe(error), 60);
        }
        let mut faults: Vec<String> = attempt.diagnostics.iter().map(|d| format!("{}/{}", d.phase, d.fault.as_str())).collect();
        faults.dedup();
        if faults.is_empty() { "-".to_owned() } else { faults.join(", ") }
    };
    let mut table = if report.learning.is_some() {
        Table::new(report.attempts.iter().map(|attempt| {
            let proposal = attempt.proposal.as_ref();
            ProposedRow {
                index: marker(attempt.candidate_index),
                round: attempt.round,
                candidate: terminal_safe(&attempt.candidate_path),
                result: result(attempt),
                score: format!("{}/{}", attempt.score, attempt.max_score),
                tokens: proposal.map_or("-".to_owned(), |p| format!("{}/{}", p.input_tokens, p.output_tokens)),
                cost: proposal.map_or("-".to_owned(), |p| format!("${:.4}", p.cost_usd)),
                diagnostics: faults(attempt),
            }
        }))
    } else {
        Table::new(report.attempts.iter().map(|attempt| Row {
            index: marker(attempt.candidate_index),
            candidate: terminal_safe(&attempt.candidate_path),
            result: result(attempt),
            score: format!("{}/{}", attempt.score, attempt.max_score),
            hidden: if attempt.hidden_max_score == 0 {
                "-".to_owned()
            } else {
                format!("{}/{}", attempt.hidden_score, attempt.hidden_max_score)
            },
            diagnostics: faults(attempt),
        }))
    };
    table.with(Style::sharp());
    let mut out = format!("{table}\n");
    if let Some(learning) = &report.learning {
        let usage = &learning.usage;
        out.push_str(&format!(
            "model: {}; rounds: {} of {}; stopped: {}; {} proposal(s), {} tokens in, {} out, ${:.4}\n",
            learning.model,
            learning.rounds_run,
            learning.rounds_planned,
            learning.stopped,
            usage.proposals,
            usage.input_tokens,
            usage.output_tokens,
            usage.cost_usd
        ));
    }
    let not_judged: Vec<&modlearn_types::Attempt> = report.attempts.iter().filter(|attempt| attempt.error.is_some()).collect();
    if let Some(first) = not_judged.first() {
        out.push_str(&format!(
            "not judged: {} of {} candidate(s); candidate {}: {}\n",
            not_judged.len(),
            report.attempts.len(),
            first.candidate_index,
            terminal_safe(first.error.as_deref().unwrap_or_default())
        ));
    }
    match &report.selected {
        None if !report.attempts.is_empty() && not_judged.len() == report.attempts.len() => {
            out.push_str("selected: none (no candidate could be judged)\n")
        }
        Some(chosen) => out.push_str(&format!(
            "selected: candidate {} `{}`: {} {}/{}\n",
            chosen.candidate_index,
            terminal_safe(&chosen.candidate_path),
            if report.passed { "PASS" } else { "FAIL" },
            report.score,
            report.max_score
        )),
        None => out.push_str("selected: none\n"),
    }
    if let Some(promoted) = &report.promoted_to {
        out.push_str(&format!("promoted: `{promoted}`\n"));
    }
    out.push_str(&format!("report: {report_path}\n"));
    out
}

/// `text` without control characters (ANSI escapes, carriage returns, bells): reasons and paths
/// can carry a server's or a mod's text, which must not drive the terminal.
pub fn terminal_safe(text: &str) -> String {
    modlearn_types::untrusted::plain_text(text)
}

/// The first line of `text`, at most `max` characters (an ellipsis marks a cut).
fn shorten(text: &str, max: usize) -> String {
    let line = text.lines().next().unwrap_or_default();
    if line.chars().count() <= max && !text.contains('\n') {
        return line.to_owned();
    }
    let cut: String = line.chars().take(max.saturating_sub(1)).collect();
    format!("{cut}…")
}
