//! The leaderboard's files: `leaderboard.json`, `leaderboard.md`,
//! `leaderboard.html` (charts, no network) and `leaderboard.junit.xml`.
//! Renderers are pure; [`write_leaderboard`] writes them atomically.

use std::path::Path;

use modlearn_record::write_atomic;

use crate::{CompareError, Leaderboard};

mod html;
mod junit;
mod markdown;

pub use html::render_html;
pub use junit::render_junit;
pub use markdown::render_markdown;

/// Writes the four leaderboard files into `out`; JSON last, so its presence
/// means the others are there.
pub fn write_leaderboard(out: &Path, leaderboard: &Leaderboard) -> Result<(), CompareError> {
    write_atomic(&out.join("leaderboard.md"), render_markdown(leaderboard))?;
    write_atomic(&out.join("leaderboard.html"), render_html(leaderboard))?;
    write_atomic(&out.join("leaderboard.junit.xml"), render_junit(leaderboard))?;
    let json = format!("{}\n", serde_json::to_string_pretty(leaderboard).expect("leaderboard serializes"));
    write_atomic(&out.join("leaderboard.json"), json)?;
    Ok(())
}

/// `75%`, `33.3%`.
pub(crate) fn percent(rate: f64) -> String {
    let value = rate * 100.0;
    if (value - value.round()).abs() < 0.05 { format!("{value:.0}%") } else { format!("{value:.1}%") }
}

/// `$0.0123`, or `n/a`.
pub(crate) fn usd(value: Option<f64>) -> String {
    value.map_or_else(|| "n/a".to_owned(), |value| format!("${value:.4}"))
}

/// `+18.2 points [+18.2, +18.2]`.
pub(crate) fn difference(pair: &crate::leaderboard::PairRow) -> String {
    match pair.difference {
        Some(d) => format!("{:+.1} pts [{:+.1}, {:+.1}]", d.estimate * 100.0, d.low * 100.0, d.high * 100.0),
        None => "n/a (needs two specs or repeats)".to_owned(),
    }
}

/// What the comparison was, in one sentence.
pub(crate) fn summary(leaderboard: &Leaderboard) -> String {
    let c = &leaderboard.comparison;
    let mut text = format!(
        "{} model(s) × {} spec(s) × {} repeat(s); {} candidate(s) per round, {} round(s) at most; {}/{} jobs finished.",
        c.models.len(),
        c.specs.len(),
        c.repeat,
        c.candidates,
        c.rounds,
        leaderboard.jobs.finished,
        leaderboard.jobs.planned
    );
    if let Some(steps) = c.agent_steps.filter(|_| c.proposer == crate::ProposerChoice::Agent) {
        text.push_str(&format!(" Candidates are agent sessions of {steps} step(s) at most."));
    }
    if let Some(model) = &c.eval_model {
        text.push_str(&format!(" Prompt scenarios are run by `{model}`; its cost is counted in each model's cost."));
    }
    if !leaderboard.jobs.not_run.is_empty() {
        text.push_str(&format!(" Not run (budget spent): {}.", leaderboard.jobs.not_run.join(", ")));
    }
    for failed in &leaderboard.jobs.failed {
        text.push_str(&format!(
            " Failed, left out of every number (its proposals could not be obtained): {}: {}.",
            failed.dir, failed.reason
        ));
    }
    text
}
