//! Running tools, permission overlays and slash commands directly, as
//! Letta Code's host does outside event dispatch: the ctx each one gets,
//! Letta's result rules, and faults in every unit of mod code.

use std::time::Duration;

use modlearn_engine::{CandidateFile, Engine, EngineError, EngineOptions, StopFault};
use modlearn_types::{CommandRun, Diagnostic, Fault, PermissionCheck, ToolRun};
use serde_json::{Value, json};

struct Harness {
    engine: Engine,
    dir: tempfile::TempDir,
}

impl Harness {
    fn new(profile: &str) -> Harness {
        let options = EngineOptions { profile: profile.to_owned(), step_timeout: Duration::from_millis(300), ..Default::default() };
        Harness { engine: Engine::new(options).unwrap(), dir: tempfile::tempdir().unwrap() }
    }

    /// Starts a generation and loads `source`; panics unless it loads cleanly.
    fn load(&mut self, source: &str) {
        let path = self.dir.path().join("m.js");
        std::fs::write(&path, source).unwrap();
        self.engine.new_generation().unwrap();
        let loaded = self.engine.load(&CandidateFile { path: &path, source }).unwrap().loaded;
        let diagnostics = self.engine.snapshot().unwrap().diagnostics;
        assert!(loaded && diagnostics.is_empty(), "{diagnostics:#?}");
    }

    fn run_tool(&mut self, name: &str, args: Value) -> ToolRun {
        self.engine.run_tool(name, &args, "call-1").unwrap()
    }

    fn check(&mut self, tool_name: &str, args: Value) -> PermissionCheck {
        let event = json!({ "agentId": "agent-1", "conversationId": "conv-1", "toolCallId": "call-1", "toolName": tool_name, "args": args, "phase": "approval" });
        self.engine.check_permissions(&event).unwrap()
    }

    fn run_command(&mut self, command: &str, args: &str) -> CommandRun {
        self.engine.run_command(command, args).unwrap()
    }

    /// Runs `request`, which mod code must stop at a limit: the stop's (fault, phase), after
    /// checking that the engine refuses everything after it.
    fn stopped(&mut self, request: impl FnOnce(&mut Engine) -> Result<(), EngineError>) -> (StopFault, String) {
        let error = request(&mut self.engine).expect_err("stopped at a limit");
        assert_eq!(self.engine.snapshot().expect_err("the engine is gone").to_string(), error.to_string());
        let EngineError::Stopped { fault, phase, .. } = error else { panic!("{error:?}") };
        (fault, phase)
    }

    fn diagnostics(&mut self) -> Vec<Diagnostic> {
        self.engine.snapshot().unwrap().diagnostics
    }

    fn console(&mut self) -> Vec<String> {
        self.engine.take_console().unwrap().into_iter().map(|line| line.text).collect()
    }
}

/// `(status, output, [(phase, fault)])` of a tool run that ran.
fn ran(run: ToolRun) -> (String, Value, Vec<(String, Fault)>) {
    match run {
        ToolRun::Ran { status, output, diagnostics, .. } => {
            (status, output, diagnostics.iter().map(|d| (d.phase.clone(), d.fault)).collect())
        }
        other => panic!("expected a run, got {other:?}"),
    }
}

#[test]
fn a_tool_runs_with_letta_ctx_and_its_result_is_normalised() {
    let mut harness = Harness::new("engine");
    harness.load(r#"export function activate(letta) {
        letta.tools.register({ name: "inspect", description: "d", async run(ctx) {
            const secret = await ctx.secret("api_token");
            let invalid = "";
            try { await ctx.secret("1bad"); } catch (error) { invalid = error.message; }
            console.log(JSON.stringify({
                args: ctx.args, toolCallId: ctx.toolCallId, aborted: ctx.signal.aborted, conversation: ctx.conversation.id,
                cwd: ctx.cwd, agent: ctx.agent.id, secret, invalid: invalid.slice(0, 26), enumerableTrap: Object.keys(ctx).includes("getContext"),
            }));
            return { status: "error", output: "checked " + ctx.args.path };
        } });
        letta.tools.register({ name: "blocks", description: "d", run: () => [{ type: "text", text: "a" }, { type: "text", text: "b" }] });
        letta.tools.register({ name: "counts", description: "d", run: () => ({ files: ["a.ts", "b.ts"] }) });
        // The call's signal listens to the mod's; each call must remove its listener.
        letta.tools.register({ name: "listeners", description: "d", run: () => letta.signal.listenerCount });
    }"#);
    let (status, output, faults) = ran(harness.run_tool("inspect", json!({ "path": "src" })));
    assert_eq!((status.as_str(), output, faults), ("error", json!("checked src"), vec![]));
    let seen: Value = serde_json::from_str(&harness.console()[0]).unwrap();
    assert_eq!(
        seen,
        json!({
            "args": { "path": "src" }, "toolCallId": "call-1", "aborted": false, "conversation": "mod-learning-eval-conversation",
            "cwd": "/workspace", "agent": "mod-learning-eval-agent", "secret": null, "invalid": "Invalid secret name '1bad'",
            "enumerableTrap": false,
        })
    );
    assert_eq!(ran(harness.run_tool("blocks", json!({}))).1, json!([{ "type": "text", "text": "a" }, { "type": "text", "text": "b" }]));
    assert_eq!(ran(harness.run_tool("counts", json!({}))).1, json!("Found 2 files\na.ts\nb.ts"));
    assert_eq!(ran(harness.run_tool("listeners", json!({}))).1, json!("1"));
    assert_eq!(ran(harness.run_tool("listeners", json!({}))).1, json!("1"));
    let ToolRun::NotRegistered { registered } = harness.run_tool("missing", json!({})) else { panic!() };
    assert_eq!(registered, ["inspect", "blocks", "counts", "listeners"]);
    assert!(harness.diagnostics().is_empty());
}

