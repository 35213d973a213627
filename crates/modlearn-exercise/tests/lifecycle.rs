//! Lifecycle probes against the curated lifecycle candidates, in the real
//! engine: what remains after dispose, reload cycles, capability profiles,
//! repeated runs and interleaved conversations.

use std::path::{Path, PathBuf};

use modlearn_engine::EngineOptions;
use modlearn_exercise::{ScenarioPlan, exercise};
use modlearn_types::{ConversationPlan, Observation, Probe, ToolRun};
use serde_json::{Value, json};

fn candidate(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../candidates/lifecycle").join(name)
}

/// Runs one scenario holding `probes` against candidate `name`.
fn observe(name: &str, probes: Vec<Probe>) -> Vec<Observation> {
    let path = candidate(name);
    let source = std::fs::read_to_string(&path).unwrap();
    let mut runs = exercise(&path, &source, &[ScenarioPlan { probes, ..Default::default() }], &EngineOptions::default()).unwrap();
    runs.remove(0).observations
}

fn add(text: &str) -> Probe {
    Probe::RunTool { tool_name: "note_add".to_owned(), args: json!({ "text": text }), tool_call_id: "t".to_owned() }
}

fn list() -> Probe {
    Probe::RunTool { tool_name: "note_list".to_owned(), args: json!({}), tool_call_id: "t".to_owned() }
}

fn turn(conversation: &str) -> Probe {
    Probe::Emit {
        event: "turn_start".to_owned(),
        payload: json!({ "conversationId": conversation, "input": [{ "role": "user", "content": "hi" }] }),
        compare: None,
    }
}

