//! One module per subcommand; each returns an exit code or a [`CliError`].

use std::process::ExitCode;

use crate::cli::{Cli, Command, EngineArgs};
use crate::exit::CliError;

mod bench;
mod check;
mod compare;
mod eval;
mod eval_model;
mod merge;
mod prices;
mod run;
mod stored;
mod validate;

/// Runs the parsed command line.
pub fn run(cli: Cli) -> ExitCode {
    init_tracing();
    let result = match cli.command {
        Command::Eval(args) => eval::run(args),
        Command::Run(args) => run::run(args),
        Command::Validate(args) => validate::run(args),
        Command::Schema => {
            print!("{}", modlearn_spec::json_schema_text());
            Ok(crate::exit::SUCCESS)
        }
        Command::Bench(args) => bench::run(args),
        Command::Check(args) => check::run(args),
        Command::Report(args) => stored::report(args),
        Command::Guide(args) => stored::guide(args),
        Command::Compare(args) => compare::run(args),
        Command::Merge(args) => merge::run(args),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(error) => error.report(),
    }
}

/// The QuickJS backend caches compiled bytecode on disk (it saves about a
/// quarter of each engine's start-up). Keep that cache in modlearn's own
/// cache directory, unless the user chose one; `V82JSC_NO_BC_CACHE=1` turns
/// it off. Runs first thing in `main`, before any thread exists.
pub fn place_bytecode_cache() {
    if std::env::var_os("V82JSC_BC_CACHE_DIR").is_some() {
        return;
    }
    // SAFETY: called at the start of main, before any other thread reads the environment.
    unsafe { std::env::set_var("V82JSC_BC_CACHE_DIR", modlearn_cache_dir().join("quickjs-bytecode")) };
}

/// `${XDG_CACHE_HOME:-$HOME/.cache}/modlearn`: where modlearn keeps caches.
fn modlearn_cache_dir() -> std::path::PathBuf {
    std::env::var_os("XDG_CACHE_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| std::path::PathBuf::from(home).join(".cache")))
        .unwrap_or_else(std::env::temp_dir)
        .join("modlearn")
}

fn init_tracing() {
    // Logs only on request (MODLEARN_LOG=debug); stdout stays for data.
    let filter = tracing_subscriber::EnvFilter::try_from_env("MODLEARN_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("off"));
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).try_init();
}

/// Loads a spec or fails with every problem listed (exit 2).
fn load_spec(path: &std::path::Path) -> Result<modlearn_spec::LoadedSpec, CliError> {
    let loaded = modlearn_spec::load_spec(path)?;
    for warning in &loaded.warnings {
        eprintln!("warning: `{}`: {warning}", path.display());
    }
    Ok(loaded)
}

/// The spec's scenarios, each scripted one with its environment loaded from `envs/` (exit 2 when
/// an environment is missing or invalid).
fn scenarios_with_envs(loaded: &modlearn_spec::LoadedSpec) -> Result<Vec<modlearn_spec::ResolvedScenario>, CliError> {
    let mut scenarios = modlearn_spec::resolve_scenarios(&loaded.spec);
    for env in modlearn_spec::attach_envs(&mut scenarios, loaded)? {
        for warning in &env.warnings {
            eprintln!("warning: `{}`: {warning}", env.path.display());
        }
    }
    Ok(scenarios)
}

/// Every candidate file must exist before anything runs.
fn check_candidates(paths: &[std::path::PathBuf]) -> Result<(), CliError> {
    for path in paths {
        if !path.is_file() {
            let what = if path.exists() { "is not a file" } else { "does not exist" };
            return Err(CliError::usage(format!("candidate `{}` {what}", path.display()))
                .hint("pass the path of a .js, .mjs, .ts or .tsx mod file"));
        }
        if modlearn_engine::SourceKind::from_path(path).is_none() {
            return Err(CliError::usage(format!("candidate `{}` is not a mod file", path.display()))
                .hint("mods are .js, .mjs, .ts or .tsx files"));
        }
    }
    Ok(())
}

fn engine_options(args: &EngineArgs) -> modlearn_runner::EvalSettings {
    let defaults = modlearn_runner::EvalSettings::default();
    modlearn_runner::EvalSettings {
        jobs: args.jobs.map_or(defaults.jobs, |jobs| jobs as usize),
        engine: modlearn_engine::EngineOptions {
            step_timeout: args.handler_timeout,
            memory_limit: (args.memory_limit as usize) << 20,
            ..defaults.engine
        },
        eval_model: None,
    }
}

/// `reports/<slug>-<UTC timestamp>`.
fn default_run_dir(slug: &str) -> std::path::PathBuf {
    let stamp = jiff::Timestamp::now().strftime("%Y%m%dT%H%M%SZ").to_string();
    std::path::PathBuf::from("reports").join(format!("{slug}-{stamp}"))
}

/// Writes the run-level files, prints the report (table or `--json`) and
/// returns the exit code (`eval`; `run` has the runner write them). `unrun` is what
/// [`prompt_checks_not_run`] found.
fn finish_run(
    writer: &modlearn_record::RunWriter,
    report: &modlearn_types::RunReport,
    json: bool,
    unrun: Option<(usize, usize)>,
) -> Result<u8, CliError> {
    writer.write_run(report)?;
    print_run(report, &writer.layout().file("report.md"), json, unrun)
}

/// Prints a written run's report (table or `--json`) and returns the exit code.
fn print_run(
    report: &modlearn_types::RunReport,
    report_path: &std::path::Path,
    json: bool,
    unrun: Option<(usize, usize)>,
) -> Result<u8, CliError> {
    if let Some((checks, scenarios)) = unrun {
        // Without this a correct mod fails with no word on the terminal why.
        eprintln!(
            "note: {checks} check(s) of {scenarios} prompt scenario(s) were not run and count as failed for every candidate: \
             a prompt scenario needs a model acting as the agent; pass `--eval-model PROVIDER:NAME` (a model that makes tool calls) to run them"
        );
    }
    if json {
        println!("{}", serde_json::to_string_pretty(report).expect("report serializes"));
    } else {
        print!("{}", crate::printer::summary(report, &report_path.display().to_string()));
    }
    Ok(exit_code(report))
}

/// Without an eval model, the marker checks of prompt scenarios cannot run: how many checks
/// (per candidate) and in how many scenarios, or `None` when every check runs.
fn prompt_checks_not_run(scenarios: &[modlearn_spec::ResolvedScenario], has_eval_model: bool) -> Option<(usize, usize)> {
    let unrun: Vec<usize> = scenarios
        .iter()
        .filter(|scenario| scenario.prompt_to_run().is_some() && !modlearn_runner::runs_session(scenario, has_eval_model))
        .map(|scenario| scenario.max_score() - scenario.assertions.len())
        .filter(|&markers| markers > 0)
        .collect();
    (!unrun.is_empty()).then(|| (unrun.iter().sum(), unrun.len()))
}

/// 0 when the selected candidate passes; 3 when no candidate could be judged at all; else 1.
fn exit_code(report: &modlearn_types::RunReport) -> u8 {
    if report.passed {
        crate::exit::SUCCESS
    } else if !report.attempts.is_empty() && report.attempts.iter().all(|attempt| attempt.error.is_some()) {
        crate::exit::NOT_JUDGED
    } else {
        crate::exit::FAILURE
    }
}
