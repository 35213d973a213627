//! The `letta` handle against Letta Code's documented behaviour: validation,
//! collisions and rollback, capability gating, stale handles, disposal,
//! diagnostics, ctx, and the sandbox's determinism.

use std::time::Duration;

use modlearn_engine::{CandidateFile, EmitOutcome, Engine, EngineOptions};
use modlearn_types::{Diagnostic, RegistrySnapshot};
use serde_json::{Value, json};

struct Harness {
    engine: Engine,
    dir: tempfile::TempDir,
}

impl Harness {
    fn new(profile: &str) -> Harness {
        let options = EngineOptions { profile: profile.to_owned(), step_timeout: Duration::from_millis(500), ..Default::default() };
        Harness { engine: Engine::new(options).unwrap(), dir: tempfile::tempdir().unwrap() }
    }

    /// Starts a generation and loads `source` as `name`.
    fn load(&mut self, name: &str, source: &str) -> (bool, RegistrySnapshot) {
        let path = self.dir.path().join(name);
        std::fs::write(&path, source).unwrap();
        self.engine.new_generation().unwrap();
        let loaded = self.engine.load(&CandidateFile { path: &path, source }).unwrap().loaded;
        (loaded, self.engine.snapshot().unwrap())
    }

    fn emit(&mut self, name: &str, event: Value) -> (Value, modlearn_types::Emission) {
        match self.engine.emit(name, &event).unwrap() {
            EmitOutcome::Emitted { emission, event, .. } => (event, emission),
            EmitOutcome::Rejected { message } => panic!("rejected: {message}"),
        }
    }

    fn console(&mut self) -> Vec<String> {
        self.engine.take_console().unwrap().into_iter().map(|line| line.text).collect()
    }
}

fn messages(diagnostics: &[Diagnostic]) -> Vec<(String, String)> {
    diagnostics.iter().map(|d| (d.phase.clone(), d.message.clone())).collect()
}

#[test]
fn tools_are_normalised_as_letta_does() {
    let mut harness = Harness::new("engine");
    let (loaded, snapshot) = harness.load("m.js", r#"export default function (letta) {
        letta.tools.register({ name: "auto_tool", description: "d", requiresApproval: false, parallelSafe: true, run: (ctx) => ctx.args.x });
        letta.tools.register({ name: "always", description: "d", requiresApproval: false, approvalPolicy: "alwaysAsk", run() {} });
        letta.tools.register({ name: "plain", description: "d", parallelSafe: "yes", run() {} });
    }"#);
    assert!(loaded, "{:?}", snapshot.diagnostics);
    let tools: Vec<_> =
        snapshot.tools.iter().map(|t| (t.name.as_str(), t.approval_policy.as_str(), t.requires_approval, t.parallel_safe)).collect();
    assert_eq!(tools, [("auto_tool", "auto", false, true), ("always", "alwaysAsk", true, false), ("plain", "ask", true, false)]);
    assert_eq!(snapshot.tools[2].parameters, json!({"type": "object", "properties": {}, "additionalProperties": false}));
}

#[test]
fn a_throw_inside_register_fails_activation_and_rolls_back_everything() {
    let mut harness = Harness::new("engine");
    let (loaded, snapshot) = harness.load(
        "m.js",
        r#"export function activate(letta) {
        letta.events.on("tool_start", () => {});
        letta.commands.register({ id: "hello", description: "d", run() {} });
        letta.tools.register({ name: "t", description: "d", run() {} });
        letta.tools.register({ name: "t", description: "again", run() {} });
    }"#,
    );
    assert!(!loaded);
    assert!(snapshot.tools.is_empty() && snapshot.commands.is_empty());
    assert_eq!(snapshot.events["tool_start"], 0);
    assert_eq!(
        messages(&snapshot.diagnostics),
        // The other owner as the mod sees it: its virtual path, not the host's.
        [("activate".to_owned(), "Mod tool 't' is already registered by /home/user/.letta/mods/m.js".to_owned())]
    );
}

#[test]
fn override_allows_re_registration_but_not_for_permissions() {
    let mut harness = Harness::new("engine");
    let (loaded, snapshot) = harness.load(
        "m.js",
        r#"export function activate(letta) {
        letta.tools.register({ name: "t", description: "first", run() {} });
        letta.tools.register({ name: "t", description: "second", override: true, run() {} });
    }"#,
    );
    assert!(loaded);
    assert_eq!(snapshot.tools[0].description, "second");
    let (loaded, snapshot) = harness.load(
        "p.js",
        r#"export function activate(letta) {
        letta.permissions.register({ id: "guard", check() {} });
        letta.permissions.register({ id: "guard", override: true, check() {} });
    }"#,
    );
    assert!(!loaded);
    assert!(snapshot.diagnostics[0].message.starts_with("Mod permission 'guard' is already registered by"));
}

