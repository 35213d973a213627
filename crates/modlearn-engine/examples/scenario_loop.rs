//! Where a scenario's time goes: one candidate through the steps of a Letta scenario
//! (new generation, load, a `tool_start` emission, snapshot, dispose, console), ten
//! scenarios per engine as in a uv-pip-sized spec, in this process or (with `--worker`) in
//! engine processes forked from a zygote, as modlearn runs them.
//!
//! `cargo run --release --example scenario_loop -- CANDIDATE [SCENARIOS] [--worker]`
#![allow(clippy::print_stdout, reason = "example output")]

use std::path::PathBuf;
use std::time::{Duration, Instant};

use modlearn_engine::worker::ProcessStat;
use modlearn_engine::{CandidateFile, Engine};

const SCENARIOS_PER_ENGINE: usize = 10;
const STEPS: [&str; 6] = ["new generation", "load", "emit", "snapshot", "dispose", "console"];

fn main() {
    modlearn_engine::worker::serve_if_worker();
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    if arguments.iter().any(|argument| argument == "--worker") {
        modlearn_engine::worker::isolate_engines(std::env::current_exe().expect("the example's own path"));
    }
    let mut positional = arguments.iter().filter(|argument| !argument.starts_with("--"));
    let path = PathBuf::from(positional.next().expect("usage: scenario_loop CANDIDATE [SCENARIOS] [--worker]"));
    let count: usize = positional.next().map_or(300, |count| count.parse().expect("SCENARIOS is a number"));
    // One engine for every scenario: a profile of the steady state without engine starts.
    let one_engine = arguments.iter().any(|argument| argument == "--one-engine");
    let source = std::fs::read_to_string(&path).expect("a readable candidate");
    let event = serde_json::json!({ "toolName": "Bash", "args": { "command": "pip install requests" }, "toolCallId": "t1" });

    let mut steps = [Duration::ZERO; STEPS.len()];
    let mut first_steps = [Duration::ZERO; STEPS.len()];
    let mut by_index = [Duration::ZERO; SCENARIOS_PER_ENGINE];
    let mut faults = [0u64; SCENARIOS_PER_ENGINE];
    let mut starting = Duration::ZERO;
    let mut engine = None;
    for scenario in 0..count {
        if scenario == 0 || (scenario % SCENARIOS_PER_ENGINE == 0 && !one_engine) {
            let started = Instant::now();
            engine = Some(Engine::new(Default::default()).expect("an engine"));
            starting += started.elapsed();
        }
        let engine = engine.as_mut().expect("an engine");
        let candidate = CandidateFile { path: &path, source: &source };
        let scenario_started = Instant::now();
        let faults_before = engine.process_id().map_or(0, minor_faults);
        let mut timed = |step: usize, run: &mut dyn FnMut()| {
            let started = Instant::now();
            run();
            steps[step] += started.elapsed();
            if scenario % SCENARIOS_PER_ENGINE == 0 {
                first_steps[step] += started.elapsed();
            }
        };
        timed(0, &mut || {
            engine.new_generation().expect("new generation");
        });
        timed(1, &mut || drop(engine.load(&candidate).expect("load")));
        timed(2, &mut || drop(engine.emit("tool_start", &event).expect("emit")));
        timed(3, &mut || drop(engine.snapshot().expect("snapshot")));
        timed(4, &mut || drop(engine.dispose().expect("dispose")));
        timed(5, &mut || drop(engine.take_console().expect("console")));
        by_index[scenario % SCENARIOS_PER_ENGINE] += scenario_started.elapsed();
        faults[scenario % SCENARIOS_PER_ENGINE] += engine.process_id().map_or(0, minor_faults) - faults_before;
    }
    let micros = |total: Duration, times: usize| total.as_secs_f64() * 1e6 / times.max(1) as f64;
    let engines = count.div_ceil(SCENARIOS_PER_ENGINE);
    // The first engine of a worker run also boots the zygote.
    println!("engine start: {:.0} us", micros(starting, engines));
    for (name, total) in STEPS.iter().zip(steps) {
        println!("{name}: {:.0} us", micros(total, count));
    }
    let first: Vec<String> = STEPS.iter().zip(first_steps).map(|(name, total)| format!("{name} {:.0}", micros(total, engines))).collect();
    println!("first scenario of an engine, us: {}", first.join(", "));
    let per_index: Vec<String> = by_index.iter().map(|total| format!("{:.0}", micros(*total, engines))).collect();
    println!("scenario 1..{SCENARIOS_PER_ENGINE} of an engine, us: {}", per_index.join(" "));
    if faults.iter().any(|&count| count > 0) {
        let per_index: Vec<String> = faults.iter().map(|count| (count / engines as u64).to_string()).collect();
        println!("scenario 1..{SCENARIOS_PER_ENGINE} of an engine, page faults of its process: {}", per_index.join(" "));
    }
}

/// Minor page faults of process `pid` so far (Linux; 0 elsewhere).
fn minor_faults(pid: u32) -> u64 {
    ProcessStat::read(pid).map_or(0, |stat| stat.minor_faults)
}
