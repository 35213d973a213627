//! One module per subcommand; each returns an exit code or a [`CliError`].

use std::process::ExitCode;

use crate::cli::{Cli, Command, EngineArgs};
use crate::exit::CliError;

mod bench;
mod check;
mod compare;
mod eval;
mod eval_model;
mod init;
mod merge;
mod prices;
mod run;
mod stored;
mod validate;

/// Runs the parsed command line.
pub fn run(cli: Cli) -> ExitCode {
    init_tracing();
    crate::printer::init_color(cli.color);
    let result = match cli.command {
        Command::Eval(args) => eval::run(args),
        Command::Run(args) => run::run(args),
        Command::Validate(args) => validate::run(args),
        Command::Schema => {
            // A reader that stops early (`modlearn schema | head -1`) closes the pipe: that ends
            // the output, it is no error.
            let written = std::io::Write::write_all(&mut std::io::stdout().lock(), modlearn_spec::json_schema_text().as_bytes());
            match written {
                Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => {
                    Err(CliError::usage(format!("cannot write the schema to stdout: {error}")))
                }
                _ => Ok(crate::exit::SUCCESS),
            }
        }
        Command::Bench(args) => bench::run(args),
        Command::Check(args) => check::run(args),
        Command::Report(args) => stored::report(args),
        Command::Guide(args) => stored::guide(args),
        Command::Compare(args) => compare::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Init(args) => init::run(args),
        Command::Completions(args) => {
            let mut command = <Cli as clap::CommandFactory>::command();
            clap_complete::generate(args.shell, &mut command, "modlearn", &mut std::io::stdout());
            Ok(crate::exit::SUCCESS)
        }
    };
    for dir in RESERVED.lock().unwrap_or_else(|poison| poison.into_inner()).drain(..) {
        // Fails, as it should, unless the directory is empty.
        let _ = std::fs::remove_dir(dir);
    }
    match result {
        Ok(code) => ExitCode::from(code),
        Err(error) => error.report(),
    }
}

/// Every engine runs in a worker process of its own, forked from a zygote
/// started from this executable, and every candidate's machine has this
/// executable as its sandbox's helper. The QuickJS backend's on-disk bytecode
/// cache is off: the zygote compiles the host modules once per run, and a
/// cache that candidates' code fills is one more thing to bound and verify.
/// Runs first thing in `main`, before any thread exists.
pub fn isolate_engines() {
    // SAFETY: called at the start of main, before any other thread reads the environment.
    unsafe { std::env::set_var("V82JSC_NO_BC_CACHE", "1") };
    if let Ok(executable) = std::env::current_exe() {
        modlearn_engine::worker::isolate_engines(executable.clone());
        modlearn_machine::set_helper_executable(executable);
    }
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
    let filter = tracing_subscriber::EnvFilter::try_from_env("MODLEARN_LOG").unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("off"));
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
            let what = if path.exists() { "is not a regular file" } else { "does not exist" };
            return Err(CliError::usage(format!("candidate `{}` {what}", path.display()))
                .hint("pass the path of a .js, .mjs, .ts or .tsx mod file"));
        }
        if modlearn_engine::SourceKind::from_path(path).is_none() {
            return Err(
                CliError::usage(format!("candidate `{}` is not a mod file", path.display())).hint("mods are .js, .mjs, .ts or .tsx files")
            );
        }
        if links_out_of_its_directory(path) {
            return Err(CliError::usage(format!("candidate `{}` is a link to a file outside its directory", path.display()))
                .hint("pass the file itself"));
        }
    }
    Ok(())
}