#[test]
fn capabilities_that_are_off_make_registration_a_silent_no_op() {
    let mut harness = Harness::new("headless");
    let (loaded, snapshot) = harness.load(
        "m.js",
        r#"export function activate(letta) {
        // Invalid on purpose: with commands off, nothing is even validated.
        letta.commands.register({ id: "/bad" });
        const panel = letta.ui.openPanel({ id: "p" });
        panel.close();
        console.log(JSON.stringify(letta.capabilities));
        letta.events.on("tool_start", () => {});
    }"#,
    );
    assert!(loaded, "{:?}", snapshot.diagnostics);
    assert!(snapshot.diagnostics.is_empty() && snapshot.commands.is_empty() && snapshot.panels.is_empty());
    let capabilities: Value = serde_json::from_str(&harness.console()[0]).unwrap();
    assert_eq!((capabilities["commands"].clone(), capabilities["ui"]["panels"].clone()), (json!(false), json!(false)));

    let mut listener = Harness::new("listener");
    let (loaded, snapshot) = listener.load(
        "m.js",
        r#"export function activate(letta) {
        letta.events.on("conversation_open", () => {});
        letta.events.on("conversation_opened", () => {});
    }"#,
    );
    assert!(!loaded, "unknown event names throw even when the capability is off");
    assert_eq!(snapshot.diagnostics[0].message, "Unsupported mod event 'conversation_opened'");
}

#[test]
fn a_handle_from_an_old_generation_is_stale() {
    let mut harness = Harness::new("engine");
    let (loaded, _) = harness.load("a.js", "export function activate(letta) { globalThis.saved = letta; }");
    assert!(loaded);
    harness.engine.dispose().unwrap();
    let (loaded, snapshot) = harness.load(
        "b.js",
        r#"export function activate(letta) {
        globalThis.saved.tools.register({ name: "late", description: "d", run() {} });
        globalThis.saved.diagnostics.report({ message: "from the past" });
    }"#,
    );
    assert!(loaded);
    assert!(snapshot.tools.is_empty());
    assert_eq!(
        messages(&snapshot.diagnostics),
        [
            ("stale_handle".to_owned(), "Ignored stale mod handle for tool 'late'".to_owned()),
            ("stale_handle".to_owned(), "Ignored stale mod handle for report 'diagnostics'".to_owned()),
        ]
    );
}

#[test]
fn dispose_aborts_signals_first_then_runs_disposers_in_reverse_order() {
    let mut harness = Harness::new("engine");
    let (loaded, _) = harness.load(
        "m.js",
        r#"export async function activate(letta) {
        await null;
        letta.signal.addEventListener("abort", () => console.log("abort " + letta.signal.reason));
        return () => console.log("dispose sees aborted=" + letta.signal.aborted);
    }"#,
    );
    assert!(loaded);
    let outcome = harness.engine.dispose().unwrap();
    assert_eq!(outcome.disposed, 1);
    assert_eq!(harness.console(), ["abort mod disposed", "dispose sees aborted=true"]);
}

#[test]
fn default_export_wins_over_activate_only_when_it_is_a_function() {
    let mut harness = Harness::new("engine");
    let (loaded, _) = harness
        .load("a.js", "export default function () { console.log('default'); }\nexport function activate() { console.log('activate'); }");
    assert!(loaded);
    let (loaded, _) =
        harness.load("b.js", "export default { not: 'a function' };\nexport function activate() { console.log('activate'); }");
    assert!(loaded);
    assert_eq!(harness.console(), ["default", "activate"]);
    let (loaded, snapshot) = harness.load("c.js", "export const x = 1;");
    assert!(!loaded);
    assert_eq!(snapshot.diagnostics[0].message, "Mod must export a default function or activate() function");
}

#[test]
fn diagnostics_report_validates_and_defaults_to_error() {
    let mut harness = Harness::new("engine");
    let (loaded, snapshot) = harness.load(
        "m.js",
        r#"export function activate(letta) {
        letta.diagnostics.report({ message: "plain" });
        letta.diagnostics.report({ message: "soft", severity: "warning" });
        try { letta.diagnostics.report({ message: "  " }); } catch (e) { console.log(e.message); }
        try { letta.diagnostics.report({ message: "x", severity: "info" }); } catch (e) { console.log(e.message); }
    }"#,
    );
    assert!(loaded);
    let reports: Vec<_> =
        snapshot.diagnostics.iter().map(|d| (d.message.as_str(), d.severity, d.error_name.as_str(), d.stack.is_none())).collect();
    assert_eq!(
        reports,
        [
            ("plain", modlearn_types::Severity::Error, "ModDiagnosticReport", true),
            ("soft", modlearn_types::Severity::Warning, "ModDiagnosticReport", true),
        ]
    );
    assert_eq!(harness.console().len(), 2);
}

