//! Command-line arguments (clap). Doc comments here are the `--help` text.

use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use modlearn_spec::Dialect;

/// `--version`: modlearn's own, and the host release each dialect's verdicts are judged against.
fn long_version() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| {
        let hosts = [Dialect::Letta, Dialect::Pi, Dialect::Dsh].map(|dialect| format!("  {:<6}{}", dialect.as_str(), dialect.host()));
        format!(
            "{} (commit {})\njudges candidates as these hosts run them:\n{}",
            env!("CARGO_PKG_VERSION"),
            env!("MODLEARN_COMMIT"),
            hosts.join("\n")
        )
    })
}

/// Learn and evaluate agent-harness mods.
///
/// modlearn loads each candidate mod in its own isolated JavaScript engine
/// (no filesystem, network, environment or process access; time and memory
/// limits), runs a spec's scenarios and assertions against it, and writes a
/// report, history and proposer guide.
#[derive(Debug, Parser)]
#[command(name = "modlearn", version, long_version = long_version(), propagate_version = true, max_term_width = 100)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,

    /// Colour PASS/FAIL/ERROR and diffs: auto (a terminal, unless NO_COLOR is set), always, never
    #[arg(long, value_name = "WHEN", value_enum, default_value_t = ColorChoice::Auto, global = true, hide_possible_values = true, display_order = 900)]
    pub color: ColorChoice,
}

/// When to colour output (`--color`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    // No doc comments here: clap would show them and switch every --help to its long layout.
    #[allow(missing_docs)]
    Auto,
    #[allow(missing_docs)]
    Always,
    #[allow(missing_docs)]
    Never,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Ask a model for candidate mods in rounds, evaluate each, keep the best
    #[command(after_help = RUN_AFTER_HELP)]
    Run(RunArgs),
    /// Evaluate existing candidate mod files against a spec, select the best
    #[command(
        after_help = "Exit status: 0 when the selected candidate passes, 1 when none passes, 2 on a usage or spec error, 3 when no candidate could be judged."
    )]
    Eval(EvalArgs),
    /// Check a spec; with --mutants, also whether it is strong enough to reject wrong mods
    #[command(
        after_help = "Prompt scenarios run only with --eval-model; without it their markers fail every mutant as not run, which kills none.\n\nExit status: 0 when the spec is valid (warnings go to stderr) and, with --mutants, every mutant is killed; 1 when a mutant survives; 2 with every problem listed when the spec is invalid."
    )]
    Validate(ValidateArgs),
    /// Print the JSON Schema of the spec format
    Schema,
    /// Measure evaluation throughput and latency
    Bench(BenchArgs),
    /// Pin what mod authors see: compare mods' diagnostics and registrations with a snapshot file
    #[command(after_help = CHECK_AFTER_HELP)]
    Check(CheckArgs),
    /// Re-render a run's reports (report.md, report.json, report.html) from its stored artifacts
    #[command(
        after_help = "Runs nothing: no engine, no model. Exit status: 0 when the reports were written, 2 when the directory is not a finished run or an artifact is missing or corrupt."
    )]
    Report(ReportArgs),
    /// Rewrite a run's proposer guide and history.md from its stored history.json
    #[command(
        after_help = "Runs nothing: no engine, no model. Exit status: 0 when the guide was written, 2 when the directory is not a run or history.json is missing or corrupt."
    )]
    Guide(GuideArgs),
    /// Compare models on specs: run every (model, spec, repeat) job, rank the models, test the differences
    #[command(after_help = COMPARE_AFTER_HELP)]
    Compare(CompareArgs),
    /// Combine the shard directories of one `modlearn compare --shard I/N` into one leaderboard
    #[command(
        after_help = "Refuses (exit 2) directories of different comparisons, the same shard twice, and missing shards.\n\nExit status: 0 when every job finished, 1 when the budget stopped some, 2 on a usage error, 3 when a job failed because its proposals could not be obtained."
    )]
    Merge(MergeArgs),
    /// Write a new spec from an objective: a scaffold with the checks and negative controls to fill in
    #[command(after_help = INIT_AFTER_HELP)]
    Init(InitArgs),
    /// Print a shell completion script for modlearn
    #[command(
        after_help = "For example: `modlearn completions bash > ~/.local/share/bash-completion/completions/modlearn`, or `modlearn completions zsh > \"${fpath[1]}/_modlearn\"`."
    )]
    Completions(CompletionsArgs),
}

