//! Each way a mod can misbehave becomes a diagnostic of its own kind, and the engine keeps
//! working afterwards; mod code stopped at a limit ends the engine instead.

use std::time::Duration;

use modlearn_engine::{CandidateFile, EmitOutcome, Engine, EngineError, EngineOptions, StopFault};
use modlearn_types::{Diagnostic, Fault};
use serde_json::json;

fn engine() -> Engine {
    Engine::new(EngineOptions { step_timeout: Duration::from_millis(300), memory_limit: 32 << 20, ..Default::default() }).unwrap()
}

/// Loads `source` as `name` and returns (loaded, diagnostics).
fn load(engine: &mut Engine, name: &str, source: &str) -> (bool, Vec<Diagnostic>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, source).unwrap();
    let outcome = engine.load(&CandidateFile { path: &path, source }).unwrap();
    (outcome.loaded, engine.snapshot().unwrap().diagnostics)
}

fn faults(diagnostics: &[Diagnostic]) -> Vec<(String, Fault)> {
    diagnostics.iter().map(|d| (d.phase.clone(), d.fault)).collect()
}

fn emit_tool_start(engine: &mut Engine) -> (serde_json::Value, Vec<Diagnostic>) {
    match engine.emit("tool_start", &json!({"toolName": "Bash", "args": {"command": "pip install x"}})).unwrap() {
        EmitOutcome::Emitted { emission, event, .. } => (event, emission.diagnostics),
        EmitOutcome::Rejected { message } => panic!("rejected: {message}"),
    }
}

/// Loads `source`, which must be stopped at a limit: returns the stop's (fault, phase, message).
fn stopped_loading(engine: &mut Engine, source: &str) -> (StopFault, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.js");
    std::fs::write(&path, source).unwrap();
    let error = engine.load(&CandidateFile { path: &path, source }).expect_err("stopped");
    // A stopped engine is past judging: every later request gets the same error.
    assert_eq!(engine.snapshot().expect_err("still stopped").to_string(), error.to_string());
    let EngineError::Stopped { fault, phase, message } = error else { panic!("{error:?}") };
    (fault, phase, message)
}

#[test]
fn endless_loop_in_activate_stops_the_engine_at_activate() {
    let (fault, phase, message) = stopped_loading(&mut engine(), "export function activate() { for (;;) {} }");
    assert_eq!((fault, phase.as_str()), (StopFault::Timeout, "activate"));
    assert_eq!(message, "mod code in the activate phase did not finish within its 300 ms budget; the engine was stopped");
}

#[test]
fn endless_loop_at_module_top_level_stops_the_engine_at_activate() {
    let (fault, phase, _) = stopped_loading(&mut engine(), "while (true) {}\nexport function activate() {}");
    assert_eq!((fault, phase.as_str()), (StopFault::Timeout, "activate"));
}

#[test]
fn memory_bomb_stops_the_engine_out_of_memory() {
    let source = "export function activate() { const keep = []; for (;;) keep.push(new Array(100000).fill(1)); }";
    let (fault, _, message) = stopped_loading(&mut engine(), source);
    assert_eq!(fault, StopFault::OutOfMemory, "{message}");
    assert!(message.contains("exceeded the engine's 32 MiB memory limit"), "{message}");
}

#[test]
fn deep_recursion_is_a_stack_overflow() {
    let mut engine = engine();
    let (loaded, diagnostics) = load(&mut engine, "m.js", "function f(n) { return f(n + 1) + 1; }\nexport function activate() { f(0); }");
    assert!(!loaded);
    assert_eq!(faults(&diagnostics), [("activate".to_owned(), Fault::StackOverflow)], "{diagnostics:#?}");
}

#[test]
fn a_promise_that_never_settles_is_reported_not_waited_for() {
    let mut engine = Engine::new(EngineOptions { step_timeout: Duration::from_secs(30), ..Default::default() }).unwrap();
    let started = std::time::Instant::now();
    let (loaded, _) = load(
        &mut engine,
        "m.js",
        "export function activate(l) { l.events.on('tool_start', async () => { await new Promise(() => {}); }); }",
    );
    assert!(loaded);
    let (_, diagnostics) = emit_tool_start(&mut engine);
    assert_eq!(faults(&diagnostics), [("event".to_owned(), Fault::NeverSettled)]);
    assert!(started.elapsed() < Duration::from_secs(10), "never-settled detection must not wait for the budget");
}

#[test]
fn virtual_timers_fire_without_waiting() {
    let mut engine = engine();
    let source = "export function activate(l) { l.events.on('tool_start', async (e) => { await new Promise((r) => setTimeout(r, 60000)); e.args.command = 'late ' + Date.now(); }); }";
    let (loaded, _) = load(&mut engine, "m.js", source);
    assert!(loaded);
    let (event, diagnostics) = emit_tool_start(&mut engine);
    assert!(diagnostics.is_empty(), "{diagnostics:#?}");
    assert_eq!(event["args"]["command"], "late 1767225660000");
}

#[test]
fn host_access_is_denied_with_a_diagnostic() {
    for (source, what) in [
        ("export function activate() { process.exit(1); }", "process.exit(1)"),
        ("export function activate() { require('node:cluster'); }", "require(\"node:cluster\")"),
        // Used, since Letta's transpiler (as Bun's) drops an import nothing uses.
        ("import cluster from 'node:cluster';\nexport function activate() { void cluster; }", "node:cluster"),
        ("import x from '../../etc/passwd.js';\nexport function activate() { void x; }", "passwd.js"),
    ] {
        let mut engine = engine();
        let (loaded, diagnostics) = load(&mut engine, "m.js", source);
        assert!(!loaded, "{source}");
        assert_eq!(diagnostics.len(), 1, "{source}: {diagnostics:#?}");
        assert_eq!(diagnostics[0].fault, Fault::HostAccess, "{source}: {diagnostics:#?}");
        assert!(diagnostics[0].message.contains(what), "{source}: {}", diagnostics[0].message);
    }
}

