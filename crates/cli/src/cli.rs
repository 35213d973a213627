//! Command-line arguments (clap). Doc comments here are the `--help` text.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};

/// Learn and evaluate agent-harness mods.
///
/// modlearn loads each candidate mod in its own isolated JavaScript engine
/// (no filesystem, network, environment or process access; time and memory
/// limits), runs a spec's scenarios and assertions against it, and writes a
/// report, history and proposer guide.
#[derive(Debug, Parser)]
#[command(name = "modlearn", version, propagate_version = true, max_term_width = 100)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Ask a model for candidate mods in rounds, evaluate each, keep the best
    #[command(after_help = RUN_AFTER_HELP)]
    Run(RunArgs),
    /// Evaluate existing candidate mod files against a spec, select the best
    #[command(after_help = "Exit status: 0 when the selected candidate passes, 1 when none passes, 2 on a usage or spec error.")]
    Eval(EvalArgs),
    /// Check a spec without running anything
    #[command(after_help = "Exit status: 0 when the spec is valid (warnings go to stderr), 2 with every problem listed otherwise.")]
    Validate(ValidateArgs),
    /// Print the JSON Schema of the spec format
    Schema,
    /// Measure evaluation throughput and latency
    Bench(BenchArgs),
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

    /// Candidates evaluated at once [default: the number of cores]
    #[arg(long, short, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=256))]
    pub jobs: Option<u64>,
}

/// `modlearn eval`.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// The ModLearningSpec (Letta Code env files load unchanged)
    #[arg(value_name = "SPEC")]
    pub spec: PathBuf,

    /// Candidate mod files (.js, .mjs, .ts, .tsx)
    #[arg(value_name = "CANDIDATE", required = true)]
    pub candidates: Vec<PathBuf>,

    /// Where to write the run [default: reports/<slug>-<timestamp>]
    #[arg(long, value_name = "DIR")]
    pub run_dir: Option<PathBuf>,

    /// Copy the selected candidate here if it passes
    #[arg(long, value_name = "PATH")]
    pub promote: Option<PathBuf>,

    /// Print the report as JSON on stdout instead of the table
    #[arg(long)]
    pub json: bool,

    #[command(flatten)]
    pub engine: EngineArgs,
}

const RUN_AFTER_HELP: &str = "Models: openai:NAME (OPENAI_API_KEY, OPENAI_BASE_URL; any OpenAI-compatible server such as vLLM, llama.cpp or Ollama via --base-url), anthropic:NAME (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL), local:smollm2-135m (embedded 135M demo model; the default when no model is configured; it rarely writes a passing mod). MODLEARN_MODEL sets the default model.

Exit status: 0 when the selected candidate passes, 1 when none passes, 2 on a usage, spec or configuration error.";

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

    /// Base URL of the model API (OpenAI-compatible servers, proxies)
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,

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
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,

    /// Price overrides: JSON {"model-prefix": {"input": USD/1M, "output": USD/1M}}
    #[arg(long, value_name = "FILE")]
    pub prices: Option<PathBuf>,

    /// Output token cap per proposal [default: 4096; 768 for local models]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(16..=200_000))]
    pub max_tokens: Option<u32>,

    /// Sampling temperature
    #[arg(long, value_name = "T", default_value_t = 0.7)]
    pub temperature: f32,

    /// Print the report as JSON on stdout instead of the table
    #[arg(long)]
    pub json: bool,

    #[command(flatten)]
    pub engine: EngineArgs,
}

/// `modlearn validate`.
#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// The spec to check
    #[arg(value_name = "SPEC")]
    pub spec: PathBuf,
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

    /// Also time the same files under Node.js with a Letta-style in-process harness
    #[arg(long)]
    pub node_baseline: bool,

    #[command(flatten)]
    pub engine: EngineArgs,
}

fn parse_duration(text: &str) -> Result<Duration, String> {
    let duration = humantime::parse_duration(text).map_err(|error| format!("{error} (examples: 2s, 500ms, 1m)"))?;
    if duration < Duration::from_millis(10) {
        return Err("must be at least 10ms".to_owned());
    }
    Ok(duration)
}