#[test]
fn a_throwing_or_stuck_tool_is_an_error_result_with_a_tool_run_diagnostic() {
    let mut harness = Harness::new("engine");
    harness.load(
        r#"export function activate(letta) {
        letta.tools.register({ name: "throws", description: "d", run(ctx) { throw new RangeError("no such note: " + ctx.args.id); } });
        letta.tools.register({ name: "loops", description: "d", run() { for (;;) {} } });
        letta.tools.register({ name: "waits", description: "d", run: () => new Promise(() => {}) });
        // Spelled so the load-time scan for removed APIs does not see it.
        letta.tools.register({ name: "legacy", description: "d", run: (ctx) => ctx["get" + "Context"]() });
    }"#,
    );
    let (status, output, faults) = ran(harness.run_tool("throws", json!({ "id": 7 })));
    assert_eq!((status.as_str(), output), ("error", json!("no such note: 7")));
    assert_eq!(faults, [("tool.run".to_owned(), Fault::Exception)]);
    assert_eq!(ran(harness.run_tool("waits", json!({}))).2, [("tool.run".to_owned(), Fault::NeverSettled)]);
    let (_, output, _) = ran(harness.run_tool("legacy", json!({})));
    assert_eq!(output, json!("ctx.getContext() was removed"));
    let recorded: Vec<(String, String)> =
        harness.diagnostics().iter().map(|d| (d.phase.clone(), d.capability.as_ref().unwrap().id.clone())).collect();
    assert_eq!(recorded[0], ("tool.run".to_owned(), "throws".to_owned()));
    assert_eq!(&recorded[2..], [("deprecated_api".to_owned(), "ctx.getContext".to_owned()), ("tool.run".to_owned(), "legacy".to_owned())]);
    // The engine is still usable after the failed steps ...
    assert_eq!(ran(harness.run_tool("throws", json!({ "id": 1 }))).1, json!("no such note: 1"));
    // ... but not after one stopped at its budget (as a host would hang on it).
    assert_eq!(harness.stopped(|engine| engine.run_tool("loops", &json!({}), "call-2").map(drop)), (StopFault::Timeout, "tool".to_owned()));
}

#[test]
fn is_enabled_hides_a_tool_on_a_falsy_value_and_on_a_throw() {
    let mut harness = Harness::new("engine");
    harness.load(
        r#"export function activate(letta) {
        letta.tools.register({ name: "off", description: "d", isEnabled: () => 0, run: () => "ran" });
        letta.tools.register({ name: "unsure", description: "d", isEnabled: () => undefined, run: () => "ran" });
        letta.tools.register({ name: "lazy", description: "d", isEnabled: async () => false, run: () => "ran" });
        letta.tools.register({ name: "broken", description: "d", isEnabled: (ctx) => ctx.flags.tools, run: () => "ran" });
    }"#,
    );
    let ToolRun::Unavailable { reason, diagnostics } = harness.run_tool("off", json!({})) else { panic!() };
    assert_eq!((reason.as_str(), diagnostics.len()), ("isEnabled(ctx) returned 0", 0));
    assert_eq!(ran(harness.run_tool("unsure", json!({}))).1, json!("ran"));
    // Letta does not await isEnabled: a promise is truthy.
    assert_eq!(ran(harness.run_tool("lazy", json!({}))).1, json!("ran"));
    let ToolRun::Unavailable { reason, diagnostics } = harness.run_tool("broken", json!({})) else { panic!() };
    assert!(reason.starts_with("isEnabled(ctx) threw: "), "{reason}");
    assert_eq!((diagnostics[0].phase.as_str(), diagnostics[0].fault), ("tool.isEnabled", Fault::Exception));
}

