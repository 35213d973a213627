use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use modlearn_engine::EngineOptions;
use modlearn_exercise::session::SessionOutcome;
use modlearn_exercise::{ScenarioPlan, ScenarioRun, exercise};
use modlearn_judge::{NotRun, SessionTexts, fail_stopped, judge, marker_checks_not_run, session_marker_checks, world_summary};
use modlearn_spec::ResolvedScenario;
use modlearn_types::bound::CANDIDATE_BYTES;
use modlearn_types::{CandidateVerdict, ConsoleLine, Diagnostic, EvalUsage, Observation, ScenarioVerdict};
use rayon::prelude::*;

use crate::eval_model::{EvalModel, ledger};
use crate::plan::{EvalSessions, scenario_plans};

/// How to evaluate.
#[derive(Clone, Debug)]
pub struct EvalSettings {
    /// Candidates evaluated at once (rayon threads).
    pub jobs: usize,
    /// Limits for each candidate's engine.
    pub engine: EngineOptions,
    /// The model that acts as the agent of prompt scenarios; without one they are not run.
    pub eval_model: Option<Arc<EvalModel>>,
}

impl Default for EvalSettings {
    fn default() -> EvalSettings {
        EvalSettings {
            jobs: std::thread::available_parallelism().map_or(1, usize::from),
            engine: EngineOptions::default(),
            eval_model: None,
        }
    }
}

/// What one scenario produced besides its verdict, for the artifacts.
#[derive(Clone, Debug)]
pub struct ScenarioArtifacts {
    /// Observations, one per assertion.
    pub observations: Vec<Observation>,
    /// Console output of the candidate.
    pub console: Vec<ConsoleLine>,
    /// The scripted session, when the scenario has one: its trace and result.
    pub session: Option<SessionOutcome>,
}

/// One candidate, evaluated.
#[derive(Clone, Debug)]
pub struct CandidateEvaluation {
    /// 0-based position among the candidates.
    pub index: usize,
    /// The file as given.
    pub path: PathBuf,
    /// Its text, when it could be read.
    pub source: Option<String>,
    /// Why it could not be evaluated at all.
    pub error: Option<String>,
    /// The verdict.
    pub verdict: CandidateVerdict,
    /// Distinct diagnostics over all scenarios, first occurrence first.
    pub diagnostics: Vec<Diagnostic>,
    /// Distinct diagnostics of the visible scenarios: what proposers may see.
    pub visible_diagnostics: Vec<Diagnostic>,
    /// Per-scenario observations and console output.
    pub scenarios: Vec<ScenarioArtifacts>,
    /// Wall time.
    pub elapsed: Duration,
    /// What the eval model spent on the candidate's prompt scenarios.
    pub eval_usage: Option<EvalUsage>,
}

/// Evaluates `paths` against `scenarios`, `settings.jobs` at a time, calling
/// `on_done` as each finishes. Results come back in input order, and each is
/// exactly what evaluating that candidate alone would give.
pub fn evaluate_candidates(
    scenarios: &[ResolvedScenario],
    paths: &[PathBuf],
    settings: &EvalSettings,
    on_done: &(dyn Fn(&CandidateEvaluation) + Sync),
) -> Vec<CandidateEvaluation> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(settings.jobs.max(1))
        .thread_name(|i| format!("modlearn-eval-{i}"))
        .build()
        .expect("building the evaluation thread pool");
    pool.install(|| {
        paths
            .par_iter()
            .enumerate()
            .map(|(index, path)| {
                let evaluation = match read_candidate(path) {
                    Ok(source) => evaluate_source_with(index, path, source, scenarios, &settings.engine, settings.eval_model.as_ref()),
                    Err(reason) => not_evaluated(index, path, scenarios, reason, settings.eval_model.is_some()),
                };
                on_done(&evaluation);
                evaluation
            })
            .collect()
    })
}

