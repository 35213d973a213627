//! `modlearn bench`: evaluation throughput, latency and memory, each
//! reported against a baseline measured in the same run.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use modlearn_engine::worker::ProcessStat;
use modlearn_engine::{CandidateFile, Engine};
use modlearn_runner::evaluate_candidates;
use modlearn_spec::resolve_scenarios;

use crate::cli::BenchArgs;
use crate::exit::{CliError, SUCCESS};

mod letta_baseline;
mod node_baseline;

/// Letta Code's harness on the uv-pip env, as measured by its authors
/// (Bun 1.4, 2 cores): the reference point.
const LETTA_MS_PER_CANDIDATE: f64 = 56.0;

pub fn run(args: BenchArgs) -> Result<u8, CliError> {
    let unsandboxed = if args.node_baseline { Some("--node-baseline") } else { args.letta_baseline.as_ref().map(|_| "--letta-baseline") };
    if let (Some(flag), false) = (unsandboxed, args.trust_candidates) {
        return Err(CliError::usage(format!("`{flag}` runs the candidates outside modlearn's sandbox, with this machine's full access"))
            .hint("pass `--trust-candidates` too if you wrote these files yourself; never for model-written ones"));
    }
    let loaded = super::load_spec(&args.spec)?;
    super::check_candidates(&args.candidates)?;
    let scenarios = resolve_scenarios(&loaded.spec);
    let settings = super::engine_options(&args.engine);
    let assertions: usize = scenarios.iter().map(|s| s.assertions.len()).sum();

    let paths: Vec<PathBuf> = (0..args.copies).flat_map(|_| args.candidates.iter().cloned()).collect();
    // Sentences as they are measured (a long bench shows how far it got); with --json one object at the end.
    let say = |line: String| {
        if !args.json {
            println!("{line}");
        }
    };
    say(format!(
        "bench: {} candidate file(s) x {} copies = {} evaluations a round, {} round(s), {} job(s); spec `{}` ({} scenarios, {assertions} assertions)",
        args.candidates.len(),
        args.copies,
        paths.len(),
        args.rounds,
        settings.jobs,
        args.spec.display(),
        scenarios.len()
    ));

    // Memory first, while the process holds nothing else.
    let (before, alive) = memory_with_engines(&settings.engine, &args.candidates[0], 8)?;
    say(format!(
        "memory: 8 engines alive with a candidate loaded: {:.1} MB (proportional set size of modlearn and its engine processes; before: {:.1} MB; engines add {:.1} MB; target < 200 MB)",
        mb(alive),
        mb(before),
        mb(alive.saturating_sub(before))
    ));

    // Warm up once so one-time process costs do not count against either side.
    evaluate_candidates(&scenarios, &paths[..1], &settings, &|_| {});
    drop(modlearn_engine::worker::take_ready_times());
    // The machine's speed drifts over seconds (a VM's neighbours): each side is timed over
    // several rounds and compared by its median round.
    let mut per_round = Vec::with_capacity(args.rounds as usize);
    let mut latencies = Vec::new();
    for _ in 0..args.rounds {
        let started = Instant::now();
        let evaluations = evaluate_candidates(&scenarios, &paths, &settings, &|_| {});
        per_round.push(started.elapsed() / paths.len() as u32);
        latencies.extend(evaluations.iter().map(|e| e.elapsed));
    }
    let mut ready = modlearn_engine::worker::take_ready_times();
    ready.sort();
    latencies.sort();
    let rounds = Rounds::of(per_round);
    let per_candidate = ms(rounds.median);
    let (p50, p95, max) =
        (ms(percentile(&latencies, 0.50)), ms(percentile(&latencies, 0.95)), ms(*latencies.last().unwrap_or(&Duration::ZERO)));
    say(format!(
        "modlearn: {:.1} candidates/s; wall time per candidate {per_candidate:.2} ms ({}); latency p50 {p50:.1} ms, p95 {p95:.1} ms, max {max:.1} ms",
        1000.0 / per_candidate,
        rounds.spread(),
    ));

    let back_to_back = engine_startup(&settings.engine, 25)?;
    say(format!(
        "  engine ready: {:.2} ms median over the run's {} engines, from asking to an engine a candidate can load into \
         (one per candidate, forked from the booted zygote ahead of need; target <= 2 ms); {:.2} ms asked for back to back",
        ms(percentile(&ready, 0.5)),
        ready.len(),
        ms(back_to_back)
    ));
    say(format!(
        "vs Letta Code's harness ({LETTA_MS_PER_CANDIDATE} ms per candidate, Bun 1.4, 2 cores, measured by Letta): ratio {:.3} (target <= 0.2)",
        per_candidate / LETTA_MS_PER_CANDIDATE
    ));
    let mut letta = serde_json::Value::Null;
    if let Some(letta_dir) = &args.letta_baseline {
        match letta_baseline::measure(letta_dir, &args.spec, &args.candidates, args.copies as usize, args.rounds) {
            Ok(letta_rounds) => {
                let letta_rounds = Rounds::of(letta_rounds.into_iter().map(|ms| Duration::from_secs_f64(ms / 1000.0)).collect());
                let letta_ms = ms(letta_rounds.median);
                say(format!(
                    "vs Letta Code's own harness (runModLearning under Bun), same files, same run: {letta_ms:.2} ms per candidate ({}); ratio {:.3} (target <= 0.1)",
                    letta_rounds.spread(),
                    per_candidate / letta_ms
                ));
                letta = serde_json::json!({ "msPerCandidate": letta_ms, "roundsMs": letta_rounds.each_ms(), "ratio": per_candidate / letta_ms });
            }
            Err(error) => {
                say(format!("Letta baseline: not measured ({error})"));
                letta = serde_json::json!({ "error": error });
            }
        }
    }
    let mut node = serde_json::Value::Null;
    if args.node_baseline {
        match node_baseline::measure(&args.candidates, &scenarios, args.copies as usize, settings.jobs) {
            Ok(node_ms) => {
                say(format!(
                    "vs Letta-style in-process harness under Node.js, same files, same run: {node_ms:.2} ms per candidate; ratio {:.3}",
                    per_candidate / node_ms
                ));
                node = serde_json::json!({ "msPerCandidate": node_ms, "ratio": per_candidate / node_ms });
            }
            Err(error) => {
                say(format!("node baseline: not measured ({error})"));
                node = serde_json::json!({ "error": error });
            }
        }
    }
    if args.json {
        let report = serde_json::json!({
            "spec": args.spec.display().to_string(),
            "candidates": args.candidates.len(),
            "copies": args.copies,
            "evaluations": paths.len(),
            "rounds": args.rounds,
            "jobs": settings.jobs,
            "memory": { "engines": 8, "proportionalMb": mb(alive), "beforeMb": mb(before) },
            "candidatesPerSecond": 1000.0 / per_candidate,
            "msPerCandidate": per_candidate,
            "msPerCandidateRounds": rounds.each_ms(),
            "latencyMs": { "p50": p50, "p95": p95, "max": max },
            "engineReadyMs": { "median": ms(percentile(&ready, 0.5)), "engines": ready.len(), "backToBack": ms(back_to_back) },
            "lettaRatio": per_candidate / LETTA_MS_PER_CANDIDATE,
            "lettaBaseline": letta,
            "nodeBaseline": node,
        });
        println!("{}", serde_json::to_string_pretty(&report).expect("bench report serializes"));
    }

    Ok(SUCCESS)
}

