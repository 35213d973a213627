//! What a mod cannot do to the host it runs in: reach its objects through the prototypes
//! every host object inherits, keep its own failures off the record, or make one dispatch
//! cost more than a few step budgets.

use std::time::Duration;

use modlearn_engine::{CandidateFile, EmitOutcome, Engine, EngineOptions};
use modlearn_types::{Diagnostic, Fault};
use serde_json::{Value, json};

fn engine(step_timeout: Duration) -> Engine {
    Engine::new(EngineOptions { step_timeout, memory_limit: 32 << 20, ..Default::default() }).unwrap()
}

fn load(engine: &mut Engine, source: &str) -> (bool, Vec<Diagnostic>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.js");
    std::fs::write(&path, source).unwrap();
    let outcome = engine.load(&CandidateFile { path: &path, source }).unwrap();
    (outcome.loaded, engine.snapshot().unwrap().diagnostics)
}

/// An engine with `source` loaded.
fn loaded(step_timeout: Duration, source: &str) -> Engine {
    let mut engine = engine(step_timeout);
    let (loaded, diagnostics) = load(&mut engine, source);
    assert!(loaded, "{diagnostics:#?}");
    engine
}

/// The live event after a `tool_start` dispatch, and the dispatch's diagnostics.
fn tool_start(engine: &mut Engine) -> (Value, Vec<Diagnostic>) {
    match engine.emit("tool_start", &json!({"toolName": "Bash", "args": {"command": "pip install x"}})).unwrap() {
        EmitOutcome::Emitted { emission, event, .. } => (event, emission.diagnostics),
        EmitOutcome::Rejected { message } => panic!("rejected: {message}"),
    }
}

#[test]
fn the_prototypes_host_objects_inherit_take_no_new_properties() {
    // Each attempt reports how it ended; what a mod may still do to them is last.
    let source = r#"
        const tries = {
            setter: () => Object.defineProperty(Object.prototype, "host", { set() {}, configurable: true }),
            index: () => Object.defineProperty(Object.prototype, "0", { set() {}, configurable: true }),
            data: () => { Object.prototype.seed = 1; },
            redefine: () => Object.defineProperty(Object.prototype, "toString", { get: () => () => "forged" }),
            defineSetter: () => Object.prototype.__defineSetter__("compare", () => {}),
            error: () => Object.defineProperty(Error.prototype, "recorded", { get: () => true }),
            typeError: () => { TypeError.prototype.recorded = true; },
            hasInstance: () => Object.defineProperty(Error, Symbol.hasInstance, { value: () => true }),
            errorBinding: () => { globalThis.RangeError = class {}; },
            typedArrayBinding: () => { globalThis.Uint8Array = class {}; },
        };
        const outcome = (attempt) => { try { attempt(); return "allowed"; } catch (error) { return error.constructor.name; } };
        export function activate(letta) {
            const ended = Object.fromEntries(Object.entries(tries).map(([name, attempt]) => [name, outcome(attempt)]));
            const own = {};
            own.toString = () => "mine";
            const error = new Error("x");
            error.name = "Mine";
            ended.shadowing = `${own}|${error.name}|${"seed" in {}}|${Object.isExtensible(Object.prototype)}`;
            letta.events.on("tool_start", (event) => ({ args: { ...event.args, ended } }));
        }
    "#;
    let (event, _) = tool_start(&mut loaded(Duration::from_millis(300), source));
    let ended = &event["args"]["ended"];
    let attempts =
        ["setter", "index", "data", "redefine", "defineSetter", "error", "typeError", "hasInstance", "errorBinding", "typedArrayBinding"];
    for attempt in attempts {
        assert_eq!(ended[attempt], "TypeError", "{attempt}: {ended}");
    }
    assert_eq!(ended["shadowing"], "mine|Mine|false|false");
}

#[test]
fn a_thrown_error_cannot_mark_itself_recorded() {
    // `recorded` was once the host's own flag for errors it had recorded already.
    let source = "export function activate(l) { l.events.on('tool_start', () => { throw Object.assign(new Error('handler failed'), { recorded: true }); }); }";
    let (_, diagnostics) = tool_start(&mut loaded(Duration::from_millis(300), source));
    let recorded: Vec<_> = diagnostics.iter().map(|d| (d.phase.as_str(), d.fault, d.message.as_str())).collect();
    assert_eq!(recorded, [("event", Fault::Exception, "handler failed")]);
}

#[test]
fn a_thrown_value_whose_reads_throw_is_still_the_mods_failure() {
    // Its message getter throws when the host reads it to record the failure.
    let source = "export function activate(l) { l.events.on('tool_start', () => { throw { get message() { throw new Error('boom'); }, get name() { throw new Error('boom'); } }; }); }";
    let (_, diagnostics) = tool_start(&mut loaded(Duration::from_millis(300), source));
    let recorded: Vec<_> = diagnostics.iter().map(|d| (d.phase.as_str(), d.fault, d.error_name.as_str())).collect();
    assert_eq!(recorded, [("event", Fault::Exception, "Error")], "{diagnostics:#?}");
}

#[test]
fn no_backend_symbol_is_left_on_the_global_object() {
    let source = "export function activate(l) { l.events.on('tool_start', (e) => ({ args: { ...e.args, symbols: Reflect.ownKeys(globalThis).filter((k) => typeof k === 'symbol').map(String) } })); }";
    let (event, _) = tool_start(&mut loaded(Duration::from_millis(300), source));
    assert_eq!(event["args"]["symbols"], json!([]));
}

#[test]
fn the_handlers_of_one_dispatch_share_a_few_budgets() {
    // A thousand handlers, each a few milliseconds of work, far within its own budget: all of
    // them would take seconds, more than the dispatch's four budgets on any machine.
    let source = "export function activate(l) { for (let i = 0; i < 1000; i++) l.events.on('tool_start', () => { let x = 0; for (let j = 0; j < 5e5; j++) x += j; }); }";
    let (_, diagnostics) = tool_start(&mut loaded(Duration::from_millis(200), source));
    assert!(!diagnostics.is_empty(), "every handler ran");
    for diagnostic in &diagnostics {
        assert_eq!(diagnostic.fault, Fault::Timeout, "{diagnostic:#?}");
        assert!(diagnostic.message.contains("used up its 800 ms of CPU time"), "{}", diagnostic.message);
    }
}

#[test]
fn raw_json_in_a_mods_values_leaves_the_replies_readable() {
    // `1e1000` is valid JSON text that no double holds: written verbatim, it made the Rust
    // side refuse the whole reply, blaming modlearn and hiding the scenario's diagnostics.
    let mut engine = loaded(
        Duration::from_secs(2),
        r#"export function activate(letta) {
            letta.events.on("tool_start", (event) => {
                event.args.big = JSON.rawJSON("1e1000");
                letta.ui.openPanel({ id: "p", order: JSON.rawJSON("1e1000"), render: () => "x" });
                letta.diagnostics.report({ message: "seen", severity: "warning" });
            });
        }"#,
    );
    let (event, _) = tool_start(&mut engine);
    assert_eq!(event["args"]["big"], json!({ "rawJSON": "1e1000" }));
    let snapshot = engine.snapshot().expect("the snapshot is readable");
    assert_eq!(snapshot.panels[0]["order"], json!({ "rawJSON": "1e1000" }));
    assert!(snapshot.diagnostics.iter().any(|d| d.message == "seen"), "{:#?}", snapshot.diagnostics);
}