const INIT_AFTER_HELP: &str = "The spec has the objective, requirements to complete, a mod_loads check, one behaviour check to fill in (marked TODO), and the negative controls `modlearn validate --mutants` asks for: a tool call the mod must leave alone and a clean dispose. Then run `modlearn validate --mutants FILE`.

Exit status: 0 when the spec was written, 2 when FILE exists (without --force) or the objective is empty.";

/// `modlearn init`.
#[derive(Debug, Args)]
pub struct InitArgs {
    /// What the mod should do, in a sentence or more
    #[arg(value_name = "OBJECTIVE", required = true, num_args = 1..)]
    pub objective: Vec<String>,

    /// Where to write the spec [default: specs/<slug>.json]
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,

    /// The spec's name, from which its slug and mod file name come [default: the objective's first words]
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,

    /// Replace FILE if it exists
    #[arg(long)]
    pub force: bool,

    /// Print {"path": ..., "spec": ...} as JSON on stdout instead of the summary
    #[arg(long)]
    pub json: bool,
}

/// `modlearn completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to write completions for
    #[arg(value_name = "SHELL", value_enum)]
    pub shell: clap_complete::Shell,
}

/// Limits for each candidate's engine.
#[derive(Debug, Args, Clone)]
pub struct EngineArgs {
    /// CPU-time budget for activate, each event handler and each disposer
    #[arg(long, value_name = "DURATION", default_value = "2s", value_parser = parse_duration)]
    pub handler_timeout: Duration,

    /// Heap cap per engine, in MiB
    #[arg(long, value_name = "MIB", default_value_t = 64, value_parser = clap::value_parser!(u64).range(8..=4096))]
    pub memory_limit: u64,

    /// Mods evaluated at once [default: the number of cores]
    #[arg(long, short, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=256))]
    pub jobs: Option<u64>,
}

/// `modlearn eval`.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// The ModLearningSpec (Letta Code env files load unchanged)
    #[arg(value_name = "SPEC")]
    pub spec: PathBuf,

    /// Candidate mod files (.js, .mjs, .ts, .tsx), or directories walked for them as `check` does
    #[arg(value_name = "CANDIDATE-OR-DIR", required = true)]
    pub candidates: Vec<PathBuf>,

    /// Where to write the run [default: reports/<slug>-<timestamp>]
    #[arg(long, value_name = "DIR")]
    pub run_dir: Option<PathBuf>,

    /// Copy the selected candidate here if it passes
    #[arg(long, value_name = "PATH")]
    pub promote: Option<PathBuf>,

    /// Print the run's report.json on stdout instead of the table
    #[arg(long)]
    pub json: bool,

    /// Print the table only, not the failed checks of each failing candidate
    #[arg(short, long)]
    pub quiet: bool,

    #[command(flatten)]
    pub eval_model: EvalModelArgs,

    /// Response cache directory for --eval-model turns [default: ~/.cache/modlearn/responses]
    #[arg(long, value_name = "DIR", requires = "eval_model")]
    pub cache_dir: Option<PathBuf>,

    #[command(flatten)]
    pub engine: EngineArgs,
}

/// The model acting as the agent of prompt scenarios.
#[derive(Debug, Args, Clone)]
pub struct EvalModelArgs {
    /// Run prompt scenarios with this model as the agent, PROVIDER:NAME (openai: or anthropic:, a
    /// model that makes tool calls); without it their markers count and fail as not run
    #[arg(long, value_name = "P:NAME")]
    pub eval_model: Option<String>,

    /// Base URL of the eval model's API [default: --base-url for run, else OPENAI_BASE_URL or
    /// ANTHROPIC_BASE_URL]
    #[arg(long, value_name = "URL", requires = "eval_model")]
    pub eval_base_url: Option<String>,
}

const RUN_AFTER_HELP: &str = "Models: openai:NAME (OPENAI_API_KEY, OPENAI_BASE_URL; any OpenAI-compatible server such as vLLM, llama.cpp or Ollama via --base-url), anthropic:NAME (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL), local:smollm2-135m (embedded 135M demo model; the default when no model is configured; it rarely writes a passing mod). MODLEARN_MODEL sets the default model. --base-url is the address of an API model's server: give it with --model openai:NAME (or anthropic:NAME); without one it is refused.

