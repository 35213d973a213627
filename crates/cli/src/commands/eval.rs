//! `modlearn eval`: judge existing candidate files against a spec.

use std::path::Path;
use std::sync::Mutex;

use modlearn_record::{CandidateArtifacts, RunLayout, RunWriter, WriteError, copy_atomic};
use modlearn_runner::{CandidateEvaluation, attempt_from, build_report, evaluate_candidates};
use modlearn_spec::spec_slug;
use modlearn_types::SpecSummary;

use crate::cli::EvalArgs;
use crate::exit::CliError;
use crate::printer;

pub fn run(args: EvalArgs) -> Result<u8, CliError> {
    let loaded = super::load_spec(&args.spec)?;
    super::check_candidates(&args.candidates)?;
    if let Some(promote) = &args.promote {
        check_promote_target(promote)?;
    }
    let scenarios = super::scenarios_with_envs(&loaded)?;
    let slug = spec_slug(&loaded.spec);
    let run_dir = args.run_dir.clone().unwrap_or_else(|| super::default_run_dir(&slug));
    if run_dir.join("report.json").exists() {
        return Err(CliError::usage(format!("run directory `{}` already holds a finished run", run_dir.display()))
            .hint("pass another `--run-dir`, or remove that directory"));
    }
    let mut settings = super::engine_options(&args.engine);
    // The eval model's requests run here; the evaluation's threads wait for them.
    let runtime = super::eval_model::for_evaluation(&args.eval_model, args.cache_dir.as_ref())?.map(|(model, runtime)| {
        settings.eval_model = Some(model);
        runtime
    });
    // Every input is checked: the directory is claimed before any work is done.
    let _claim = super::claim_run_dir(&run_dir, modlearn_record::Continuing::Nothing)?;
    let layout = RunLayout::new(&run_dir, args.candidates.len());
    let writer = RunWriter::new(layout.clone(), loaded.raw.clone(), loaded.spec.name.clone());

    let bar = printer::progress(args.candidates.len(), "evaluating");
    let write_errors: Mutex<Vec<WriteError>> = Mutex::new(Vec::new());
    let halted = || settings.eval_model.as_ref().is_some_and(|model| model.halted());
    let on_done = |evaluation: &CandidateEvaluation| {
        // Each candidate's artifacts land as soon as it is judged; none once the eval model's
        // key was refused (its verdicts are incomplete).
        if halted() {
            bar.inc(1);
            return;
        }
        if let Err(error) = write_candidate(&writer, &layout, evaluation) {
            write_errors.lock().unwrap_or_else(|poison| poison.into_inner()).push(error);
        }
        bar.inc(1);
    };
    let evaluations = evaluate_candidates(&scenarios, &args.candidates, &settings, &on_done);
    bar.finish_and_clear();
    drop(runtime);
    if let Some(error) = settings.eval_model.as_ref().and_then(|model| model.take_fatal()) {
        return Err(super::eval_model::fatal(error));
    }
    if let Some(error) = write_errors.into_inner().unwrap_or_else(|poison| poison.into_inner()).into_iter().next() {
        return Err(error.into());
    }

    let spec = SpecSummary {
        name: loaded.spec.name.clone(),
        slug,
        path: args.spec.display().to_string(),
        scenarios: scenarios.len(),
    };
    let mut report = build_report(spec, &evaluations, &|index| layout.candidate_relative(index), None);
    if let (Some(target), Some(selected), true) = (&args.promote, &report.selected, report.passed) {
        copy_atomic(Path::new(&selected.candidate_path), target)?;
        report.promoted_to = Some(target.display().to_string());
    }
    let unrun = super::prompt_checks_not_run(&scenarios, settings.eval_model.is_some());
    super::finish_run(&writer, &report, args.json, unrun)
}

fn write_candidate(writer: &RunWriter, layout: &RunLayout, evaluation: &CandidateEvaluation) -> Result<(), WriteError> {
    let attempt = attempt_from(evaluation, layout.candidate_relative(evaluation.index));
    let file_name = evaluation
        .path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_else(|| "candidate.js".to_owned());
    writer.write_candidate(&CandidateArtifacts {
        attempt: &attempt,
        file_name: &file_name,
        source: evaluation.source.as_deref(),
        consoles: evaluation.scenarios.iter().map(|scenario| scenario.console.as_slice()).collect(),
        extra: Vec::new(),
        sessions: evaluation.scenarios.iter().map(|s| s.session.as_ref().map(|o| modlearn_record::SessionFiles { trace: &o.trace, result: &o.result, files: &o.files })).collect(),
    })
}

fn check_promote_target(target: &Path) -> Result<(), CliError> {
    if target.is_dir() {
        return Err(CliError::usage(format!("`--promote {}` is a directory", target.display()))
            .hint("give the file path the selected candidate should be copied to"));
    }
    Ok(())
}