/// Reads a candidate file: a regular file (not a FIFO or device, through a
/// link or not) of at most [`CANDIDATE_BYTES`], as UTF-8 text.
pub fn read_candidate(path: &Path) -> Result<String, String> {
    use std::io::Read;
    let metadata = std::fs::metadata(path).map_err(|error| format!("cannot read `{}`: {error}", path.display()))?;
    if !metadata.is_file() {
        return Err(format!("`{}` is not a regular file", path.display()));
    }
    check_candidate_size(metadata.len())?;
    let file = std::fs::File::open(path).map_err(|error| format!("cannot read `{}`: {error}", path.display()))?;
    let mut source = String::new();
    // A file that grows after the check is still read only up to the bound.
    file.take(CANDIDATE_BYTES + 1).read_to_string(&mut source).map_err(|error| format!("cannot read `{}`: {error}", path.display()))?;
    check_candidate_size(source.len() as u64)?;
    Ok(source)
}

fn check_candidate_size(bytes: u64) -> Result<(), String> {
    if bytes > CANDIDATE_BYTES {
        return Err(format!("the candidate is {bytes} bytes; candidates are at most {} KiB", CANDIDATE_BYTES >> 10));
    }
    Ok(())
}

/// Evaluates one candidate file in its own engine.
pub fn evaluate_candidate(index: usize, path: &Path, scenarios: &[ResolvedScenario], engine: &EngineOptions) -> CandidateEvaluation {
    match read_candidate(path) {
        Ok(source) => evaluate_source(index, path, source, scenarios, engine),
        Err(reason) => not_evaluated(index, path, scenarios, reason, false),
    }
}

/// Evaluates `source` as if it were the file at `path` (which need not
/// exist yet: a proposal is judged before it is written).
pub fn evaluate_source(
    index: usize,
    path: &Path,
    source: String,
    scenarios: &[ResolvedScenario],
    engine: &EngineOptions,
) -> CandidateEvaluation {
    evaluate_source_with(index, path, source, scenarios, engine, None)
}

/// [`evaluate_source`] with an eval model acting as the agent of prompt scenarios.
pub fn evaluate_source_with(
    index: usize,
    path: &Path,
    source: String,
    scenarios: &[ResolvedScenario],
    engine: &EngineOptions,
    eval_model: Option<&Arc<EvalModel>>,
) -> CandidateEvaluation {
    if let Err(reason) = check_candidate_size(source.len() as u64) {
        return not_evaluated(index, path, scenarios, reason, eval_model.is_some());
    }
    let started = Instant::now();
    let eval = eval_model.map(|model| EvalSessions { model: Arc::clone(model), ledger: ledger(model) });
    let file_name = path.file_name().map_or_else(|| "mod.js".to_owned(), |name| name.to_string_lossy().into_owned());
    let plans: Vec<ScenarioPlan> = scenario_plans(scenarios, eval.as_ref(), &file_name, &source);
    let runs = match exercise(path, &source, &plans, engine) {
        Ok(runs) => runs,
        Err(error) => return not_evaluated(index, path, scenarios, error.to_string(), eval_model.is_some()),
    };
    let verdicts = scenarios
        .iter()
        .zip(&plans)
        .zip(&runs)
        .map(|((scenario, plan), run)| scenario_verdict(scenario, plan.session.is_some(), run))
        .collect();
    // Only a candidate that had a model-driven session has eval usage to report.
    let eval_usage = eval
        .map(|eval| eval.ledger.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone())
        .filter(|usage| usage.sessions > 0 || usage.turns > 0);
    let diagnostics = distinct_diagnostics(runs.iter());
    let visible_diagnostics = distinct_diagnostics(runs.iter().zip(scenarios).filter(|(_, scenario)| !scenario.hidden).map(|(run, _)| run));
    let artifacts = runs
        .into_iter()
        .map(|run| ScenarioArtifacts { observations: run.observations, console: run.console, session: run.session })
        .collect();
    CandidateEvaluation {
        index,
        path: path.to_path_buf(),
        source: Some(source),
        error: None,
        verdict: CandidateVerdict::new(verdicts),
        diagnostics,
        visible_diagnostics,
        scenarios: artifacts,
        elapsed: started.elapsed(),
        eval_usage,
    }
}