Progress goes to stderr: a bar on a terminal, one line per judged candidate and per round otherwise. Ctrl-C stops the run (candidates being judged are finished and kept) and prints the `modlearn run --resume` command; a second Ctrl-C exits at once.

Exit status: 0 when the selected candidate passes, 1 when none passes, 2 on a usage, spec or configuration error, 3 when no candidate could be judged (no answer from the model, or no code in any answer), 130 when interrupted (Ctrl-C).";

/// `modlearn run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The ModLearningSpec (not with --resume, which takes it from the run directory)
    #[arg(value_name = "SPEC", required_unless_present = "resume", conflicts_with = "resume")]
    pub spec: Option<PathBuf>,

    /// Continue a run that was stopped; answers already received are not asked for again
    #[arg(long, value_name = "RUN-DIR")]
    pub resume: Option<PathBuf>,

    /// Proposals per round
    #[arg(long, short = 'n', value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub candidates: Option<u64>,

    /// Rounds at most (later rounds see earlier results) [default: 1]
    #[arg(long, value_name = "R", value_parser = clap::value_parser!(u32).range(1..=100))]
    pub rounds: Option<u32>,

    /// The proposing model, PROVIDER:NAME [default: $MODLEARN_MODEL, else local:smollm2-135m]
    #[arg(long, value_name = "PROVIDER:NAME")]
    pub model: Option<String>,

    /// Base URL of the model API (OpenAI-compatible servers, proxies); needs an openai: or
    /// anthropic: --model
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,

    /// Time limit of one request to the model, its answer included; a request past it is tried
    /// again, as a dropped connection is [default: 120s]
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub request_timeout: Option<Duration>,

    /// Requests in flight at most [default: --candidates]
    #[arg(long, value_name = "C", value_parser = clap::value_parser!(u64).range(1..=256))]
    pub concurrency: Option<u64>,

    /// Where to write the run [default: reports/<slug>-<timestamp>]
    #[arg(long, value_name = "DIR")]
    pub run_dir: Option<PathBuf>,

    /// Stop asking for proposals once this many US dollars are spent
    #[arg(long, value_name = "USD")]
    pub max_usd: Option<f64>,

    /// Copy the selected candidate here if it passes
    #[arg(long, value_name = "PATH")]
    pub promote: Option<PathBuf>,

    /// Response cache directory [default: ~/.cache/modlearn/responses]
    #[arg(long, value_name = "DIR", conflicts_with = "no_cache")]
    pub cache_dir: Option<PathBuf>,

    /// Reuse no answer of earlier runs: this run's answers are cached in RUN-DIR/responses, so
    /// --resume still asks nothing twice
    #[arg(long)]
    pub no_cache: bool,

    /// Draw another set of samples: candidate k gets sampling seed SEED*1000000+k (cached answers
    /// are per seed) [default: 0]
    #[arg(long, value_name = "SEED")]
    pub seed: Option<u64>,

    /// Price overrides: JSON {"model-prefix": {"input": USD/1M, "output": USD/1M}}
    #[arg(long, value_name = "FILE")]
    pub prices: Option<PathBuf>,

    /// Output token cap per proposal [default: 4096; 768 for local models]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(16..=200_000))]
    pub max_tokens: Option<u32>,

    /// Sampling temperature
    #[arg(long, value_name = "T", default_value_t = 0.7)]
    pub temperature: f32,

    #[command(flatten)]
    pub proposing: ProposerArgs,

    /// Print the run's report.json on stdout instead of the table
    #[arg(long)]
    pub json: bool,

    /// Print the table only, not the failed checks of the best candidate when none passed
    #[arg(short, long)]
    pub quiet: bool,

    #[command(flatten)]
    pub eval_model: EvalModelArgs,

    #[command(flatten)]
    pub engine: EngineArgs,
}

/// How each candidate is asked for (`run` and every `compare` job).
#[derive(Debug, Args, Clone)]
pub struct ProposerArgs {
    /// How each candidate is proposed: one completion, or an agent session in which the model reads
    /// the run directory with tools (list, read, search) and calls write_candidate; agent needs an
    /// openai: or anthropic: model with tool calls [default: completion]
    #[arg(long, value_name = "KIND", value_enum)]
    pub proposer: Option<ProposerKind>,

