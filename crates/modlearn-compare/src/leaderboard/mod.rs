//! The leaderboard: per model, per spec and per pair of models, computed
//! from the jobs' stored run reports only, so a merge of shards gives the
//! same numbers as the unsharded comparison. Everything that measures time
//! is kept apart in [`Timings`]: it is the one part that differs between
//! two runs of the same comparison.

use std::collections::BTreeMap;

use modlearn_types::{Attempt, RunReport};

use crate::stats::{DifferenceInterval, PairedCluster, mcnemar_exact, paired_bootstrap, pass_at_k};
use crate::{Comparison, Job, JobOutcome};

mod rows;

pub use rows::{
    BootstrapSettings, Difference, FailedJob, JobCounts, Leaderboard, ModelRow, ModelTiming, PairRow, SpecCell, SpecRow, Timings,
};

/// Significance level of the paired test's verdict.
pub const ALPHA: f64 = 0.05;
/// Bootstrap resamples.
pub const RESAMPLES: usize = 2000;
/// Bootstrap seed: fixed, so the same results always give the same interval.
pub const BOOTSTRAP_SEED: u64 = 0x6d6f_646c_6561_726e;

/// What one finished job contributes.
struct JobFacts<'a> {
    job: Job,
    report: &'a RunReport,
    first: Option<&'a Attempt>,
    pass_at_k: Vec<f64>,
}

