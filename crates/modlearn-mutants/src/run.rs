//! Evaluates every mutant against a spec with the real evaluator and says which survive.

use std::path::PathBuf;

use modlearn_runner::{EvalSettings, evaluate_source_with, runs_session};
use modlearn_spec::{ModLearningSpec, ResolvedScenario};
use serde::Serialize;

use crate::catalog::Mutant;
use crate::coverage::{RequirementCoverage, coverage};
use crate::data::MutantData;

/// How every mutant fared against a spec, and what the spec's assertions cover.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MutantReport {
    /// One entry per mutant, in [`Mutant::ALL`] order.
    pub mutants: Vec<MutantOutcome>,
    /// Every requirement with the assertions that check it.
    pub coverage: Vec<RequirementCoverage>,
    /// Numbers of the requirements no assertion checks.
    pub uncovered: Vec<usize>,
    /// Where the reminder text of `only-reminder` and `never-disposes` came from.
    pub reminder_source: String,
    /// Where the args of `rewrite-everything` came from.
    pub rewrite_source: String,
}

impl MutantReport {
    /// The mutants that passed every check that ran.
    pub fn survivors(&self) -> impl Iterator<Item = &MutantOutcome> {
        self.mutants.iter().filter(|outcome| outcome.survived)
    }

    /// Whether the spec's prompt scenarios ran (an eval model acted as their agent).
    pub fn prompt_markers_ran(&self) -> bool {
        self.mutants.iter().all(|outcome| outcome.not_run.is_empty())
    }
}

/// One mutant's result.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MutantOutcome {
    /// The mutant.
    pub mutant: Mutant,
    /// What it does wrong.
    pub description: String,
    /// It passed every check that ran, hidden scenarios included. Marker checks of prompt
    /// scenarios run without an eval model fail as not run; they are listed in `not_run` and
    /// kill nothing.
    pub survived: bool,
    /// Passed checks.
    pub score: usize,
    /// All checks.
    pub max_score: usize,
    /// Passed checks in hidden scenarios.
    pub hidden_score: usize,
    /// Checks in hidden scenarios.
    pub hidden_max_score: usize,
    /// The checks it failed that ran.
    pub killed_by: Vec<KillingCheck>,
    /// The checks that failed only because they never ran (prompt markers without an eval
    /// model): they say nothing about the mutant.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_run: Vec<KillingCheck>,
    /// For a survivor: what the spec fails to check.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    /// For a survivor: what kind of check would catch it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kill_hint: Option<String>,
}

/// A check a mutant failed.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KillingCheck {
    /// The scenario.
    pub scenario: String,
    /// Whether the scenario is hidden.
    pub hidden: bool,
    /// Letta's check label.
    pub label: String,
    /// Why it failed.
    pub message: String,
}

/// Renders every mutant with data from `spec`, evaluates each in its own engine as
/// `modlearn eval` would (`settings`), and adds the coverage table.
pub fn run_mutants(spec: &ModLearningSpec, scenarios: &[ResolvedScenario], settings: &EvalSettings) -> MutantReport {
    let data = MutantData::from_spec(spec, scenarios);
    let jobs = settings.jobs.max(1);
    let mut mutants = Vec::with_capacity(Mutant::ALL.len());
    // Each engine lives on the thread that made it; `jobs` mutants are judged at once.
    for chunk in Mutant::ALL.chunks(jobs) {
        std::thread::scope(|scope| {
            let handles: Vec<_> = chunk
                .iter()
                .map(|&mutant| {
                    let data = &data;
                    scope.spawn(move || evaluate_mutant(mutant, data, scenarios, settings))
                })
                .collect();
            mutants.extend(handles.into_iter().map(|handle| handle.join().expect("a mutant's evaluation does not panic")));
        });
    }
    let coverage = coverage(spec);
    let uncovered = coverage.iter().filter(|row| row.covered_by.is_empty()).map(|row| row.number).collect();
    MutantReport {
        mutants,
        coverage,
        uncovered,
        reminder_source: data.reminder.source.clone(),
        rewrite_source: data.rewrite.source.clone(),
    }
}

fn evaluate_mutant(mutant: Mutant, data: &MutantData, scenarios: &[ResolvedScenario], settings: &EvalSettings) -> MutantOutcome {
    let path = PathBuf::from(format!("mutants/{}.js", mutant.name()));
    let evaluation = evaluate_source_with(
        0,
        &path,
        mutant.render(data, scenarios.first().map(|scenario| scenario.dialect).unwrap_or_default()),
        scenarios,
        &settings.engine,
        settings.eval_model.as_ref(),
    );
    let verdict = &evaluation.verdict;
    let (mut killed_by, mut not_run) = (Vec::new(), Vec::new());
    for (resolved, scenario) in scenarios.iter().zip(&verdict.scenarios) {
        // Without a session a scenario's markers were never judged; failing them is no kill.
        let unjudged_markers = evaluation.error.is_none() && !runs_session(resolved, settings.eval_model.is_some());
        for check in scenario.checks.iter().filter(|check| check.failed()) {
            let failed = KillingCheck {
                scenario: scenario.name.clone(),
                hidden: scenario.hidden,
                label: check.label.clone(),
                message: check.message.clone(),
            };
            if unjudged_markers && check.kind.ends_with("_marker") {
                not_run.push(failed);
            } else {
                killed_by.push(failed);
            }
        }
    }
    let survived = killed_by.is_empty() && evaluation.error.is_none();
    MutantOutcome {
        mutant,
        description: mutant.description().to_owned(),
        survived,
        score: verdict.score,
        max_score: verdict.max_score,
        hidden_score: verdict.hidden_score,
        hidden_max_score: verdict.hidden_max_score,
        killed_by,
        not_run,
        why: survived.then(|| mutant.blind_spot().to_owned()),
        kill_hint: survived.then(|| mutant.kill_hint().to_owned()),
    }
}
