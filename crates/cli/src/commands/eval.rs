//! `modlearn eval`: judge existing candidate files against a spec.

use modlearn_runner::{EvaluationJob, JobStop, run_evaluation_job};
use modlearn_spec::spec_slug;
use modlearn_types::SpecSummary;

use crate::cli::EvalArgs;
use crate::exit::CliError;
use crate::printer;

pub fn run(mut args: EvalArgs) -> Result<u8, CliError> {
    let loaded = super::load_spec(&args.spec)?;
    args.candidates = expand_dirs(&args.candidates)?;
    super::check_candidates(&args.candidates)?;
    if let Some(promote) = &args.promote {
        super::check_promote_target(promote)?;
    }
    let scenarios = super::scenarios_with_envs(&loaded)?;
    let slug = spec_slug(&loaded.spec);
    let run_dir = match args.run_dir.clone() {
        Some(dir) => dir,
        None => super::default_run_dir(&slug)?,
    };
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
    let summary = SpecSummary {
        name: loaded.spec.name.clone(),
        slug,
        path: args.spec.display().to_string(),
        scenarios: scenarios.len(),
        host: loaded.spec.dialect.host().to_owned(),
    };
    let bar = printer::Progress::bar(args.candidates.len(), "evaluating");
    let job =
        EvaluationJob { spec: &loaded, scenarios: &scenarios, summary, candidates: &args.candidates, settings: &settings, dir: &run_dir };
    let evaluated = run_evaluation_job(job, &|_| bar.inc());
    bar.finish();
    drop(runtime);
    let evaluated = evaluated.map_err(|stop| match stop {
        JobStop::KeyRefused { error, .. } => super::eval_model::fatal(error),
        JobStop::Write(error) => error.into(),
        JobStop::Interrupted { .. } => unreachable!("nothing interrupts an evaluation"),
    })?;
    let mut report = evaluated.report.clone();
    evaluated.promote(&mut report, args.promote.as_deref())?;
    super::say_not_promoted(args.promote.as_deref(), &report);
    evaluated.write_report(&report)?;
    let unrun = super::prompt_checks_not_run(&scenarios, settings.eval_model.is_some());
    let failures = (!args.quiet).then_some(crate::printer::Failures::OfEach);
    super::print_run(&report, &run_dir, args.json, failures, unrun)
}

/// Files stay where they are in the list; a directory becomes the mods in it,
/// found as `modlearn check` finds them (recursively, in path order).
fn expand_dirs(inputs: &[std::path::PathBuf]) -> Result<Vec<std::path::PathBuf>, CliError> {
    let mut paths = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let found = modlearn_check::find_mods(std::slice::from_ref(input), input)?;
            paths.extend(found.into_iter().map(|found| found.path));
        } else {
            paths.push(input.clone());
        }
    }
    Ok(paths)
}