impl<'a> JobFacts<'a> {
    fn new(job: Job, report: &'a RunReport, k: &[usize]) -> JobFacts<'a> {
        // The lowest-numbered candidate judged: candidate 1, unless a perfect
        // sibling stopped the run before it was judged.
        let first = report.attempts.iter().min_by_key(|attempt| attempt.candidate_index);
        // Round 1's candidates are independent draws from one prompt; later
        // rounds see earlier evidence, so they are not part of pass@k.
        let drawn: Vec<&Attempt> = report.attempts.iter().filter(|attempt| attempt.round <= 1).collect();
        let passing = drawn.iter().filter(|attempt| attempt.passed).count();
        let pass_at_k = k.iter().map(|&k| pass_at_k(drawn.len(), passing, k)).collect();
        JobFacts { job, report, first, pass_at_k }
    }

    fn first_passes(&self) -> bool {
        self.first.is_some_and(|attempt| attempt.passed)
    }

    fn best_score(&self) -> f64 {
        ratio(self.report.score, self.report.max_score)
    }
}

fn ratio(part: usize, whole: usize) -> f64 {
    if whole == 0 { 0.0 } else { part as f64 / whole as f64 }
}

fn mean(values: impl Iterator<Item = f64>) -> f64 {
    let (sum, count) = values.fold((0.0, 0usize), |(sum, count), value| (sum + value, count + 1));
    if count == 0 { 0.0 } else { round(sum / count as f64) }
}

/// Six decimals: enough for any rate, and stable text in the JSON.
fn round(value: f64) -> f64 {
    (value * 1e6).round() / 1e6
}

/// Builds the leaderboard from job outcomes (any order; unfinished ones count as not run).
pub fn build_leaderboard(comparison: &Comparison, outcomes: &[JobOutcome]) -> Leaderboard {
    let mut k = vec![1];
    if comparison.candidates > 1 {
        k.push(comparison.candidates);
    }
    let mut sorted: Vec<&JobOutcome> = outcomes.iter().collect();
    sorted.sort_by_key(|outcome| outcome.job);
    let facts: Vec<JobFacts<'_>> =
        sorted.iter().filter_map(|outcome| outcome.report.as_ref().map(|report| JobFacts::new(outcome.job, report, &k))).collect();
    let finished: std::collections::BTreeSet<Job> = facts.iter().map(|fact| fact.job).collect();
    let failed_outcomes: Vec<&&JobOutcome> = sorted.iter().filter(|outcome| outcome.status == crate::JobStatus::Failed).collect();
    let failed: Vec<FailedJob> = failed_outcomes
        .iter()
        .map(|outcome| FailedJob {
            model: comparison.models[outcome.job.model].clone(),
            spec: comparison.specs[outcome.job.spec].slug.clone(),
            dir: comparison.job_dir(outcome.job),
            reason: outcome.reason.clone().unwrap_or_default(),
        })
        .collect();
    let not_run = comparison
        .jobs()
        .into_iter()
        .filter(|job| !finished.contains(job) && !failed_outcomes.iter().any(|outcome| outcome.job == *job))
        .map(|job| comparison.job_dir(job))
        .collect();

    let mut models: Vec<(usize, ModelRow, ModelTiming)> = (0..comparison.models.len())
        .map(|model| {
            let (row, timing) = model_row(comparison, model, facts.iter().filter(|fact| fact.job.model == model), k.len());
            (model, row, timing)
        })
        .collect();
    models.sort_by(|(_, a, _), (_, b, _)| rank_order(a, b));
    let order: Vec<usize> = models.iter().map(|(model, _, _)| *model).collect();
    let specs = (0..comparison.specs.len())
        .map(|spec| SpecRow {
            spec: comparison.specs[spec].slug.clone(),
            name: comparison.specs[spec].name.clone(),
            cells: order
                .iter()
                .map(|&model| {
                    let cell: Vec<&JobFacts<'_>> = facts.iter().filter(|f| f.job.model == model && f.job.spec == spec).collect();
                    SpecCell {
                        model: comparison.models[model].clone(),
                        jobs: cell.len(),
                        first_pass_rate: mean(cell.iter().map(|f| f64::from(u8::from(f.first_passes())))),
                        pass_at_k: (0..k.len()).map(|i| mean(cell.iter().map(|f| f.pass_at_k[i]))).collect(),
                        run_pass_rate: mean(cell.iter().map(|f| f64::from(u8::from(f.report.passed)))),
                        mean_best_score: mean(cell.iter().map(|f| f.best_score())),
                    }
                })
                .collect(),
        })
        .collect();
    let mut pairs = Vec::new();
    for (i, &first) in order.iter().enumerate() {
        for &second in &order[i + 1..] {
            pairs.push(pair_row(comparison, &facts, first, second));
        }
    }
    let (models, timings): (Vec<ModelRow>, Vec<ModelTiming>) = models
        .into_iter()
        .enumerate()
        .map(|(rank, (_, mut row, timing))| {
            row.rank = rank + 1;
            (row, timing)
        })
        .unzip();
    Leaderboard {
        kind: "modlearn_leaderboard".to_owned(),
        version: 1,
        comparison: comparison.clone(),
        jobs: JobCounts {
            planned: comparison.models.len() * comparison.specs.len() * comparison.repeat,
            finished: facts.len(),
            not_run,
            failed,
        },
        k,
        models,
        specs,
        pairs,
        bootstrap: BootstrapSettings {
            resamples: RESAMPLES,
            level: 0.95,
            seed: BOOTSTRAP_SEED,
            unit: "(spec, repeat): the checks of one first candidate".to_owned(),
        },
        timings: Timings { models: timings },
    }
}

fn model_row<'a, 'b: 'a>(
    comparison: &Comparison,
    model: usize,
    facts: impl Iterator<Item = &'a JobFacts<'b>> + Clone,
    k_count: usize,
) -> (ModelRow, ModelTiming) {
    let jobs: Vec<&JobFacts<'_>> = facts.collect();
    let attempts = || jobs.iter().flat_map(|f| f.report.attempts.iter());
    let usage = || jobs.iter().filter_map(|f| f.report.learning.as_ref().map(|learning| &learning.usage));
    let passing_candidates = attempts().filter(|attempt| attempt.passed).count();
    // The eval model's turns (prompt scenarios) are part of what a model's mods cost to judge.
    let eval_cost: f64 = attempts().filter_map(|attempt| attempt.eval.as_ref()).map(|eval| eval.cost_usd).sum();
    let cost_usd = round(usage().map(|usage| usage.cost_usd).sum::<f64>() + eval_cost);
    let proposals: usize = usage().map(|usage| usage.proposals).sum();
    let latency: u64 = usage().map(|usage| usage.latency_ms).sum();
    let candidates = attempts().count();
    let evaluation: u64 = attempts().map(|attempt| attempt.duration_ms).sum();
    let name = comparison.models[model].clone();
    let row = ModelRow {
        rank: 0,
        model: name.clone(),
        jobs: jobs.len(),
        first_pass_rate: mean(jobs.iter().map(|f| f64::from(u8::from(f.first_passes())))),
        pass_at_k: (0..k_count).map(|i| mean(jobs.iter().map(|f| f.pass_at_k[i]))).collect(),
        run_pass_rate: mean(jobs.iter().map(|f| f64::from(u8::from(f.report.passed)))),
        mean_best_score: mean(jobs.iter().map(|f| f.best_score())),
        candidates,
        passing_candidates,
        input_tokens: usage().map(|usage| usage.input_tokens).sum(),
        output_tokens: usage().map(|usage| usage.output_tokens).sum(),
        cost_usd,
        cost_per_passing_mod: (passing_candidates > 0).then(|| round(cost_usd / passing_candidates as f64)),
    };
    let timing = ModelTiming {
        model: name,
        mean_latency_ms: if proposals == 0 { 0.0 } else { round(latency as f64 / proposals as f64) },
        mean_evaluation_ms: if candidates == 0 { 0.0 } else { round(evaluation as f64 / candidates as f64) },
    };
    (row, timing)
}