#[test]
fn there_is_no_deno_as_under_bun() {
    // Cross-runtime code asks `typeof Deno`; using it fails as it does under Bun.
    let mut engine = engine();
    let source =
        "export function activate(l) { if (typeof Deno !== 'undefined') throw new Error('Deno?'); l.events.on('tool_start', () => {}); }";
    let (loaded, diagnostics) = load(&mut engine, "m.js", source);
    assert!(loaded && diagnostics.is_empty(), "{diagnostics:#?}");
    let mut engine = self::engine();
    let (loaded, diagnostics) = load(&mut engine, "m.js", "export function activate() { Deno.readTextFileSync('/etc/passwd'); }");
    assert!(!loaded);
    assert!(diagnostics[0].message.contains("Deno is not defined"), "{diagnostics:#?}");
}

#[test]
fn an_unhandled_rejection_is_recorded_and_the_mod_still_loads() {
    let mut engine = engine();
    let (loaded, diagnostics) = load(
        &mut engine,
        "m.js",
        "export function activate(l) { Promise.reject(new Error('forgotten')); l.events.on('tool_start', () => {}); }",
    );
    assert!(loaded);
    assert_eq!(faults(&diagnostics), [("unhandled_rejection".to_owned(), Fault::UnhandledRejection)]);
}

#[test]
fn syntax_errors_fail_at_transpile_as_letta_transpiles_every_candidate() {
    let mut engine = engine();
    let (_, diagnostics) = load(&mut engine, "m.ts", "export function activate(letta: any) { letta.events.on( }");
    assert_eq!(faults(&diagnostics), [("transpile".to_owned(), Fault::Exception)]);
    assert!(diagnostics[0].message.starts_with("m.ts:1:"), "{}", diagnostics[0].message);
    // Letta copies a .js candidate to `<slug>.ts`: TypeScript in it loads, a syntax error fails
    // at transpile.
    let mut engine = self::engine();
    let (loaded, diagnostics) =
        load(&mut engine, "m.js", "export function activate(letta: any): void { letta.events.on('tool_start', () => {}); }");
    assert!(loaded && diagnostics.is_empty(), "{diagnostics:#?}");
    let mut engine = self::engine();
    let (_, diagnostics) = load(&mut engine, "m.js", "export function activate( {");
    assert_eq!(faults(&diagnostics), [("transpile".to_owned(), Fault::Exception)]);
}

#[test]
fn the_host_function_and_deno_core_are_out_of_reach() {
    let mut engine = engine();
    let source = "export function activate(l) { l.events.on('tool_start', (e) => { e.args.seen = [typeof globalThis.__modlearnHost, typeof globalThis.__bootstrap, Object.getOwnPropertyNames(globalThis).filter((n) => n.startsWith('__') && !n.startsWith('__v8x')).join(',')].join('|'); }); }";
    // `__filename` and `__dirname` are Bun's, naming the mod's own virtual place.
    let (loaded, diagnostics) = load(&mut engine, "m.js", source);
    assert!(loaded, "{diagnostics:#?}");
    let (event, _) = emit_tool_start(&mut engine);
    assert_eq!(event["args"]["seen"], "undefined|undefined|__filename,__dirname");
}

#[test]
fn a_throwing_disposer_is_a_dispose_diagnostic() {
    let mut engine = engine();
    let (loaded, _) = load(&mut engine, "m.js", "export function activate(l) { return () => { throw new Error('bad dispose'); }; }");
    assert!(loaded);
    let outcome = engine.dispose().unwrap();
    assert_eq!(outcome.disposed, 1);
    assert_eq!(outcome.threw.len(), 1);
    let diagnostics = engine.snapshot().unwrap().diagnostics;
    assert_eq!(faults(&diagnostics), [("dispose".to_owned(), Fault::Exception)]);
}

#[test]
fn stacks_name_the_candidate_file_and_its_own_lines() {
    let mut engine = engine();
    let source = "interface Options {\n  name: string;\n}\n\nexport function activate(letta: any): void {\n  const options: Options = { name: 'x' };\n  throw new Error('line 7 ' + options.name);\n}\n";
    let (_, diagnostics) = load(&mut engine, "typed.ts", source);
    let stack = diagnostics[0].stack.as_deref().unwrap_or("");
    assert_eq!(stack, "Error: line 7 x\n    at activate (typed.ts:7:9)");
}

#[test]
fn removed_apis_are_deprecation_warnings() {
    let mut engine = engine();
    let (loaded, diagnostics) = load(&mut engine, "m.js", "export function activate(letta) { letta.ui.setStatus('x'); }");
    assert!(loaded);
    let kinds: Vec<_> = diagnostics.iter().map(|d| (d.phase.as_str(), d.fault, d.severity)).collect();
    assert_eq!(
        kinds,
        [
            ("deprecated_api", Fault::Deprecated, modlearn_types::Severity::Warning),
            ("deprecated_api", Fault::Deprecated, modlearn_types::Severity::Warning),
        ],
        "one from the source scan, one from the call: {diagnostics:#?}"
    );
}
