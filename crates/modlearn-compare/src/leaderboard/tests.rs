use modlearn_types::RunReport;
use serde_json::json;

use super::*;
use crate::{Comparison, JobStatus, SpecEntry};

/// A run report whose candidates passed these checks (one scenario each).
fn report(candidates: &[&[bool]], cost: f64) -> RunReport {
    let attempts: Vec<_> = candidates
        .iter()
        .enumerate()
        .map(|(i, checks)| {
            let score = checks.iter().filter(|&&passed| passed).count();
            json!({
                "candidateIndex": i + 1, "candidatePath": format!("c{i}.ts"), "round": 1,
                "passed": score == checks.len(), "score": score, "maxScore": checks.len(),
                "visibleScore": score, "visibleMaxScore": checks.len(), "hiddenScore": 0, "hiddenMaxScore": 0,
                "diagnostics": [], "artifactsDir": "", "durationMs": 5,
                "scenarios": [{
                    "name": "s", "dirName": "001-s", "hidden": false, "score": score, "maxScore": checks.len(),
                    "passed": score == checks.len(),
                    "checks": checks.iter().enumerate().map(|(n, passed)| json!({
                        "label": format!("{n}. check"), "type": "mod_loads", "passed": passed, "message": "", "details": null
                    })).collect::<Vec<_>>()
                }]
            })
        })
        .collect();
    let best = candidates.iter().map(|checks| checks.iter().filter(|&&p| p).count()).max().unwrap_or(0);
    let max = candidates.first().map_or(0, |checks| checks.len());
    serde_json::from_value(json!({
        "kind": "modlearn_run_report", "version": 1,
        "spec": {"name": "x", "slug": "x", "path": "x.json", "scenarios": 1},
        "passed": best == max, "score": best, "maxScore": max, "attempts": attempts,
        "learning": {"model": "m", "roundsPlanned": 1, "roundsRun": 1, "candidatesPerRound": candidates.len(), "stopped": "rounds complete",
            "usage": {"proposals": candidates.len(), "inputTokens": 100, "outputTokens": 10, "costUsd": cost, "latencyMs": 40}, "perRound": []}
    }))
    .unwrap()
}

fn comparison(repeat: usize) -> Comparison {
    Comparison {
        specs: vec![SpecEntry { path: "x.json".into(), name: "x".into(), slug: "x".into(), sha256: String::new() }],
        models: vec!["openai:weak".into(), "openai:strong".into()],
        candidates: 2,
        rounds: 1,
        repeat,
        max_tokens: 100,
        temperature: 0.0,
        proposer: crate::ProposerChoice::Completion,
        agent_steps: None,
        eval_model: None,
    }
}

fn outcome(model: usize, repeat: usize, report: Option<RunReport>) -> JobOutcome {
    let status = if report.is_some() { JobStatus::Finished } else { JobStatus::NotRun };
    JobOutcome { job: Job { model, spec: 0, repeat }, status, report, reason: None, resumed: false }
}

#[test]
fn ranks_best_first_and_calls_a_real_difference() {
    let good: &[bool] = &[true, true, true, true];
    let bad: &[bool] = &[true, false, false, true];
    let mut outcomes = Vec::new();
    for repeat in 1..=3 {
        outcomes.push(outcome(0, repeat, Some(report(&[bad, good], 0.02))));
        outcomes.push(outcome(1, repeat, Some(report(&[good, good], 0.01))));
    }
    let board = build_leaderboard(&comparison(3), &outcomes);
    assert_eq!(board.models[0].model, "openai:strong");
    assert_eq!(board.models[0].rank, 1);
    assert_eq!(board.models[1].first_pass_rate, 0.0);
    // pass@1 = c/n = 1/2 per job; pass@2 = 1.
    assert_eq!(board.models[1].pass_at_k, vec![0.5, 1.0]);
    assert_eq!(board.models[1].cost_per_passing_mod, Some(0.02));
    let pair = &board.pairs[0];
    assert_eq!((pair.first_only, pair.second_only, pair.both_pass), (6, 0, 6));
    assert!((pair.mcnemar_p - 0.03125).abs() < 1e-9);
    assert!(pair.significant);
    assert_eq!(pair.verdict, "openai:strong better than openai:weak, p=0.0312");
    let difference = pair.difference.unwrap();
    assert_eq!((difference.estimate, difference.low, difference.high), (0.5, 0.5, 0.5));
    assert_eq!(board.timings.models[0].mean_latency_ms, 20.0);
}

