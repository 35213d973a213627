//! Engines in worker processes. This test binary is its own zygote
//! executable (`harness = false`), as the `modlearn` binary is in use.
#![allow(clippy::print_stdout, reason = "test progress")]

use std::time::{Duration, Instant};

use modlearn_engine::protocol::{HostMethod, Operation};
use modlearn_engine::{Batch, CandidateFile, EmitOutcome, Engine, EngineError, EngineOptions, StopFault};
use serde_json::json;

fn options() -> EngineOptions {
    EngineOptions { step_timeout: Duration::from_millis(200), ..EngineOptions::default() }
}

fn load(engine: &mut Engine, dir: &std::path::Path, source: &str) {
    let path = dir.join("mod.js");
    std::fs::write(&path, source).unwrap();
    engine.new_generation().unwrap();
    let loaded = engine.load(&CandidateFile { path: &path, source }).unwrap();
    assert!(loaded.loaded, "{:?}", engine.snapshot().unwrap().diagnostics);
}

fn tool_start() -> serde_json::Value {
    json!({"agentId": "a", "conversationId": "c", "toolCallId": "t", "toolName": "Bash", "args": {"command": "ls"}})
}

fn an_engine_runs_in_a_process_of_its_own(dir: &std::path::Path) {
    let mut engine = Engine::new(options()).unwrap();
    let pid = engine.process_id().expect("a worker process");
    assert_ne!(pid, std::process::id());
    load(
        &mut engine,
        dir,
        "export function activate(letta) { letta.events.on('tool_start', (e) => ({ args: { ...e.args, seen: true } })); }",
    );
    let EmitOutcome::Emitted { event, .. } = engine.emit("tool_start", &tool_start()).unwrap() else { panic!("rejected") };
    assert_eq!(event["args"]["seen"], true);
    engine.dispose().unwrap();
}

fn the_protocol_tables_agree() {
    let mut engine = Engine::new(options()).unwrap();
    let (mut methods, mut operations) = engine.protocol_tables().unwrap();
    let mut rust_methods: Vec<String> = HostMethod::ALL.iter().map(|m| m.as_str().to_owned()).collect();
    let mut rust_operations: Vec<String> = Operation::NAMES.iter().map(|&name| name.to_owned()).collect();
    for list in [&mut methods, &mut operations, &mut rust_methods, &mut rust_operations] {
        list.sort();
    }
    assert_eq!(methods, rust_methods, "host methods in js/protocol.js and src/protocol.rs");
    assert_eq!(operations, rust_operations, "operations in js/operations.js and src/protocol.rs");
}

fn a_native_loop_is_killed_from_outside(dir: &std::path::Path) {
    let mut engine = Engine::new(options()).unwrap();
    // includes() over 2^53 elements never checks for termination: only the wall-clock kill ends it.
    load(
        &mut engine,
        dir,
        "export function activate(letta) { letta.events.on('tool_start', () => { Array.prototype.includes.call({ length: 2 ** 53 - 1 }, 1); }); }",
    );
    let started = Instant::now();
    let error = engine.emit("tool_start", &tool_start()).unwrap_err();
    assert!(matches!(&error, EngineError::Stopped { fault: StopFault::Timeout, phase, .. } if phase == "event"), "{error:?}");
    assert!(started.elapsed() < Duration::from_secs(5), "killed after {:?}", started.elapsed());
    // The engine is gone, and says why to every later request.
    assert_eq!(engine.snapshot().unwrap_err().stop_fault(), Some(StopFault::Timeout));
    // A new engine is unaffected.
    an_engine_runs_in_a_process_of_its_own(dir);
}