#[test]
fn permission_overlays_compose_in_order_with_deny_first() {
    let mut harness = Harness::new("engine");
    harness.load(r#"export function activate(letta) {
        letta.permissions.register({ id: "allow-all", check: () => ({ decision: "allow" }) });
        letta.permissions.register({ id: "asks", check: (event) => event.toolName === "Bash" ? { decision: "ask", reason: "shell" } : undefined });
        letta.permissions.register({ id: "off", isEnabled: () => false, check: () => ({ decision: "deny" }) });
        letta.permissions.register({ id: "guard", check(event, ctx) {
            console.log(JSON.stringify({ event, signal: typeof ctx.signal.aborted, cwd: ctx.cwd }));
            if (String(event.args.command).includes("rm -rf")) return { decision: "deny", reason: "recursive delete" };
            return { decision: "bogus" };
        } });
    }"#);
    let PermissionCheck::Decided { decision, consulted, diagnostics, .. } = harness.check("Bash", json!({ "command": "rm -rf build" }))
    else {
        panic!()
    };
    let decision = decision.unwrap();
    assert_eq!(
        (decision.decision.as_str(), decision.matched_rule.as_str(), decision.reason),
        ("deny", "mod permission:guard", Some(json!("recursive delete")))
    );
    let outcomes: Vec<&str> = consulted.iter().map(|c| c.outcome.as_str()).collect();
    assert_eq!(outcomes, ["decided", "decided", "disabled", "decided"]);
    assert!(diagnostics.is_empty());
    let seen: Value = serde_json::from_str(&harness.console()[0]).unwrap();
    assert_eq!(
        seen,
        json!({
            "event": {
                "agentId": "agent-1", "conversationId": "conv-1", "toolCallId": "call-1", "toolName": "Bash",
                "args": { "command": "rm -rf build" }, "cwd": "/workspace", "workingDirectory": "/workspace",
                "permissionMode": "standard", "phase": "approval",
            },
            "signal": "boolean", "cwd": "/workspace",
        })
    );
    let PermissionCheck::Decided { decision, .. } = harness.check("Bash", json!({ "command": "ls" })) else { panic!() };
    assert_eq!(decision.unwrap().decision, "ask");
    let PermissionCheck::Decided { decision, .. } = harness.check("Read", json!({})) else { panic!() };
    assert_eq!(decision.unwrap().matched_rule, "mod permission:allow-all");
}

#[test]
fn a_failing_check_denies_at_once_and_is_enabled_failures_skip() {
    let mut harness = Harness::new("engine");
    harness.load(r#"export function activate(letta) {
        letta.permissions.register({ id: "flaky", isEnabled: () => { throw new Error("no config"); }, check: () => ({ decision: "deny" }) });
        letta.permissions.register({ id: "picky", check: (event) => { if (event.toolName === "Edit") throw new TypeError("bad path"); if (event.toolName === "Loop") for (;;) {} } });
        letta.permissions.register({ id: "later", check: () => ({ decision: "allow" }) });
    }"#);
    let PermissionCheck::Decided { decision, consulted, diagnostics, .. } = harness.check("Edit", json!({})) else { panic!() };
    let decision = decision.unwrap();
    assert_eq!((decision.decision.as_str(), decision.reason), ("deny", Some(json!("Mod permission 'picky' failed: bad path"))));
    let outcomes: Vec<&str> = consulted.iter().map(|c| c.outcome.as_str()).collect();
    assert_eq!(outcomes, ["enable_failed", "failed", "not_reached"]);
    let phases: Vec<&str> = diagnostics.iter().map(|d| d.phase.as_str()).collect();
    assert_eq!(phases, ["permission.isEnabled", "permission.check"]);
    let PermissionCheck::Decided { decision, .. } = harness.check("Read", json!({})) else { panic!() };
    assert_eq!(decision.unwrap().decision, "allow");
    let event = json!({ "toolName": "Loop", "args": {}, "phase": "approval" });
    assert_eq!(harness.stopped(|engine| engine.check_permissions(&event).map(drop)), (StopFault::Timeout, "permission".to_owned()));
}

#[test]
fn a_null_answer_makes_the_check_throw_and_no_overlays_mean_no_opinion() {
    let mut harness = Harness::new("engine");
    harness.load(
        r#"export function activate(letta) {
        letta.permissions.register({ id: "nully", check: () => null });
    }"#,
    );
    let PermissionCheck::Threw { message, consulted, .. } = harness.check("Bash", json!({})) else { panic!() };
    assert!(message.starts_with("TypeError: "), "{message}");
    assert_eq!(consulted[0].outcome, "escaped");
    harness.load("export function activate() {}");
    let PermissionCheck::Decided { decision, consulted, .. } = harness.check("Bash", json!({})) else { panic!() };
    assert_eq!((decision, consulted.len()), (None, 0));
}

