//! First contact with the engine: load, emit, dispose.

use modlearn_engine::{CandidateFile, EmitOutcome, Engine, EngineOptions};
use serde_json::json;
use std::time::Duration;

fn write(dir: &std::path::Path, name: &str, source: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, source).unwrap();
    path
}

#[test]
fn loads_and_rewrites_args() {
    let dir = tempfile::tempdir().unwrap();
    let source = r#"
export function activate(letta: any) {
  letta.events.on("tool_start", (event: any) => {
    if (event.toolName === "Bash" && typeof event.args.command === "string") {
      return { args: { ...event.args, command: event.args.command.replace(/^pip install/, "uv pip install") } };
    }
  });
}
"#;
    let path = write(dir.path(), "mod.ts", source);
    let mut engine = Engine::new(EngineOptions::default()).unwrap();
    let outcome = engine.load(&CandidateFile { path: &path, source }).unwrap();
    assert!(outcome.loaded, "{:?}", engine.snapshot().unwrap().diagnostics);
    let EmitOutcome::Emitted { emission, event, .. } = engine
        .emit("tool_start", &json!({"agentId": "a", "conversationId": "c", "toolCallId": "t", "toolName": "Bash", "args": {"command": "pip install requests"}}))
        .unwrap() else { panic!("rejected") };
    assert_eq!(emission.handler_count, 1);
    assert!(emission.diagnostics.is_empty(), "{emission:?}");
    assert_eq!(event["args"]["command"], "uv pip install requests");
    let disposed = engine.dispose().unwrap();
    assert_eq!(disposed.disposed, 0);
}

#[test]
fn endless_loop_in_handler_stops_the_engine() {
    let dir = tempfile::tempdir().unwrap();
    let source = r#"export default function (letta) { letta.events.on("tool_start", () => { while (true) {} }); }"#;
    let path = write(dir.path(), "loop.js", source);
    let mut engine = Engine::new(EngineOptions { step_timeout: Duration::from_millis(200), ..Default::default() }).unwrap();
    assert!(engine.load(&CandidateFile { path: &path, source }).unwrap().loaded);
    let error = engine.emit("tool_start", &json!({"toolName": "Bash", "args": {"command": "x"}})).unwrap_err();
    assert_eq!(error.to_string(), "mod code in the event phase did not finish within its 200 ms budget; the engine was stopped");
    // What the handler left half done is past judging: the engine takes nothing more.
    assert_eq!(engine.emit("turn_start", &json!({"input": []})).unwrap_err().to_string(), error.to_string());
}

/// tool_start handler counts after each of three loads, by `load` or by `reload`.
fn handler_counts(reload: bool, source: &str) -> Vec<usize> {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "grows.js", source);
    let mut engine = Engine::new(EngineOptions::default()).unwrap();
    let mut counts = Vec::new();
    for _ in 0..3 {
        engine.new_generation().unwrap();
        let candidate = CandidateFile { path: &path, source };
        let outcome = if reload { engine.reload(&candidate) } else { engine.load(&candidate) }.unwrap();
        assert!(outcome.loaded);
        counts.push(engine.snapshot().unwrap().events["tool_start"]);
        engine.dispose().unwrap();
    }
    counts
}

#[test]
fn reload_keeps_an_unchanged_module_instance_and_load_does_not() {
    // As Letta's `/reload` imports `<file>?mod=<mtime>`: the same URL for an unchanged file.
    let source =
        "const rules = [];\nexport function activate(l) { rules.push(1); for (const _ of rules) l.events.on('tool_start', () => {}); }";
    assert_eq!(handler_counts(true, source), [1, 2, 3]);
    assert_eq!(handler_counts(false, source), [1, 1, 1]);
}

#[test]
fn a_candidate_is_one_file_so_a_sibling_fails_at_import() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "helper.js", "export const x = 1;");
    let source = "import { x } from './helper.js';\nexport function activate() { return x; }";
    let path = write(dir.path(), "mod.js", source);
    let mut engine = Engine::new(EngineOptions::default()).unwrap();
    let outcome = engine.load(&CandidateFile { path: &path, source }).unwrap();
    assert!(!outcome.loaded);
    let diagnostics = engine.snapshot().unwrap().diagnostics;
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    assert_eq!((diagnostics[0].phase.as_str(), diagnostics[0].fault.as_str()), ("import", "exception"));
    assert!(diagnostics[0].message.starts_with("Cannot find module './helper.js': a candidate is one file"), "{}", diagnostics[0].message);
}