/// Whether the engine's own budget stops mod code or the kill from outside does (code that
/// ignores termination), in any phase, the request gets the same error and the engine is gone:
/// which came first is a race no verdict may hinge on.
fn a_stop_from_inside_and_a_kill_from_outside_are_one_outcome(dir: &std::path::Path) {
    let stopped = |body: &str, emit: bool| {
        let mut engine = Engine::new(options()).unwrap();
        let source =
            format!("export function activate(letta) {{ letta.events.on('tool_start', () => {{ {body} }}); return () => {{ {body} }}; }}");
        let path = dir.join("stops.js");
        std::fs::write(&path, &source).unwrap();
        engine.new_generation().unwrap();
        assert!(engine.load(&CandidateFile { path: &path, source: &source }).unwrap().loaded);
        let error = if emit { engine.emit("tool_start", &tool_start()).map(drop) } else { engine.dispose().map(drop) }.unwrap_err();
        let later = engine.snapshot().unwrap_err();
        (error.to_string(), error.stop_fault(), later.to_string())
    };
    for emit in [true, false] {
        let inside = stopped("for (;;) {}", emit);
        let outside = stopped("Array.prototype.includes.call({ length: 2 ** 53 - 1 }, 1);", emit);
        assert_eq!(inside, outside);
        assert_eq!(inside.1, Some(StopFault::Timeout));
        assert_eq!(inside.0, inside.2, "every later request gets the stop");
        let phase = if emit { "event" } else { "dispose" };
        assert_eq!(inside.0, format!("mod code in the {phase} phase did not finish within its 200 ms budget; the engine was stopped"));
    }
}

/// A batch's replies are those of its requests run one by one, and once the process is killed
/// in one, that one and every later one get why, and the earlier ones keep their replies.
fn a_batch_answers_as_its_requests_would_alone(dir: &std::path::Path) {
    let source = "let calls = 0; export function activate(letta) { letta.events.on('tool_start', () => { \
        if (++calls === 2) Array.prototype.includes.call({ length: 2 ** 53 - 1 }, 1); \
        return { args: { calls } }; }); }";
    let path = dir.join("batched.js");
    std::fs::write(&path, source).unwrap();
    let candidate = CandidateFile { path: &path, source };
    let mut engine = Engine::new(options()).unwrap();
    let mut batch = Batch::new();
    let generation = batch.new_generation();
    let load = batch.load(&candidate, false);
    let first = batch.emit_compared("tool_start", &tool_start(), None);
    let second = batch.emit_compared("tool_start", &tool_start(), None);
    let snapshot = batch.snapshot();
    let started = Instant::now();
    let mut replies = engine.run(batch);
    assert!(started.elapsed() < Duration::from_secs(5), "killed after {:?}", started.elapsed());
    assert!(replies.take(generation).unwrap() > 0);
    assert!(replies.take(load).unwrap().loaded);
    let EmitOutcome::Emitted { event, .. } = replies.take(first).unwrap() else { panic!("rejected") };
    assert_eq!(event["args"]["calls"], 1);
    let error = replies.take(second).unwrap_err();
    assert!(matches!(&error, EngineError::Stopped { fault: StopFault::Timeout, phase, .. } if phase == "event"), "{error:?}");
    assert_eq!(replies.take(snapshot).unwrap_err().to_string(), error.to_string());
    assert_eq!(engine.snapshot().unwrap_err().stop_fault(), Some(StopFault::Timeout));
}

fn engines_start_fast() {
    let count = 20;
    let started = Instant::now();
    for _ in 0..count {
        drop(Engine::new(options()).unwrap());
    }
    println!("engine start: {:.2} ms", started.elapsed().as_secs_f64() * 1000.0 / count as f64);
}

fn main() {
    modlearn_engine::worker::serve_if_worker();
    modlearn_engine::worker::isolate_engines(std::env::current_exe().unwrap());
    let dir = tempfile::tempdir().unwrap();
    an_engine_runs_in_a_process_of_its_own(dir.path());
    println!("test an_engine_runs_in_a_process_of_its_own ... ok");
    the_protocol_tables_agree();
    println!("test the_protocol_tables_agree ... ok");
    a_native_loop_is_killed_from_outside(dir.path());
    println!("test a_native_loop_is_killed_from_outside ... ok");
    a_batch_answers_as_its_requests_would_alone(dir.path());
    println!("test a_batch_answers_as_its_requests_would_alone ... ok");
    a_stop_from_inside_and_a_kill_from_outside_are_one_outcome(dir.path());
    println!("test a_stop_from_inside_and_a_kill_from_outside_are_one_outcome ... ok");
    engines_start_fast();
    println!("test engines_start_fast ... ok");
    println!("\ntest result: ok. 6 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out");
}