#[test]
fn removed_apis_warn_and_get_context_throws() {
    let mut harness = Harness::new("engine");
    let (loaded, snapshot) = harness.load(
        "m.js",
        r#"export function activate(letta) {
        letta.ui.openPanel({ id: "old", content: "text" });
        try { letta["get" + "Context"](); } catch (e) { console.log(e.message); }
    }"#,
    );
    assert!(loaded);
    let found: Vec<_> = snapshot.diagnostics.iter().map(|d| (d.phase.as_str(), d.fault.as_str(), d.hint.is_some())).collect();
    assert_eq!(found, [("activate", "exception", false), ("deprecated_api", "deprecated", true)]);
    assert!(snapshot.diagnostics[0].message.contains("requires render(ctx), not content"));
    assert_eq!(harness.console(), ["letta.getContext() was removed"]);
}

#[test]
fn events_off_removes_every_registration_of_that_handler() {
    let mut harness = Harness::new("engine");
    let (loaded, _) = harness.load(
        "m.js",
        r#"export function activate(letta) {
        const h = () => {};
        letta.events.on("tool_start", h);
        letta.events.on("tool_start", h);
        const dispose = letta.events.on("tool_start", () => {});
        letta.events.off("tool_start", h);
        dispose();
    }"#,
    );
    assert!(loaded);
    assert_eq!(harness.engine.snapshot().unwrap().events["tool_start"], 0);
}

#[test]
fn handler_ctx_is_letta_shaped_and_has_no_conversation_backend() {
    let mut harness = Harness::new("engine");
    let (loaded, _) = harness.load(
        "m.ts",
        r#"export function activate(letta: any) {
        letta.events.on("tool_start", async (event: any, ctx: any) => {
            let fork = "";
            try { await ctx.conversation.fork(); } catch (e: any) { fork = e.message; }
            let client = "";
            try { await letta.client.agents.list(); } catch (e: any) { client = e.message; }
            event.args.seen = [ctx.agent.id, ctx.conversation.id, ctx.cwd, ctx.signal.aborted, fork, client, ctx.workingDirectory];
        });
    }"#,
    );
    assert!(loaded);
    let (event, emission) = harness.emit("tool_start", json!({"conversationId": "conv-1", "toolName": "Bash", "args": {}}));
    assert!(emission.diagnostics.is_empty(), "{:?}", emission.diagnostics);
    assert_eq!(
        event["args"]["seen"],
        json!([
            "mod-learning-eval-agent",
            "conv-1",
            "/workspace",
            false,
            "Mod conversation backend is not available",
            "letta.client.agents.list is not callable",
            null
        ])
    );
}

#[test]
fn clock_and_randomness_are_deterministic() {
    let source = "export function activate() { console.log(String(Math.random()), new Date().toISOString(), String(Date.now())); }";
    let mut first = Harness::new("engine");
    first.load("m.js", source);
    let mut second = Harness::new("engine");
    second.load("m.js", source);
    let (a, b) = (first.console(), second.console());
    assert_eq!(a, b);
    assert!(a[0].contains("2026-01-01T00:00:00.000Z 1767225600000"), "{a:?}");
}

#[test]
fn rejected_emissions_are_reported_not_thrown() {
    let mut harness = Harness::new("engine");
    harness.load("m.js", "export function activate(letta) { letta.events.on('turn_start', () => {}); }");
    let outcome = harness.engine.emit("turn_start", &json!({"input": "not an array"})).unwrap();
    assert!(matches!(outcome, EmitOutcome::Rejected { .. }), "{outcome:?}");
    let outcome = harness.engine.emit("turn_begin", &json!({})).unwrap();
    assert_eq!(outcome, EmitOutcome::Rejected { message: "Unsupported mod event 'turn_begin'".to_owned() });
}

#[test]
fn diagnostics_are_a_ring_buffer_of_200_that_keeps_the_newest_50() {
    let mut harness = Harness::new("engine");
    let (_, snapshot) = harness.load(
        "m.js",
        "export function activate(letta) { for (let i = 0; i <= 200; i++) letta.diagnostics.report({ message: String(i) }); }",
    );
    let kept: Vec<_> = snapshot.diagnostics.iter().map(|d| d.message.clone()).collect();
    assert_eq!(kept.len(), 50);
    assert_eq!((kept[0].as_str(), kept[49].as_str()), ("151", "200"));
    let (_, snapshot) = harness.load(
        "n.js",
        "export function activate(letta) { for (let i = 0; i <= 201; i++) letta.diagnostics.report({ message: String(i) }); }",
    );
    assert_eq!(snapshot.diagnostics.len(), 51);
}