/// The time per candidate of each round, and their median.
struct Rounds {
    each: Vec<Duration>,
    median: Duration,
}

impl Rounds {
    fn of(each: Vec<Duration>) -> Rounds {
        let mut sorted = each.clone();
        sorted.sort();
        Rounds { median: percentile(&sorted, 0.5), each }
    }

    /// How the rounds spread, for the sentence after the median.
    fn spread(&self) -> String {
        let (fastest, slowest) = (self.each.iter().min().copied().unwrap_or_default(), self.each.iter().max().copied().unwrap_or_default());
        match self.each.len() {
            1 => "one round".to_owned(),
            n => format!("median of {n} rounds, {:.2} to {:.2}", ms(fastest), ms(slowest)),
        }
    }

    fn each_ms(&self) -> Vec<f64> {
        self.each.iter().copied().map(ms).collect()
    }
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

fn mb(bytes: u64) -> f64 {
    bytes as f64 / 1_000_000.0
}

fn percentile(sorted: &[Duration], fraction: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let index = ((sorted.len() - 1) as f64 * fraction).round() as usize;
    sorted[index]
}

/// Median time until a new engine is ready to load a candidate, asked for one after another
/// (so a spare forked ahead has had no time to get ready).
fn engine_startup(options: &modlearn_engine::EngineOptions, count: u32) -> Result<Duration, CliError> {
    let mut times = Vec::with_capacity(count as usize);
    for _ in 0..count {
        let started = Instant::now();
        let engine = Engine::new(options.clone()).map_err(|error| CliError::usage(error.to_string()))?;
        times.push(started.elapsed());
        drop(engine);
    }
    times.sort();
    Ok(percentile(&times, 0.5))
}

/// Resident memory before and while `count` engines hold the candidate.
fn memory_with_engines(
    options: &modlearn_engine::EngineOptions,
    candidate: &std::path::Path,
    count: usize,
) -> Result<(u64, u64), CliError> {
    let source = std::fs::read_to_string(candidate).map_err(|error| CliError::usage(error.to_string()))?;
    // The zygote (and its share of the pages every engine shares) counts in `before`.
    drop(Engine::new(options.clone()).map_err(|error| CliError::usage(error.to_string()))?);
    let before = proportional_bytes(&[]);
    let mut engines = Vec::with_capacity(count);
    for _ in 0..count {
        let mut engine = Engine::new(options.clone()).map_err(|error| CliError::usage(error.to_string()))?;
        engine.new_generation().map_err(|error| CliError::usage(error.to_string()))?;
        engine.load(&CandidateFile { path: candidate, source: &source }).map_err(|error| CliError::usage(error.to_string()))?;
        engines.push(engine);
    }
    let pids: Vec<u32> = engines.iter().filter_map(Engine::process_id).collect();
    let alive = proportional_bytes(&pids);
    drop(engines);
    Ok((before, alive))
}

/// Memory of this process, its engine zygotes and every process they forked (the engines
/// `pids` and a spare waiting for its candidate): the sum of their proportional set sizes (a
/// page shared by n processes counts 1/n in each), so copy-on-write pages the engines share
/// with their zygote count once.
fn proportional_bytes(pids: &[u32]) -> u64 {
    let zygotes = modlearn_engine::worker::zygote_process_ids();
    let mut all: Vec<u32> = zygotes.iter().copied().chain(pids.iter().copied()).chain(children_of(&zygotes)).collect();
    all.sort_unstable();
    all.dedup();
    pss_bytes("self") + all.iter().map(|pid| pss_bytes(&pid.to_string())).sum::<u64>()
}

/// The processes whose parent is one of `parents` (Linux; none elsewhere).
fn children_of(parents: &[u32]) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| ProcessStat::read(*pid).is_some_and(|stat| parents.contains(&stat.parent)))
        .collect()
}

/// `Pss:` of /proc/PID/smaps_rollup (Linux); 0 elsewhere.
fn pss_bytes(pid: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup"))
        .ok()
        .and_then(|rollup| {
            rollup
                .lines()
                .find(|line| line.starts_with("Pss:"))
                .and_then(|line| line.split_whitespace().nth(1).and_then(|kb| kb.parse::<u64>().ok()))
        })
        .map_or(0, |kb| kb * 1024)
}