fn scenario_verdict(scenario: &ResolvedScenario, has_session: bool, run: &ScenarioRun) -> ScenarioVerdict {
    let mut checks: Vec<_> = scenario
        .assertions
        .iter()
        .zip(&run.observations)
        .enumerate()
        .map(|(i, (assertion, observation))| judge(i, assertion, observation, scenario.dialect))
        .collect();
    if has_session {
        let trace = run.session.as_ref().map(SessionOutcome::trace_jsonl);
        let texts = run.session.as_ref().zip(trace.as_deref()).map(|(session, trace)| SessionTexts {
            trace,
            result: &session.result,
            error: session.error.as_deref(),
        });
        checks.extend(session_marker_checks(scenario, texts, checks.len()));
    } else {
        // No session although markers may be listed: a prompt scenario without an eval model
        // (else it would have had a session), or a scenario with a blank prompt.
        let why = if scenario.prompt_to_run().is_some() { NotRun::NoEvalModel } else { NotRun::NoPrompt };
        checks.extend(marker_checks(scenario, checks.len(), why));
    }
    if let Some(stop) = &run.stopped {
        fail_stopped(&mut checks, stop);
    }
    let mut verdict = ScenarioVerdict::new(scenario.name.clone(), scenario.dir_name.clone(), scenario.hidden, checks);
    let worlds: Vec<_> = run.snapshot.iter().map(|s| &*s.world).chain(run.session.iter().map(|s| &s.world)).collect();
    verdict.world = Some(world_summary(&worlds)).filter(|world| !world.is_empty());
    verdict
}

/// Whether evaluating `scenario` runs a session (its script, or its prompt driven by the eval
/// model), so that its markers are judged at all; without one they fail as not run.
pub fn runs_session(scenario: &ResolvedScenario, has_eval_model: bool) -> bool {
    scenario.script.is_some() || (has_eval_model && scenario.prompt_to_run().is_some())
}

fn marker_checks(scenario: &ResolvedScenario, first_index: usize, why: NotRun) -> Vec<modlearn_types::CheckResult> {
    let mut checks = Vec::new();
    for (kind, markers) in [
        ("required_result_marker", &scenario.required_result_markers),
        ("required_trace_marker", &scenario.required_trace_markers),
        ("forbidden_result_marker", &scenario.forbidden_result_markers),
        ("forbidden_trace_marker", &scenario.forbidden_trace_markers),
    ] {
        checks.extend(marker_checks_not_run(kind, markers, first_index + checks.len(), why));
    }
    checks
}

fn distinct_diagnostics<'a>(runs: impl Iterator<Item = &'a ScenarioRun> + Clone) -> Vec<Diagnostic> {
    let mut seen: Vec<Diagnostic> = Vec::new();
    let snapshots = runs.clone().filter_map(|run| run.snapshot.as_ref()).map(|snapshot| &snapshot.diagnostics);
    let sessions = runs.clone().filter_map(|run| run.session.as_ref()).map(|session| &session.diagnostics);
    let stops = runs.filter_map(|run| run.stopped.as_ref()).map(std::slice::from_ref);
    for diagnostics in snapshots.chain(sessions).map(Vec::as_slice).chain(stops) {
        for diagnostic in diagnostics {
            let same = |d: &Diagnostic| d.phase == diagnostic.phase && d.message == diagnostic.message && d.fault == diagnostic.fault;
            if !seen.iter().any(same) {
                seen.push(diagnostic.clone());
            }
        }
    }
    seen
}