#[test]
fn a_command_gets_letta_ctx_and_its_result_is_normalised() {
    let mut harness = Harness::new("engine");
    harness.load(r#"export function activate(letta) {
        letta.commands.register({ id: "notes", description: "Notes", run(ctx) {
            console.log(JSON.stringify({ rawInput: ctx.rawInput, command: ctx.command, args: ctx.args, argv: ctx.argv, conversation: ctx.conversation.id }));
            return { type: "prompt", content: "Summarise " + ctx.argv.join("|") };
        } });
        letta.commands.register({ id: "raw", description: "d", run: () => ({ type: "prompt", content: "as is", systemReminder: false }) });
        letta.commands.register({ id: "show", description: "d", run: () => ({ type: "output", output: "3 notes", success: true }) });
        letta.commands.register({ id: "quiet", description: "d", run: async () => ({ type: "handled" }) });
    }"#);
    let CommandRun::Ran { result, text, invocation } = harness.run_command("notes", r#" add "two words" it\'s "#) else { panic!() };
    assert_eq!(result, json!({ "type": "prompt", "content": "Summarise add|two words|it's" }));
    assert_eq!(text.as_deref(), Some("<system-reminder>\nSummarise add|two words|it's\n</system-reminder>"));
    assert_eq!(invocation.raw_input, r#"/notes  add "two words" it\'s"#);
    let seen: Value = serde_json::from_str(&harness.console()[0]).unwrap();
    assert_eq!(
        seen,
        json!({
            "rawInput": r#"/notes  add "two words" it\'s"#, "command": "notes", "args": r#"add "two words" it\'s"#,
            "argv": ["add", "two words", "it's"], "conversation": "mod-learning-eval-conversation",
        })
    );
    let CommandRun::Ran { text, .. } = harness.run_command("raw", "") else { panic!() };
    assert_eq!(text.as_deref(), Some("as is"));
    let CommandRun::Ran { result, text, .. } = harness.run_command("show", "") else { panic!() };
    assert_eq!((result, text.as_deref()), (json!({ "type": "output", "output": "3 notes", "success": true }), Some("3 notes")));
    let CommandRun::Ran { result, text, .. } = harness.run_command("quiet", "x") else { panic!() };
    assert_eq!((result, text), (json!({ "type": "handled" }), None));
    let CommandRun::NotRegistered { registered, .. } = harness.run_command("todo", "") else { panic!() };
    assert_eq!(registered, ["notes", "raw", "show", "quiet"]);
}

#[test]
fn failing_commands_record_command_run_and_letta_30_second_limit_applies() {
    let mut harness = Harness::new("engine");
    harness.load(r#"export function activate(letta) {
        letta.commands.register({ id: "bad-result", description: "d", run: () => "done" });
        letta.commands.register({ id: "throws", description: "d", run: () => { throw new Error("no notes yet"); } });
        letta.commands.register({ id: "waits", description: "d", run: () => new Promise(() => {}) });
        letta.commands.register({ id: "slow", description: "d", run: () => new Promise((resolve) => setTimeout(() => resolve({ type: "handled" }), 60000)) });
        letta.commands.register({ id: "loops", description: "d", run: () => { for (;;) {} } });
    }"#);
    let failure = |run: CommandRun| match run {
        CommandRun::Failed { message, diagnostics, .. } => (message, diagnostics[0].phase.clone(), diagnostics[0].fault),
        other => panic!("{other:?}"),
    };
    let command_run = "command.run".to_owned();
    assert_eq!(
        failure(harness.run_command("bad-result", "")),
        ("Mod command must return { type: 'prompt' | 'output' | 'handled' }".to_owned(), command_run.clone(), Fault::Exception)
    );
    assert_eq!(failure(harness.run_command("throws", "")), ("no notes yet".to_owned(), command_run.clone(), Fault::Exception));
    let timed_out = ("Mod command timed out after 30000ms".to_owned(), command_run.clone(), Fault::Exception);
    assert_eq!(failure(harness.run_command("waits", "")), timed_out);
    assert_eq!(failure(harness.run_command("slow", "")), timed_out);
    // Only the mod's own 60 s timer is left; the host's timers are gone.
    assert_eq!(harness.engine.snapshot().unwrap().timers, 1);
    assert_eq!(harness.stopped(|engine| engine.run_command("loops", "").map(drop)), (StopFault::Timeout, "command".to_owned()));
}

#[test]
fn commands_do_not_exist_under_the_headless_profile() {
    let mut harness = Harness::new("headless");
    harness.load(
        r#"export function activate(letta) {
        letta.commands.register({ id: "notes", description: "d", run: () => ({ type: "handled" }) });
    }"#,
    );
    let CommandRun::NotRegistered { invocation, registered } = harness.run_command("notes", "list") else { panic!() };
    assert_eq!((invocation.raw_input.as_str(), registered.len()), ("/notes list", 0));
}
