//! Which pending promises are a mod's: those built while its code is on the stack, however
//! deep under host code and whatever stack limit it set; not the backend's own (`import()`).

use modlearn_engine::{CandidateFile, Engine, EngineOptions};

/// Pending promises the leak check counts after loading `source` (activate only).
fn pending_after_load(source: &str) -> usize {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mod.js");
    std::fs::write(&path, source).unwrap();
    let mut engine = Engine::new(EngineOptions::default()).unwrap();
    let outcome = engine.load(&CandidateFile { path: &path, source }).unwrap();
    assert!(outcome.loaded, "{:?}", engine.snapshot().unwrap().diagnostics);
    engine.leftovers().unwrap().promises.len()
}

#[test]
fn a_mod_that_makes_no_promise_owns_none() {
    // Loading runs host code (and the backend's import machinery) with the mod's owner current.
    assert_eq!(pending_after_load("export default function activate() {}"), 0);
}

#[test]
fn a_promise_built_in_mod_code_is_the_mods() {
    let source = "export default function activate() { new Promise(() => {}); }";
    assert_eq!(pending_after_load(source), 1);
}

#[test]
fn a_promise_a_host_module_builds_for_mod_code_is_the_mods() {
    let source = r#"
import { setTimeout as sleep } from "node:timers/promises";
export default function activate() { sleep(60_000); }
"#;
    assert_eq!(pending_after_load(source), 1);
}

#[test]
fn a_mod_cannot_hide_its_frames_with_the_stack_limit() {
    let source = r#"
export default function activate() {
  Error.stackTraceLimit = 0;
  const deep = (n) => (n === 0 ? new Promise(() => {}) : deep(n - 1));
  deep(3);
}
"#;
    assert_eq!(pending_after_load(source), 1);
}

#[test]
fn code_a_mod_evaluates_is_the_mods() {
    let source = r#"export default function activate() { (0, eval)("new Promise(() => {})"); }"#;
    assert_eq!(pending_after_load(source), 1);
}

#[test]
fn a_data_module_is_the_mods_whatever_its_last_segment() {
    // The sandbox shows mods a frame's last path segment; this one reads `<x>`, as a backend
    // script's name would.
    let source = r#"
const { make } = await import("data:text/javascript,export const make = () => new Promise(() => {}); //<x>");
export default function activate() { make(); }
"#;
    assert_eq!(pending_after_load(source), 1);
}

#[test]
fn a_mod_frame_under_a_hundred_native_frames_is_found() {
    // The mod's frame is at the bottom, far below the 64 frames a formatted stack holds, with
    // only native calls between it and the host code that makes the promise.
    let source = r#"
import { setTimeout as sleep } from "node:timers/promises";
export default function activate() {
  let call = [sleep, undefined, [60_000]];
  for (let i = 0; i < 100; i++) call = [Reflect.apply, undefined, call];
  Reflect.apply(...call);
}
"#;
    assert_eq!(pending_after_load(source), 1);
}