fn dispose_report(name: &str) -> modlearn_types::DisposeReport {
    // The command run also has the host race it with a timer promise of its own, which must not count.
    let steps = vec![turn("c"), add("milk"), Probe::RunCommand { command: "notes".to_owned(), args: String::new() }];
    match observe(name, vec![Probe::Dispose { steps, settle_ms: 60_000 }]).remove(0) {
        Observation::Disposed { report } => *report,
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_clean_mod_leaves_nothing_after_dispose() {
    let report = dispose_report("good-notes.ts");
    assert!(report.loaded);
    assert_eq!(report.dispose.threw, Vec::<String>::new());
    assert!(report.dispose.signals.iter().all(|signal| signal.aborted), "{:?}", report.dispose.signals);
    assert!(report.dispose.left.is_empty(), "its disposers removed everything: {:?}", report.dispose.left);
    assert_eq!(report.leftovers.timers, vec![]);
    assert_eq!(report.leftovers.promises, vec![]);
    assert_eq!(report.settle.firings, 0);
    assert_eq!(report.settle.diagnostics, vec![]);
    assert_eq!(report.leftovers.globals, vec![], "no globals");
}

#[test]
fn a_leaked_interval_is_still_scheduled_and_keeps_firing() {
    let report = dispose_report("leaks-interval.js");
    assert_eq!(report.leftovers.timers.len(), 1);
    assert_eq!(report.leftovers.timers[0].kind, "interval");
    assert_eq!(report.leftovers.timers[0].every_ms, Some(30_000));
    // A handle-less mod leaves its registrations to the host.
    assert_eq!(report.dispose.left.tools, ["note_add", "note_list"]);
    assert_eq!(report.settle.firings, 2, "fires at 30 s and 60 s");
    assert_eq!(report.settle.diagnostics[0].phase, "stale_handle");
    assert_eq!(report.after_settle.timers.len(), 1);
}

#[test]
fn a_loop_that_ignores_the_signal_leaves_a_pending_promise_and_a_timeout() {
    let report = dispose_report("polls-forever.js");
    assert_eq!(report.leftovers.promises.len(), 1, "{report:?}");
    assert_eq!(report.leftovers.timers.len(), 1);
    assert_eq!(report.leftovers.timers[0].kind, "timeout");
    assert!(report.settle.firings >= 3);
    assert!(report.settle.diagnostics.iter().any(|d| d.phase == "stale_handle"), "{:?}", report.settle.diagnostics);
    assert_eq!(report.after_settle.promises, vec![], "the loop ends after three rounds");
}

#[test]
fn a_throwing_disposer_and_a_broken_abort_are_reported() {
    let report = dispose_report("throws-in-disposer.js");
    assert_eq!(report.dispose.threw.len(), 1);
    assert_eq!(report.dispose.diagnostics[0].phase, "dispose");
    assert_eq!(report.leftovers.timers.len(), 1, "the throw skipped clearInterval");
    let report = dispose_report("breaks-abort.js");
    assert!(report.dispose.signals.iter().all(|signal| !signal.aborted));
}

#[test]
fn reload_cycles_show_handlers_and_globals_that_grow() {
    let probe = Probe::Reload { cycles: 3, steps: vec![turn("c")] };
    let Observation::Reloaded { cycles } = observe("registers-twice-on-reload.js", vec![probe.clone()]).remove(0) else { panic!() };
    let handlers: Vec<usize> = cycles.iter().map(|cycle| cycle.registrations.events["turn_start"]).collect();
    assert_eq!(handlers, [1, 2, 3]);
    let sizes: Vec<f64> = cycles.iter().map(|cycle| cycle.leftovers.globals[0].size).collect();
    assert_eq!(sizes, [1.0, 2.0, 3.0]);
    let Observation::Reloaded { cycles } = observe("good-notes.ts", vec![probe]).remove(0) else { panic!() };
    assert!(cycles.windows(2).all(|pair| pair[0].registrations == pair[1].registrations));
    assert!(cycles.iter().all(|cycle| cycle.loaded && cycle.diagnostics.is_empty()));
}

#[test]
fn a_profile_run_reports_what_the_profile_offers() {
    let probe = Probe::UnderProfile { profile: "headless".to_owned(), steps: vec![list()] };
    let Observation::ProfileRan { report } = observe("good-notes.ts", vec![probe]).remove(0) else { panic!() };
    assert_eq!(report.capabilities.profile, "headless");
    assert_eq!(report.capabilities.capabilities["commands"], json!(false));
    assert!(report.loaded && report.full_loaded);
    assert_eq!(report.full.commands, ["notes"]);
    assert_eq!(report.registrations.commands, Vec::<String>::new());
    assert_eq!(report.registrations.tools, ["note_add", "note_list"]);
}

fn repeated(name: &str, probes: Vec<Probe>, vary: &[&str]) -> (Vec<Value>, Vec<Value>) {
    let others = vec![turn("c")];
    let mut all = others;
    all.push(Probe::Repeat { probes, vary: vary.iter().map(|v| (*v).to_owned()).collect() });
    let Observation::Repeated { report } = observe(name, all).remove(1) else { panic!() };
    let text = |observations: &[Observation]| {
        observations.iter().map(|o| serde_json::to_value(o).unwrap()["after"]["input"][1]["content"].clone()).collect()
    };
    (text(&report.first), text(&report.second))
}

#[test]
fn repeated_runs_differ_only_for_a_mod_that_reads_the_seed_or_the_clock() {
    // No probes: the scenario's other probes (one turn_start) are repeated.
    let (first, second) = repeated("random-tips.js", Vec::new(), &["seed", "clock", "reuse"]);
    assert_ne!(first, second);
    let (first, second) = repeated("random-tips.js", Vec::new(), &["reuse"]);
    assert_eq!(first, second, "reuse alone keeps the seed and, with no timers, the clock");
    let (first, second) = repeated("good-notes.ts", Vec::new(), &["seed", "clock", "reuse"]);
    assert_eq!(first, second);
    assert!(first[0].as_str().unwrap().contains("NOTES: this conversation has 0 note(s)"));
}

fn conversations(name: &str) -> modlearn_types::ConversationsReport {
    let plan = |id: &str| ConversationPlan { conversation: id.to_owned(), steps: vec![add(&format!("{id} note")), list()] };
    let probe = Probe::Conversations { conversations: vec![plan("a"), plan("b")] };
    let Observation::ConversationsRan { report } = observe(name, vec![probe]).remove(0) else { panic!() };
    *report
}

fn output(observation: &Observation) -> Value {
    match observation {
        Observation::ToolRan { run: ToolRun::Ran { output, .. } } => output.clone(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn interleaved_conversations_see_shared_state() {
    let report = conversations("shared-across-conversations.js");
    assert_eq!(output(&report.solo[1].observations[1]), json!("1. b note"));
    assert_eq!(output(&report.interleaved[1].observations[1]), json!("1. a note\n2. b note"));
    let report = conversations("good-notes.ts");
    assert_eq!(report.solo, report.interleaved);
    assert_eq!(output(&report.interleaved[1].observations[1]), json!("1. b note"));
}

#[test]
fn a_throwing_abort_listener_is_a_dispose_diagnostic_not_an_engine_failure() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.js");
    let source = r#"export function activate(letta) {
        letta.tools.register({ name: "t", description: "d", run: () => "ok" });
        letta.signal.addEventListener("abort", () => { throw new Error("listener boom"); });
    }"#;
    std::fs::write(&path, source).unwrap();
    let probes = vec![Probe::Dispose { steps: Vec::new(), settle_ms: 0 }];
    let mut runs = exercise(&path, source, &[ScenarioPlan { probes, ..Default::default() }], &EngineOptions::default()).unwrap();
    let Observation::Disposed { report } = runs.remove(0).observations.remove(0) else { panic!() };
    assert!(report.dispose.signals.iter().all(|signal| signal.aborted));
    assert_eq!(report.dispose.diagnostics.len(), 1, "{:?}", report.dispose.diagnostics);
    assert_eq!(report.dispose.diagnostics[0].phase, "dispose");
    assert_eq!(report.dispose.diagnostics[0].message, "listener boom");
}