#[test]
fn too_few_discordant_items_are_no_significant_difference() {
    let good: &[bool] = &[true, true];
    let one_off: &[bool] = &[true, false];
    let outcomes = vec![outcome(0, 1, Some(report(&[one_off], 0.0))), outcome(1, 1, Some(report(&[good], 0.0)))];
    let board = build_leaderboard(&comparison(1), &outcomes);
    let pair = &board.pairs[0];
    assert!(!pair.significant);
    assert_eq!(pair.verdict, "no significant difference, p=1.0000");
    assert!(pair.difference.is_none(), "one cluster gives no interval");
}

#[test]
fn unfinished_jobs_are_listed_and_left_out() {
    let good: &[bool] = &[true];
    let outcomes = vec![outcome(0, 1, None), outcome(1, 1, Some(report(&[good], 0.0)))];
    let board = build_leaderboard(&comparison(1), &outcomes);
    assert_eq!(board.jobs.finished, 1);
    assert_eq!(board.jobs.not_run, vec!["runs/openai-weak/x/r1".to_owned()]);
    assert_eq!(board.models[1].jobs, 0);
    assert_eq!(board.pairs[0].items, 0);
}

#[test]
fn input_order_does_not_change_the_result() {
    let a: &[bool] = &[true, false];
    let b: &[bool] = &[true, true];
    let mut outcomes: Vec<JobOutcome> =
        (1..=2).flat_map(|r| [outcome(0, r, Some(report(&[a, b], 0.1))), outcome(1, r, Some(report(&[b], 0.3)))]).collect();
    let forward = build_leaderboard(&comparison(2), &outcomes);
    outcomes.reverse();
    assert_eq!(build_leaderboard(&comparison(2), &outcomes), forward);
}

#[test]
fn eval_model_cost_counts_in_the_models_cost() {
    let mut with_eval = report(&[&[true], &[false]], 0.25);
    with_eval.attempts[0].eval =
        Some(modlearn_types::EvalUsage { model: "openai:judge".into(), sessions: 1, turns: 2, cost_usd: 0.5, ..Default::default() });
    with_eval.attempts[1].eval =
        Some(modlearn_types::EvalUsage { model: "openai:judge".into(), sessions: 1, turns: 1, cost_usd: 0.25, ..Default::default() });
    let plain = report(&[&[true], &[false]], 0.25);
    let board = build_leaderboard(&comparison(1), &[outcome(0, 1, Some(with_eval)), outcome(1, 1, Some(plain))]);
    let row = |model: &str| board.models.iter().find(|row| row.model == model).unwrap().clone();
    assert_eq!(row("openai:weak").cost_usd, 1.0);
    assert_eq!(row("openai:weak").cost_per_passing_mod, Some(1.0));
    assert_eq!(row("openai:strong").cost_usd, 0.25);
}

/// Issue 11: "no significant difference, p=0.1250" beside an interval that
/// excludes zero read as two verdicts. McNemar's test decides; the verdict
/// says what the interval means when it reads otherwise.
#[test]
fn the_interval_never_contradicts_the_verdict() {
    let good: &[bool] = &[true, true, true, true];
    let one_off: &[bool] = &[true, true, true, false];
    let outcomes: Vec<JobOutcome> =
        (1..=4).flat_map(|r| [outcome(0, r, Some(report(&[one_off], 0.0))), outcome(1, r, Some(report(&[good], 0.0)))]).collect();
    let board = build_leaderboard(&comparison(4), &outcomes);
    let pair = &board.pairs[0];
    assert_eq!((pair.first_only, pair.second_only), (4, 0));
    assert!(!pair.significant);
    let difference = pair.difference.unwrap();
    assert!(difference.low > 0.0, "{difference:?}");
    assert_eq!(
        pair.verdict,
        "no significant difference, p=0.1250 (the interval excludes 0, but McNemar's test decides: 4 discordant checks in 4 (spec, repeat) clusters are too few)"
    );
}

/// A job whose proposals could not be obtained counts nowhere, and is named with its reason.
#[test]
fn failed_jobs_are_listed_with_the_reason_and_left_out() {
    let good: &[bool] = &[true];
    let failed = JobOutcome {
        job: Job { model: 0, spec: 0, repeat: 1 },
        status: JobStatus::Failed,
        report: None,
        reason: Some("candidate 001: no answer from the model: connection refused".into()),
        resumed: false,
    };
    let board = build_leaderboard(&comparison(1), &[failed, outcome(1, 1, Some(report(&[good], 0.0)))]);
    assert_eq!(board.jobs.finished, 1);
    assert!(board.jobs.not_run.is_empty(), "{:?}", board.jobs.not_run);
    assert_eq!(
        board.jobs.failed,
        vec![FailedJob {
            model: "openai:weak".into(),
            spec: "x".into(),
            dir: "runs/openai-weak/x/r1".into(),
            reason: "candidate 001: no answer from the model: connection refused".into()
        }]
    );
    assert_eq!(board.models[1].jobs, 0, "no numbers from a failed job");
}