/// Best first: first-candidate pass rate, then pass@k at the largest k,
/// then mean best score, then cheaper per passing mod, then name.
fn rank_order(a: &ModelRow, b: &ModelRow) -> std::cmp::Ordering {
    let last = |row: &ModelRow| row.pass_at_k.last().copied().unwrap_or(0.0);
    b.first_pass_rate
        .total_cmp(&a.first_pass_rate)
        .then(last(b).total_cmp(&last(a)))
        .then(b.mean_best_score.total_cmp(&a.mean_best_score))
        .then(match (a.cost_per_passing_mod, b.cost_per_passing_mod) {
            (Some(x), Some(y)) => x.total_cmp(&y),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => std::cmp::Ordering::Equal,
        })
        .then(a.model.cmp(&b.model))
}

/// The check outcomes of a job's first candidate, keyed by scenario and label.
fn first_checks(fact: &JobFacts<'_>) -> BTreeMap<(String, String), bool> {
    let mut checks = BTreeMap::new();
    if let Some(first) = fact.first {
        for scenario in &first.scenarios {
            for check in &scenario.checks {
                checks.insert((scenario.dir_name.clone(), check.label.clone()), check.passed);
            }
        }
    }
    checks
}

fn pair_row(comparison: &Comparison, facts: &[JobFacts<'_>], first: usize, second: usize) -> PairRow {
    let (mut both, mut first_only, mut second_only, mut neither) = (0, 0, 0, 0);
    let mut clusters = Vec::new();
    for a in facts.iter().filter(|f| f.job.model == first) {
        let Some(b) = facts.iter().find(|f| f.job.model == second && f.job.spec == a.job.spec && f.job.repeat == a.job.repeat) else {
            continue;
        };
        let (checks_a, checks_b) = (first_checks(a), first_checks(b));
        let mut cluster = PairedCluster { first: 0, second: 0, items: 0 };
        for (key, &pass_a) in &checks_a {
            let Some(&pass_b) = checks_b.get(key) else { continue };
            cluster.items += 1;
            cluster.first += usize::from(pass_a);
            cluster.second += usize::from(pass_b);
            match (pass_a, pass_b) {
                (true, true) => both += 1,
                (true, false) => first_only += 1,
                (false, true) => second_only += 1,
                (false, false) => neither += 1,
            }
        }
        clusters.push(cluster);
    }
    let p = round(mcnemar_exact(first_only, second_only));
    let difference = paired_bootstrap(&clusters, RESAMPLES, 0.95, BOOTSTRAP_SEED)
        .map(|DifferenceInterval { estimate, low, high }| Difference { estimate: round(estimate), low: round(low), high: round(high) });
    let (name_a, name_b) = (&comparison.models[first], &comparison.models[second]);
    let significant = p < ALPHA && first_only != second_only;
    let verdict = verdict(name_a, name_b, first_only, second_only, p, significant, difference.as_ref(), clusters.len());
    PairRow {
        first: name_a.clone(),
        second: name_b.clone(),
        items: both + first_only + second_only + neither,
        both_pass: both,
        first_only,
        second_only,
        neither_pass: neither,
        mcnemar_p: p,
        difference,
        significant,
        verdict,
    }
}

/// The verdict of a pair. McNemar's exact test is the one primary test: it alone decides. The
/// bootstrap interval only says how large the difference is; where it would read otherwise (it
/// excludes 0 without a significant test, or spans 0 with one) the verdict says so, so the two
/// never seem to conclude different things.
#[allow(clippy::too_many_arguments, reason = "one pair's counts and tests, named at the call")]
fn verdict(
    name_a: &str,
    name_b: &str,
    first_only: usize,
    second_only: usize,
    p: f64,
    significant: bool,
    difference: Option<&Difference>,
    clusters: usize,
) -> String {
    let excludes_zero = difference.is_some_and(|d| d.low > 0.0 || d.high < 0.0);
    if clusters == 0 {
        return "nothing to compare: no (spec, repeat) where both models finished".to_owned();
    }
    if significant {
        let (better, worse) = if first_only > second_only { (name_a, name_b) } else { (name_b, name_a) };
        let mut verdict = format!("{better} better than {worse}, {}", format_p(p));
        if difference.is_some() && !excludes_zero {
            verdict.push_str(" (the interval spans 0: the difference varies between specs and repeats)");
        }
        verdict
    } else {
        let mut verdict = format!("no significant difference, {}", format_p(p));
        if excludes_zero {
            verdict.push_str(&format!(
                " (the interval excludes 0, but McNemar's test decides: {} discordant checks in {clusters} (spec, repeat) clusters are too few)",
                first_only + second_only
            ));
        }
        verdict
    }
}

/// `p=0.0313`, or `p<0.0001`.
pub fn format_p(p: f64) -> String {
    if p < 0.0001 { "p<0.0001".to_owned() } else { format!("p={p:.4}") }
}

#[cfg(test)]
mod tests;
