//! `modlearn validate`: check a spec; with `--mutants`, also evaluate the built-in wrong mods
//! against it.

mod render;

use modlearn_mutants::run_mutants;
use serde::Serialize;

use crate::cli::ValidateArgs;
use crate::exit::{CliError, FAILURE, SUCCESS};

pub fn run(args: ValidateArgs) -> Result<u8, CliError> {
    let loaded = match modlearn_spec::load_spec(&args.spec) {
        Ok(loaded) => {
            for warning in &loaded.warnings {
                eprintln!("warning: `{}`: {warning}", args.spec.display());
            }
            loaded
        }
        Err(error) => {
            // A tool reading stdout gets the problems as data; a person still reads them on stderr.
            if args.json {
                let json = InvalidJson {
                    spec: args.spec.display().to_string(),
                    valid: false,
                    problems: &error.problems,
                    warnings: &error.warnings,
                };
                println!("{}", serde_json::to_string_pretty(&json).expect("the problems serialize"));
            }
            return Err(error.into());
        }
    };
    let scenarios = super::scenarios_with_envs(&loaded)?;
    let assertions: usize = scenarios.iter().map(|s| s.assertions.len()).sum();
    let max_score: usize = scenarios.iter().map(|s| s.max_score()).sum();
    let hidden = scenarios.iter().filter(|s| s.hidden).count();
    let summary = format!(
        "valid spec `{}`: {} scenario(s) ({hidden} hidden), {assertions} assertion(s), max score {max_score}",
        args.spec.display(),
        scenarios.len()
    );
    if !args.mutants {
        if args.eval_model.eval_model.is_some() {
            return Err(CliError::usage("`--eval-model` only drives the mutants' prompt scenarios").hint("add `--mutants`"));
        }
        if args.json {
            let json = ValidJson {
                spec: args.spec.display().to_string(),
                valid: true,
                scenarios: scenarios.len(),
                hidden,
                assertions,
                max_score,
                warnings: loaded.warnings.iter().map(ToString::to_string).collect(),
            };
            println!("{}", serde_json::to_string_pretty(&json).expect("the summary serializes"));
        } else {
            println!("{summary}");
        }
        return Ok(SUCCESS);
    }
    // The same engines and limits as `modlearn eval` with its defaults; with `--eval-model`,
    // the same agent for prompt scenarios, its requests run on `runtime`.
    let mut settings = modlearn_runner::EvalSettings::default();
    let runtime = super::eval_model::for_evaluation(&args.eval_model, args.cache_dir.as_ref())?.map(|(model, runtime)| {
        settings.eval_model = Some(model);
        runtime
    });
    let report = run_mutants(&loaded.spec, &scenarios, &settings);
    drop(runtime);
    if let Some(error) = settings.eval_model.as_ref().and_then(|model| model.take_fatal()) {
        return Err(super::eval_model::fatal(error));
    }
    if args.json {
        let spec = args.spec.display().to_string();
        let json = JsonReport { spec, report: &report };
        println!("{}", serde_json::to_string_pretty(&json).expect("the mutant report serializes"));
    } else {
        println!("{summary}\n");
        print!("{}", render::mutant_report(&report));
    }
    Ok(if report.survivors().next().is_some() { FAILURE } else { SUCCESS })
}

/// `validate --json` without `--mutants`: the spec's shape. An invalid spec exits 2 with every
/// problem on stderr, as without `--json`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ValidJson {
    spec: String,
    valid: bool,
    scenarios: usize,
    hidden: usize,
    assertions: usize,
    max_score: usize,
    warnings: Vec<String>,
}

/// `validate --json` of a spec that does not load: every problem and warning, with its JSON path
/// and position (the exit code is still 2).
#[derive(Serialize)]
struct InvalidJson<'a> {
    spec: String,
    valid: bool,
    problems: &'a [modlearn_spec::SpecProblem],
    warnings: &'a [modlearn_spec::SpecWarning],
}

#[derive(Serialize)]
struct JsonReport<'a> {
    spec: String,
    #[serde(flatten)]
    report: &'a modlearn_mutants::MutantReport,
}
