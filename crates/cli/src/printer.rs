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
    let rows = report.attempts.iter().map(|attempt| {
        let mut faults: Vec<String> =
            attempt.diagnostics.iter().map(|d| format!("{}/{}", d.phase, d.fault.as_str())).collect();
        faults.dedup();
        Row {
            index: if Some(attempt.candidate_index) == selected {
                format!("*{}", attempt.candidate_index)
            } else {
                attempt.candidate_index.to_string()
            },
            candidate: attempt.candidate_path.clone(),
            result: if attempt.error.is_some() {
                "ERROR"
            } else if attempt.passed {
                "PASS"
            } else {
                "FAIL"
            },
            score: format!("{}/{}", attempt.score, attempt.max_score),
            hidden: if attempt.hidden_max_score == 0 {
                "-".to_owned()
            } else {
                format!("{}/{}", attempt.hidden_score, attempt.hidden_max_score)
            },
            diagnostics: if faults.is_empty() { "-".to_owned() } else { faults.join(", ") },
        }
    });
    let mut table = Table::new(rows);
    table.with(Style::sharp());
    let mut out = format!("{table}\n");
    match &report.selected {
        Some(chosen) => out.push_str(&format!(
            "selected: candidate {} `{}`: {} {}/{}\n",
            chosen.candidate_index,
            chosen.candidate_path,
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