/// A candidate that could not be run: every check fails, with the reason. `has_eval_model`
/// says whether its prompt scenarios would have run, which their markers' message tells.
pub fn not_evaluated(
    index: usize,
    path: &Path,
    scenarios: &[ResolvedScenario],
    error: String,
    has_eval_model: bool,
) -> CandidateEvaluation {
    let verdicts = scenarios
        .iter()
        .map(|scenario| {
            let mut checks: Vec<_> = scenario
                .assertions
                .iter()
                .enumerate()
                .map(|(i, assertion)| judge(i, assertion, &Observation::EngineFailure { message: error.clone() }, scenario.dialect))
                .collect();
            if scenario.script.is_some() {
                checks.extend(session_marker_checks(scenario, None, checks.len()));
            } else {
                let why = match (scenario.prompt_to_run(), has_eval_model) {
                    (None, _) => NotRun::NoPrompt,
                    (Some(_), true) => NotRun::NoCandidate,
                    (Some(_), false) => NotRun::NoEvalModel,
                };
                checks.extend(marker_checks(scenario, checks.len(), why));
            }
            ScenarioVerdict::new(scenario.name.clone(), scenario.dir_name.clone(), scenario.hidden, checks)
        })
        .collect();
    let mut verdict = CandidateVerdict::new(verdicts);
    verdict.passed = false;
    CandidateEvaluation {
        index,
        path: path.to_path_buf(),
        source: None,
        error: Some(error),
        verdict,
        diagnostics: Vec::new(),
        visible_diagnostics: Vec::new(),
        scenarios: scenarios.iter().map(|_| ScenarioArtifacts { observations: Vec::new(), console: Vec::new(), session: None }).collect(),
        elapsed: Duration::ZERO,
        eval_usage: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn scenarios(prompt: &str) -> Vec<ResolvedScenario> {
        let spec: modlearn_spec::ModLearningSpec = serde_json::from_value(json!({
            "name": "n", "objective": "o", "requirements": ["r"],
            "evaluation": { "prompt": prompt, "requiredResultMarkers": ["Done."], "assertions": [{ "type": "mod_loads" }] }
        }))
        .unwrap();
        modlearn_spec::resolve_scenarios(&spec)
    }

    fn marker_message(evaluation: &CandidateEvaluation) -> &str {
        let check = &evaluation.verdict.scenarios[0].checks[1];
        assert_eq!(check.kind, "required_result_marker");
        assert!(!check.passed);
        &check.message
    }

    #[test]
    fn a_candidate_without_code_says_why_its_prompt_markers_did_not_run() {
        let path = Path::new("candidate-001.js");
        let with_model = not_evaluated(0, path, &scenarios("go"), "no answer from the model".to_owned(), true);
        assert_eq!(marker_message(&with_model), NotRun::NoCandidate.message());
        assert!(!marker_message(&with_model).contains("--eval-model"), "an eval model was given");
        let without = not_evaluated(0, path, &scenarios("go"), "no answer from the model".to_owned(), false);
        assert_eq!(marker_message(&without), NotRun::NoEvalModel.message());
        let blank = not_evaluated(0, path, &scenarios("  "), "no answer from the model".to_owned(), true);
        assert_eq!(marker_message(&blank), NotRun::NoPrompt.message());
    }

    #[test]
    fn a_blank_prompt_is_not_blamed_on_a_missing_eval_model() {
        let source = "export function activate(letta) {}".to_owned();
        let engine = EngineOptions::default();
        let blank = evaluate_source(0, Path::new("c.js"), source.clone(), &scenarios(""), &engine);
        assert_eq!(marker_message(&blank), NotRun::NoPrompt.message());
        let prompt = evaluate_source(0, Path::new("c.js"), source, &scenarios("go"), &engine);
        assert_eq!(marker_message(&prompt), NotRun::NoEvalModel.message());
        assert!(runs_session(&scenarios("go")[0], true) && !runs_session(&scenarios("go")[0], false));
        assert!(!runs_session(&scenarios("")[0], true));
    }

    #[test]
    fn markers_without_a_prompt_count_and_are_never_checked_as_in_letta() {
        let source = "export function activate(letta) {}".to_owned();
        let blank = evaluate_source(0, Path::new("c.js"), source, &scenarios(""), &EngineOptions::default());
        let scenario = &blank.verdict.scenarios[0];
        assert!(scenario.checks[1].unchecked);
        // The scenario passes on its assertion; the marker is in the maximum, not the score.
        assert!(scenario.passed && blank.verdict.passed);
        assert_eq!((scenario.score, scenario.max_score), (1, 2));
        assert!(!blank.verdict.is_perfect(), "a run never stops early on it, as Letta's does not");
        assert_eq!(scenario.result_text().lines().count(), 1, "Letta's result text has no line for it");
    }
}