fn links_out_of_its_directory(path: &std::path::Path) -> bool {
    let is_link = std::fs::symlink_metadata(path).is_ok_and(|metadata| metadata.file_type().is_symlink());
    if !is_link {
        return false;
    }
    let directory = path.parent().filter(|dir| !dir.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    match (path.canonicalize(), directory.canonicalize()) {
        (Ok(target), Ok(directory)) => !target.starts_with(directory),
        _ => true,
    }
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

/// Claims a run directory for this process (see [`modlearn_record::claim_run_dir`]); exit 2 when it is not ours.
fn claim_run_dir(dir: &std::path::Path, continuing: modlearn_record::Continuing) -> Result<modlearn_record::RunDirClaim, CliError> {
    use modlearn_record::ClaimError;
    modlearn_record::claim_run_dir(dir, continuing).map_err(|error| {
        let hint = match &error {
            ClaimError::Busy(_) => "wait for the other run to finish, or pass another `--run-dir`".to_owned(),
            ClaimError::NothingToContinue(_) => "`--resume` takes the run directory of an unfinished `modlearn run`".to_owned(),
            ClaimError::NotADirectory(_) | ClaimError::NotEmpty(_) | ClaimError::Io { .. } => {
                "pass another `--run-dir` (a new or empty directory)".to_owned()
            }
        };
        CliError::usage(error.to_string()).hint(hint)
    })
}

/// `reports/<slug>-<UTC timestamp>`, created here so that two runs started in
/// the same second (or in parallel) never share one: the second gets `-2`, and so on.
fn default_run_dir(slug: &str) -> Result<std::path::PathBuf, CliError> {
    let stamp = jiff::Timestamp::now().strftime("%Y%m%dT%H%M%SZ").to_string();
    reserve_dir(std::path::Path::new("reports"), &format!("{slug}-{stamp}"))
}

/// Directories [`reserve_dir`] created; those still empty when the command
/// ends (it failed before writing anything) are removed again.
static RESERVED: std::sync::Mutex<Vec<std::path::PathBuf>> = std::sync::Mutex::new(Vec::new());

/// Creates `parent/name` (or `name-2`, `name-3`, ...: the first that did not exist) and returns it.
fn reserve_dir(parent: &std::path::Path, name: &str) -> Result<std::path::PathBuf, CliError> {
    let unwritable = |error: std::io::Error| {
        CliError::usage(format!("cannot create a run directory under `{}`: {error}", parent.display())).hint("pass a writable `--run-dir`")
    };
    std::fs::create_dir_all(parent).map_err(unwritable)?;
    for n in 1u32.. {
        let dir = parent.join(if n == 1 { name.to_owned() } else { format!("{name}-{n}") });
        // create_dir fails when the directory exists: that is the lock.
        match std::fs::create_dir(&dir) {
            Ok(()) => {
                RESERVED.lock().unwrap_or_else(|poison| poison.into_inner()).push(dir.clone());
                return Ok(dir);
            }
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(error) => return Err(unwritable(error)),
        }
    }
    unreachable!("some suffix is free")
}

/// Prints a written run's report (table or `--json`) and returns the exit code.
fn print_run(
    report: &modlearn_types::RunReport,
    run_dir: &std::path::Path,
    json: bool,
    failures: Option<crate::printer::Failures>,
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
        print!("{}", crate::printer::summary(report, run_dir));
        if let Some(failures) = failures {
            print!("{}", crate::printer::failed_checks(report, run_dir, failures));
        }
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

/// `--promote PATH` copies only a passing candidate: say so when none passed, rather than
/// leave the user to find the file missing.
pub(super) fn say_not_promoted(target: Option<&std::path::Path>, report: &modlearn_types::RunReport) {
    if let (Some(target), None) = (target, &report.promoted_to) {
        eprintln!("note: nothing promoted to `{}`: no candidate passed every check", target.display());
    }
}

/// `--promote PATH` must name a file, not a directory.
pub(super) fn check_promote_target(target: &std::path::Path) -> Result<(), CliError> {
    if target.is_dir() {
        return Err(CliError::usage(format!("`--promote {}` is a directory", target.display()))
            .hint("give the file path the selected candidate should be copied to"));
    }
    Ok(())
}
