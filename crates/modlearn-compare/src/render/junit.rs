//! `leaderboard.junit.xml`: one test case per model × spec, so a CI system
//! shows which model fails which spec. A case passes when every finished
//! repeat's selected candidate passes, and is skipped when none finished.

use modlearn_record::junit::{TestCase, TestSuite, TestSuites};

use super::percent;
use crate::Leaderboard;

/// Renders `leaderboard.junit.xml`.
pub fn render_junit(leaderboard: &Leaderboard) -> String {
    let mut suites = TestSuites::new("modlearn compare");
    for row in &leaderboard.models {
        let mut suite = TestSuite::new(&row.model).property("rank", &row.rank.to_string());
        for spec in &leaderboard.specs {
            let Some(cell) = spec.cells.iter().find(|cell| cell.model == row.model) else { continue };
            let case = TestCase::new(&spec.spec, &row.model);
            let passing_runs = runs_passing(leaderboard, &row.model, &spec.spec);
            let failed: Vec<&crate::leaderboard::FailedJob> =
                leaderboard.jobs.failed.iter().filter(|failed| failed.model == row.model && failed.spec == spec.spec).collect();
            suite = suite.case(if let Some(first) = failed.first() {
                // No proposals, no evidence: an error of the comparison, not the model failing the spec.
                let detail: String = failed.iter().map(|failed| format!("{}: {}\n", failed.dir, failed.reason)).collect();
                case.failure(&format!("{} job(s) failed: their proposals could not be obtained ({})", failed.len(), first.reason), &detail)
            } else if cell.jobs == 0 {
                case.skipped("not run: the budget was spent")
            } else if passing_runs == cell.jobs {
                case
            } else {
                let message = format!("{passing_runs}/{} run(s) pass", cell.jobs);
                let detail = format!(
                    "first candidate passes in {} of runs; mean best score {:.3}\n",
                    percent(cell.first_pass_rate),
                    cell.mean_best_score
                );
                case.failure(&message, &detail)
            });
        }
        suites = suites.suite(suite);
    }
    suites.to_xml()
}

/// Runs of `model` on `spec` whose selected candidate passes, from the
/// per-spec cells' data kept in the leaderboard.
fn runs_passing(leaderboard: &Leaderboard, model: &str, spec: &str) -> usize {
    leaderboard
        .specs
        .iter()
        .find(|row| row.spec == spec)
        .and_then(|row| row.cells.iter().find(|cell| cell.model == model))
        .map_or(0, |cell| (cell.run_pass_rate * cell.jobs as f64).round() as usize)
}
