//! `modlearn merge`: check that shard directories make one whole
//! comparison, then write its leaderboard. Also the summary `compare`
//! prints.

use std::path::Path;

use modlearn_compare::{JobOutcome, JobStatus, Leaderboard, build_leaderboard, load_shards, write_leaderboard};

use crate::cli::MergeArgs;
use crate::exit::CliError;

pub fn run(args: MergeArgs) -> Result<u8, CliError> {
    let (comparison, outcomes) = load_shards(&args.dirs)?;
    let out = match args.out.clone() {
        Some(out) => out,
        None => super::default_run_dir("compare-merged")?,
    };
    let leaderboard = build_leaderboard(&comparison, &outcomes);
    write_leaderboard(&out, &leaderboard)?;
    print(&leaderboard, &out, args.json);
    Ok(exit_code(&outcomes))
}

/// 0 when every job finished; 3 when a job failed for want of proposals (it says nothing about
/// the model, so the leaderboard lacks evidence); else 1 when the budget left jobs not run.
pub(super) fn exit_code(outcomes: &[JobOutcome]) -> u8 {
    if outcomes.iter().any(|outcome| outcome.status == JobStatus::Failed) {
        crate::exit::NOT_JUDGED
    } else if outcomes.iter().any(|outcome| outcome.status == JobStatus::NotRun) {
        crate::exit::FAILURE
    } else {
        crate::exit::SUCCESS
    }
}

/// The ranking and the paired verdicts (or the JSON), then where the files are.
pub(super) fn print(leaderboard: &Leaderboard, out: &Path, json: bool) {
    if json {
        println!("{}", serde_json::to_string_pretty(leaderboard).expect("leaderboard serializes"));
        return;
    }
    let k = leaderboard.k.last().copied().unwrap_or(1);
    let width = leaderboard.models.iter().map(|row| row.model.len()).max().unwrap_or(0);
    for row in &leaderboard.models {
        if row.jobs == 0 {
            // No evidence is not 0%: a model without a finished job is not ranked by numbers.
            println!("{}. {:width$}  no finished job: nothing to rank it by", row.rank, row.model);
            continue;
        }
        let at_k = row.pass_at_k.last().copied().unwrap_or(0.0);
        let cost = row.cost_per_passing_mod.map_or_else(|| "n/a".to_owned(), |usd| format!("${usd:.4}"));
        println!(
            "{}. {:width$}  first candidate passes {:>6}  pass@{k} {:>6}  mean best score {:.3}  cost per passing mod {cost}",
            row.rank,
            row.model,
            percent(row.first_pass_rate),
            percent(at_k),
            row.mean_best_score,
        );
    }
    for pair in &leaderboard.pairs {
        println!("{} vs {}: {}", pair.first, pair.second, pair.verdict);
    }
    if !leaderboard.jobs.not_run.is_empty() {
        println!("not run (budget spent): {}", leaderboard.jobs.not_run.join(", "));
    }
    for failed in &leaderboard.jobs.failed {
        println!(
            "failed (its proposals could not be obtained; left out of every number, runs again with the same --out): {}: {}",
            failed.dir,
            crate::printer::terminal_safe(&failed.reason)
        );
    }
    println!("leaderboard: {} (also .json, .html, .junit.xml)", out.join("leaderboard.md").display());
}

fn percent(rate: f64) -> String {
    format!("{:.1}%", rate * 100.0)
}