    /// Model turns per candidate with --proposer agent [default: 12]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100))]
    pub agent_steps: Option<u32>,
}

/// How `modlearn run` asks for each candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProposerKind {
    // No doc comments here: clap would show them and switch `run --help` to its long layout.
    #[allow(missing_docs)]
    Completion,
    #[allow(missing_docs)]
    Agent,
}

/// `modlearn validate`.
#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// The spec to check
    #[arg(value_name = "SPEC")]
    pub spec: PathBuf,

    /// Also evaluate built-in wrong mods against the spec and list each that passes every check
    /// that ran, with a table of which requirement each check covers
    #[arg(long)]
    pub mutants: bool,

    /// Print the result as JSON on stdout instead of text (with --mutants, the mutant report)
    #[arg(long)]
    pub json: bool,

    #[command(flatten)]
    pub eval_model: EvalModelArgs,

    /// Response cache directory for --eval-model turns [default: ~/.cache/modlearn/responses]
    #[arg(long, value_name = "DIR", requires = "eval_model")]
    pub cache_dir: Option<PathBuf>,
}

const COMPARE_AFTER_HELP: &str = "Every (model, spec, repeat) job is a `modlearn run` in its own directory under --out (runs/<model>/<spec>/r<k>); a rerun with the same --out skips finished jobs. Each job draws all its candidates of a round (no early stop on a perfect score), so pass@k has a fixed n and the first candidate is candidate 001. Writes leaderboard.json, leaderboard.md, leaderboard.html and leaderboard.junit.xml. With --shard I/N only that slice runs and shard.json records it; combine the shard directories with `modlearn merge`.

Exit status: 0 when every job finished, 1 when the budget stopped some, 2 on a usage, spec or configuration error, or when a model's API refuses the key, 3 when a job failed because its proposals could not be obtained (it is left out of the leaderboard and runs again with the same --out).";

/// `modlearn compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The ModLearningSpecs to compare the models on
    #[arg(value_name = "SPEC", required = true)]
    pub specs: Vec<PathBuf>,

    /// A model to compare, PROVIDER:NAME; give one --model per model
    #[arg(long = "model", value_name = "PROVIDER:NAME", required = true)]
    pub models: Vec<String>,

    /// Proposals per round
    #[arg(long, short = 'n', value_name = "N", default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub candidates: u64,

    /// Rounds at most (later rounds see earlier results)
    #[arg(long, value_name = "R", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub rounds: u32,

    /// Runs per (model, spec), each with fresh sampling seeds; more repeats give the paired test more power
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub repeat: u64,

    /// Base URL of the model API (OpenAI-compatible servers, proxies)
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,

    /// Where to write the comparison [default: reports/compare-<timestamp>]
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,

    /// Stop asking for proposals once this many US dollars are spent, all jobs together
    #[arg(long, value_name = "USD")]
    pub max_usd: Option<f64>,

    /// Run only slice I of N of the job list (for CI matrices and indexed jobs)
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,

    /// Model requests in flight at most, and jobs running at once at most, over all jobs
    #[arg(long, value_name = "C", default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub concurrency: u64,

    /// Response cache directory [default: ~/.cache/modlearn/responses]
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,

    /// Price overrides: JSON {"model-prefix": {"input": USD/1M, "output": USD/1M}}
    #[arg(long, value_name = "FILE")]
    pub prices: Option<PathBuf>,

    /// Output token cap per proposal
    #[arg(long, value_name = "N", default_value_t = 4096, value_parser = clap::value_parser!(u32).range(16..=200_000))]
    pub max_tokens: u32,

    /// Sampling temperature
    #[arg(long, value_name = "T", default_value_t = 0.7)]
    pub temperature: f32,

    /// Print leaderboard.json (with --shard: shard.json) on stdout instead of the summary
    #[arg(long)]
    pub json: bool,

    #[command(flatten)]
    pub proposing: ProposerArgs,

    #[command(flatten)]
    pub eval_model: EvalModelArgs,

    #[command(flatten)]
    pub engine: EngineArgs,
}

/// `modlearn merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The --out directories of every shard of one comparison
    #[arg(value_name = "DIR", required = true)]
    pub dirs: Vec<PathBuf>,

    /// Where to write the merged leaderboard [default: reports/compare-merged-<timestamp>]
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,

    /// Print leaderboard.json on stdout instead of the summary
    #[arg(long)]
    pub json: bool,
}

const CHECK_AFTER_HELP: &str = "A directory is walked recursively: every .js, .mjs, .ts and .tsx file is a mod (not .d.ts files, not names starting with '.', not node_modules), in path order. Each mod is loaded in its own engine under each --profile, then disposed; its diagnostics (without paths, positions or stacks) and what it registered are compared with the snapshot, whose keys are paths relative to the snapshot file's directory.

The snapshot records the profiles and roots it was taken with; a check without --profile or MOD-OR-DIR uses them. A check of part of it (a subdirectory, fewer profiles) compares only that part, and --accept refuses it, since writing it would drop the rest.

Exit status: 0 when nothing drifted (or with --accept, once the snapshot is written), 1 when a mod changed, is new or vanished, 2 on a usage error, a missing or invalid snapshot, or --accept on a partial check.";

/// `modlearn check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Mod files, or directories walked for mod files [default: the snapshot's roots]
    #[arg(value_name = "MOD-OR-DIR")]
    pub mods: Vec<PathBuf>,

    /// The snapshot file (JSON; commit it beside the mods)
    #[arg(long, value_name = "FILE")]
    pub snapshot: PathBuf,

    /// Write what the mods show now as the snapshot instead of comparing
    #[arg(long)]
    pub accept: bool,

    /// Capability profile to load every mod under; repeat for several [default: the snapshot's
    /// profiles, else engine]
    #[arg(long = "profile", value_name = "NAME", value_parser = clap::builder::PossibleValuesParser::new(modlearn_check::PROFILES))]
    pub profiles: Vec<String>,

    /// Also write JUnit XML here: one test case per mod and profile
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,

    /// Print the drift (or, with --accept, what was accepted) as JSON on stdout instead of text
    #[arg(long)]
    pub json: bool,

    #[command(flatten)]
    pub engine: EngineArgs,
}

/// `modlearn report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// A finished run's directory (written by `modlearn run` or `modlearn eval`, with report.json)
    #[arg(value_name = "RUN-DIR")]
    pub run_dir: PathBuf,

    /// Print the paths of the files written as a JSON array instead of one line each
    #[arg(long)]
    pub json: bool,
}

/// `modlearn guide`.
#[derive(Debug, Args)]
pub struct GuideArgs {
    /// A run's directory, finished or stopped (written by `modlearn run` or `modlearn eval`, with history.json)
    #[arg(value_name = "RUN-DIR")]
    pub run_dir: PathBuf,

    /// Print the paths of the files written as a JSON array instead of one line each
    #[arg(long)]
    pub json: bool,
}

/// `modlearn bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// The spec to evaluate against
    #[arg(value_name = "SPEC")]
    pub spec: PathBuf,

    /// Candidate mod files; each is evaluated `--copies` times
    #[arg(value_name = "CANDIDATE", required = true)]
    pub candidates: Vec<PathBuf>,

    /// How many times each candidate is evaluated
    #[arg(long, value_name = "K", default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=10000))]
    pub copies: u64,

    /// How many times the whole set is timed, on each side; the figures are the medians
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=100))]
    pub rounds: u64,

    /// Also time the same files under Node.js with a Letta-style in-process harness (needs `--trust-candidates`)
    #[arg(long)]
    pub node_baseline: bool,

    /// Also time Letta Code's own harness (`runModLearning`, under Bun) on the same files, from this letta-code checkout (needs `--trust-candidates`)
    #[arg(long, value_name = "DIR")]
    pub letta_baseline: Option<PathBuf>,

    /// The candidates are yours and safe to run unsandboxed: the baselines run them with this machine's full access
    #[arg(long)]
    pub trust_candidates: bool,

    /// Print the measurements as JSON on stdout instead of sentences
    #[arg(long)]
    pub json: bool,

    #[command(flatten)]
    pub engine: EngineArgs,
}

fn parse_duration(text: &str) -> Result<Duration, String> {
    let duration = humantime::parse_duration(text).map_err(|error| format!("{error} (examples: 2s, 500ms, 1m)"))?;
    if duration < Duration::from_millis(10) {
        return Err("must be at least 10ms".to_owned());
    }
    if duration > Duration::from_secs(600) {
        return Err("must be at most 10m".to_owned());
    }
    Ok(duration)
}
