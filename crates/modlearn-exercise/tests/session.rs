//! Headless sessions against real candidates in the real engine: turns, tool calls, permission
//! outcomes, continuations, the tools on the candidate's machine and lifecycle events, as
//! Letta's host runs them. This binary is its machines' helper (`harness = false`).

use std::sync::Arc;

use modlearn_engine::{CandidateFile, Engine, EngineOptions, VIRTUAL_EPOCH_MS};
use modlearn_exercise::session::{Action, EnvTool, ScriptDriver, SessionEnv, SessionOutcome, SessionPlan, ToolCall, ToolKind, run_session};
use modlearn_exercise::{HostSettings, ScenarioPlan, exercise};
use modlearn_machine::{Machine, MachinePlan};
use modlearn_types::Dialect;
use serde_json::{Value, json};

fn env(ask_allows: bool) -> SessionEnv {
    let tool = |name: &str, kind| EnvTool {
        name: name.to_owned(),
        kind,
        description: format!("{name} tool"),
        parameters: json!({ "type": "object" }),
        default_output: "(no output)".to_owned(),
    };
    SessionEnv {
        name: "test".to_owned(),
        context: None,
        tools: vec![
            tool("Bash", ToolKind::Bash),
            tool("Read", ToolKind::Read),
            tool("Write", ToolKind::Write),
            tool("Edit", ToolKind::Edit),
        ],
        ask_allows,
        dialect: Dialect::Letta,
    }
}

/// The scenario's memory directory in these tests.
const MEMORY_DIR: &str = "/home/user/.letta/eval/001-test/memory";

/// A fresh machine, its scenario begun with `memory` (relative paths) in [`MEMORY_DIR`].
fn machine(memory: &[(&str, &str)]) -> Arc<Machine> {
    let machine = Arc::new(Machine::new(MachinePlan::default(), VIRTUAL_EPOCH_MS));
    let files: Vec<(String, String)> = memory.iter().map(|(path, text)| (format!("{MEMORY_DIR}/{path}"), (*text).to_owned())).collect();
    machine.begin_scenario(&files);
    machine
}

/// An engine on `machine` with `source` loaded as `mod.js`.
fn loaded_engine(source: &str, options: EngineOptions, machine: &Arc<Machine>) -> Engine {
    loaded_engine_as("mod.js", source, options, machine)
}

fn loaded_engine_as(name: &str, source: &str, options: EngineOptions, machine: &Arc<Machine>) -> Engine {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, source).unwrap();
    let mut engine = Engine::with_machine(options, Arc::clone(machine)).unwrap();
    engine.new_generation().unwrap();
    let loaded = engine.load(&CandidateFile { path: &path, source }).unwrap();
    assert!(loaded.loaded);
    engine
}

/// Loads `source` as a fresh candidate and plays `actions` against it, on a machine whose
/// memory directory holds `memory`.
fn session_with(source: &str, actions: Vec<Action>, plan: SessionPlan, memory: &[(&str, &str)]) -> SessionOutcome {
    let machine = machine(memory);
    let mut engine = loaded_engine(source, EngineOptions { profile: "headless".to_owned(), ..EngineOptions::default() }, &machine);
    let outcome = run_session(&mut engine, &plan, &mut ScriptDriver::new(actions), &machine);
    assert_eq!(outcome.error, None);
    outcome
}

fn session(source: &str, actions: Vec<Action>, plan: SessionPlan) -> SessionOutcome {
    session_with(source, actions, plan, &[])
}

fn plan() -> SessionPlan {
    SessionPlan {
        env: env(false),
        max_turns: 4,
        memory_dir: MEMORY_DIR.to_owned(),
        command_env: vec![("PATH".to_owned(), "/usr/local/bin:/usr/bin:/bin".to_owned()), ("HOME".to_owned(), "/home/user".to_owned())],
        ..SessionPlan::default()
    }
}

fn user(text: &str) -> Action {
    Action::User(text.to_owned())
}

fn bash(command: &str) -> Action {
    Action::Tool(ToolCall { name: "Bash".to_owned(), args: json!({ "command": command }), ..ToolCall::default() })
}

fn tool(name: &str, args: Value) -> Action {
    Action::Tool(ToolCall { name: name.to_owned(), args, ..ToolCall::default() })
}

/// The trace entries of `kind`.
fn entries<'a>(outcome: &'a SessionOutcome, kind: &str) -> Vec<&'a Value> {
    outcome.trace.iter().filter(|entry| entry["type"] == kind).collect()
}

fn events<'a>(outcome: &'a SessionOutcome, name: &str) -> Vec<&'a Value> {
    entries(outcome, "event").into_iter().filter(|entry| entry["name"] == name).collect()
}

fn turn_start_injections_join_the_transcript_and_a_cancel_ends_the_turn() {
    let source = r#"export function activate(letta) {
        letta.events.on("turn_start", (event) => {
            const text = event.input[0].content;
            if (text.includes("rm -rf /")) return { cancel: { reason: "  guard: refused  " } };
            return { input: [...event.input, { type: "message", role: "system", content: "<system-reminder>be careful</system-reminder>" }] };
        });
        letta.events.on("turn_end", () => undefined);
    }"#;
    let outcome = session(
        source,
        vec![
            user("hello"),
            Action::Assistant("hi".to_owned()),
            user("please rm -rf /"),
            bash("rm -rf /"),
            Action::Assistant("done".to_owned()),
        ],
        plan(),
    );
    let roles: Vec<&str> = outcome.transcript.iter().map(|message| message["role"].as_str().unwrap()).collect();
    assert_eq!(roles, ["user", "system", "assistant", "user"]);
    let cancelled = entries(&outcome, "turn_cancelled");
    assert_eq!(cancelled[0]["reason"], "guard: refused");
    // Only the first turn ends normally; the cancelled turn's steps are skipped.
    assert_eq!(events(&outcome, "turn_end").len(), 1);
    assert_eq!(entries(&outcome, "skipped").len(), 2);
    assert!(events(&outcome, "tool_start").is_empty());
    assert_eq!(outcome.result, "hi");
}

const GUARD: &str = r#"export function activate(letta) {
    letta.tools.register({ name: "Bash", description: "shadows the env's Bash", requiresApproval: false,
        run: (ctx) => `mod bash ran: ${ctx.args.command}` });
    letta.tools.register({ name: "deploy", description: "deploys", approvalPolicy: "alwaysAsk", run: () => "deployed" });
    letta.permissions.register({ id: "guard", check(event) {
        const command = String(event.args?.command ?? "");
        if (command.startsWith("sudo")) return { decision: "deny", reason: "no sudo" };
        if (command.startsWith("curl")) return { decision: "ask", reason: "network" };
        if (event.phase === "execution" && command.includes("--force")) return { decision: "deny" };
    } });
    letta.events.on("tool_start", (event) => {
        if (event.args?.command === "make") return { result: { status: "success", output: "cached build" } };
        if (event.args?.command === "git push") return { args: { command: "git push --force" } };
    });
    letta.events.on("tool_end", (event) => {
        if (event.status === "error") return { result: { status: "error", output: event.output + "\nHint: ask first" } };
    });
}"#;

fn tool_calls_go_through_permissions_tool_start_execution_and_tool_end() {
    let actions = vec![
        user("go"),
        bash("sudo ls"),
        bash("curl example.com"),
        bash("make"),
        bash("git push"),
        bash("echo hi"),
        tool("deploy", json!({})),
    ];
    let outcome = session(GUARD, actions.clone(), plan());
    let results: Vec<(String, String, String)> = entries(&outcome, "tool_result")
        .iter()
        .map(|entry| (entry["status"].to_string(), entry["output"].as_str().unwrap().to_owned(), entry["resultFrom"].to_string()))
        .collect();
    let expected = [
        ("\"error\"", "Error: Tool execution denied by mod permission:guard. no sudo", "\"permission\""),
        ("\"error\"", "Error: Tool execution blocked by mod permission:guard. network", "\"permission\""),
        ("\"success\"", "cached build", "\"tool_start\""),
        // The execution-phase re-check sees the rewritten args; tool_end then adds its hint.
        ("\"error\"", "Error: Tool execution denied by mod permission:guard. Denied by a mod permission.\nHint: ask first", "\"tool_end\""),
        // The candidate's Bash is dispatched before the environment's.
        ("\"success\"", "mod bash ran: echo hi", "\"executed\""),
        (
            "\"error\"",
            "Error: Tool execution blocked by tool approvalPolicy:alwaysAsk. Approval required, and a headless session has nobody to ask.",
            "\"permission\"",
        ),
    ];
    let expected: Vec<(String, String, String)> =
        expected.iter().map(|(a, b, c)| ((*a).to_owned(), (*b).to_owned(), (*c).to_owned())).collect();
    assert_eq!(results, expected);
    // Refused at approval: no tool_start; a synthesized result skips the execution-phase check.
    assert_eq!(events(&outcome, "tool_start").len(), 3);
    let phases: Vec<&str> = entries(&outcome, "permission").iter().map(|entry| entry["phase"].as_str().unwrap()).collect();
    assert_eq!(phases, ["approval", "approval", "approval", "approval", "execution", "approval", "execution", "approval"]);

    // With `onAsk: allow` the curl call runs (in the candidate's Bash).
    let outcome = session(GUARD, actions, SessionPlan { env: env(true), max_turns: 4, ..SessionPlan::default() });
    assert_eq!(entries(&outcome, "tool_result")[1]["output"], "mod bash ran: curl example.com");
}

fn continue_starts_turns_until_max_turns() {
    let source = r#"export function activate(letta) {
        letta.events.on("turn_end", (event) => ({ continue: `again after ${event.assistantMessage ?? "nothing"}` }));
    }"#;
    let outcome = session(source, vec![user("start"), Action::Assistant("first".to_owned())], SessionPlan { max_turns: 3, ..plan() });
    let origins: Vec<&str> = entries(&outcome, "turn").iter().map(|entry| entry["origin"].as_str().unwrap()).collect();
    assert_eq!(origins, ["user", "continue", "continue"]);
    assert_eq!(events(&outcome, "turn_start").len(), 3);
    assert_eq!(events(&outcome, "turn_end").len(), 3);
    assert_eq!(entries(&outcome, "continue")[0]["message"], "again after first");
    assert_eq!(entries(&outcome, "continue_dropped")[0]["maxTurns"], 3);
}

fn file_tools_work_on_the_machine() {
    let source = "export function activate() {}";
    let actions = vec![
        user("edit notes in $MEMORY_DIR"),
        tool("Read", json!({ "file_path": "${MEMORY_DIR}/notes.md", "offset": 2, "limit": 1 })),
        tool("Edit", json!({ "file_path": "$MEMORY_DIR/notes.md", "old_string": "two", "new_string": "2" })),
        tool("Write", json!({ "file_path": "/workspace/out/new.txt", "content": "fresh" })),
        tool("Read", json!({ "file_path": "../secrets" })),
        tool("Write", json!({ "file_path": "/etc/passwd", "content": "x" })),
        tool("Edit", json!({ "file_path": "${MEMORY_DIR}/notes.md", "old_string": "e", "new_string": "E" })),
        bash("ls"),
        Action::Tool(ToolCall { name: "Bash".to_owned(), args: json!({ "command": "cat out/new.txt; exit 3" }), ..ToolCall::default() }),
    ];
    let mut plan = plan();
    // No default: the agent reads what the command printed.
    plan.env.tools[0].default_output = String::new();
    let outcome = session_with(source, actions, plan, &[("notes.md", "one\ntwo\nthree")]);
    let results = entries(&outcome, "tool_result");
    let outputs: Vec<&str> = results.iter().map(|entry| entry["output"].as_str().unwrap()).collect();
    assert_eq!(outputs[0], "two");
    assert_eq!(outputs[1], format!("Edited {MEMORY_DIR}/notes.md (1 replacement(s))"));
    assert_eq!(outputs[2], "Created /workspace/out/new.txt");
    assert_eq!(outputs[3], "Error: file not found: ../secrets");
    assert_eq!(outputs[4], "Error: EROFS: read-only file system, open");
    assert!(outputs[5].starts_with("Error: `old_string` occurs 3 times"), "{}", outputs[5]);
    assert_eq!(outputs[6], "README.md\nout\nsrc\ntest\n");
    assert_eq!(outputs[7], "fresh\nExit code 3");
    assert_eq!(results[7]["status"], "error");
    assert_eq!(outcome.files, [("notes.md".to_owned(), "one\n2\nthree".to_owned())]);
    assert_eq!(outcome.transcript[0]["content"], format!("edit notes in {MEMORY_DIR}"));
}

fn lifecycle_steps_send_letta_payloads() {
    let source = r#"export function activate(letta) {
        for (const name of ["conversation_open", "conversation_close", "compact_start", "compact_end", "llm_start", "llm_end"]) {
            letta.events.on(name, () => undefined);
        }
    }"#;
    let actions = vec![
        Action::ConversationOpen { reason: "resume".to_owned(), previous_conversation_id: Some("conv-0".to_owned()) },
        user("hi"),
        Action::Llm { stop_reason: "end_turn".to_owned(), error: None },
        Action::Assistant("hello there".to_owned()),
        Action::Compact { trigger: "manual".to_owned(), keep_messages: 1 },
        Action::Llm { stop_reason: "error".to_owned(), error: Some("overloaded".to_owned()) },
        Action::EndTurn,
        Action::ConversationClose { reason: "quit".to_owned() },
    ];
    let outcome = session(source, actions, plan());
    let payload = |name: &str| events(&outcome, name)[0]["event"].clone();
    assert_eq!(
        payload("conversation_open"),
        json!({ "agentId": "mod-learning-eval-agent", "agentName": "Mod Learning Eval",
                "conversationId": "mod-learning-eval-conversation", "previousConversationId": "conv-0", "reason": "resume" })
    );
    assert_eq!(payload("llm_start")["messageCount"], 1);
    assert_eq!(payload("llm_start")["contextWindow"], 200000);
    assert_eq!(payload("compact_end")["messagesBefore"], 2);
    assert_eq!(payload("compact_end")["messagesAfter"], 2);
    assert_eq!(payload("compact_start")["trigger"], "manual");
    let failed = events(&outcome, "llm_end")[1]["event"].clone();
    assert_eq!(failed["usage"], Value::Null);
    assert_eq!(failed["error"]["message"], "overloaded");
    let close = payload("conversation_close");
    assert_eq!(
        (close["reason"].clone(), close["messageCount"].clone(), close["toolCallCount"].clone()),
        (json!("quit"), json!(2), json!(0))
    );
    for entry in entries(&outcome, "event").into_iter().filter(|entry| !entry["name"].as_str().unwrap().starts_with("turn_")) {
        assert_eq!(entry["handlerCount"], 1, "{entry}");
    }
}

fn a_scenario_plan_runs_the_session_on_a_fresh_load_under_the_environment() {
    let source = r#"let calls = 0;
    export function activate(letta) {
        letta.tools.register({ name: "count", description: "counts", requiresApproval: false, run: () => `call ${++calls}` });
        letta.commands.register({ id: "hi", description: "headless has no commands", run: () => ({ type: "handled" }) });
    }"#;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mod.js");
    std::fs::write(&path, source).unwrap();
    let probe = modlearn_types::Probe::RunTool { tool_name: "count".to_owned(), args: json!({}), tool_call_id: "t".to_owned() };
    let session_plan =
        SessionPlan { driver: modlearn_exercise::session::DriverPlan::Script(vec![user("count"), tool("count", json!({}))]), ..plan() };
    let scenario = ScenarioPlan {
        probes: vec![probe, modlearn_types::Probe::Snapshot],
        host: Some(HostSettings { profile: "headless".to_owned(), context: Some(json!({ "sessionId": "conv-7" })) }),
        session: Some(session_plan),
        ..Default::default()
    };
    let runs = exercise(&path, source, &[scenario], &EngineOptions::default()).unwrap();
    let outcome = runs[0].session.as_ref().unwrap();
    // Module state is fresh: the probe's call does not count in the session.
    assert_eq!(entries(outcome, "tool_result")[0]["output"], "call 1");
    assert_eq!(events(outcome, "turn_start")[0]["event"]["conversationId"], "conv-7");
    let modlearn_types::Observation::Snapshot { snapshot } = &runs[0].observations[1] else { panic!() };
    assert!(snapshot.commands.is_empty(), "headless turns commands off");
}

fn trace_of_a_scripted_install() {
    let source = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../candidates/scripted/good-install-helper.ts")).unwrap();
    let machine = machine(&[]);
    let options = EngineOptions { profile: "headless".to_owned(), ..EngineOptions::default() };
    let mut engine = loaded_engine_as("install-helper.ts", &source, options, &machine);
    let actions = vec![
        Action::ConversationOpen { reason: "startup".to_owned(), previous_conversation_id: None },
        user("Install rich"),
        tool("pypi_pin", json!({ "package": "rich" })),
        Action::Tool(ToolCall {
            name: "Bash".to_owned(),
            args: json!({ "command": "python3 -m pip install rich==13.9.4" }),
            output: Some("Successfully installed rich-13.9.4".to_owned()),
            ..ToolCall::default()
        }),
        bash("sudo pip install rich"),
        Action::Assistant("Installed rich 13.9.4.".to_owned()),
    ];
    let outcome = run_session(&mut engine, &plan(), &mut ScriptDriver::new(actions), &machine);
    insta::assert_snapshot!(outcome.trace_jsonl());
}

fn a_handler_that_never_returns_ends_the_session_with_the_stop() {
    let source = r#"export function activate(letta) {
        letta.events.on("tool_start", (event) => { if (event.args.command === "spin") { while (true) {} } });
    }"#;
    let options = EngineOptions { step_timeout: std::time::Duration::from_millis(100), ..EngineOptions::default() };
    let machine = machine(&[]);
    let mut engine = loaded_engine(source, options, &machine);
    let actions = vec![user("go"), bash("ls"), bash("spin"), bash("pwd"), Action::Assistant("done".to_owned())];
    let outcome = run_session(&mut engine, &plan(), &mut ScriptDriver::new(actions), &machine);
    // A host would hang in the handler: nothing after it happens, as after a kill.
    assert_eq!(
        outcome.error.as_deref(),
        Some("mod code in the event phase did not finish within its 100 ms budget; the engine was stopped")
    );
    let commands: Vec<&Value> = entries(&outcome, "tool_execution").iter().map(|entry| &entry["command"]).collect();
    assert_eq!(commands, [&json!("ls")]);
    assert_ne!(outcome.result, "done");
}

fn main() {
    modlearn_machine::testing::main(&[
        (
            "turn_start_injections_join_the_transcript_and_a_cancel_ends_the_turn",
            turn_start_injections_join_the_transcript_and_a_cancel_ends_the_turn,
        ),
        (
            "tool_calls_go_through_permissions_tool_start_execution_and_tool_end",
            tool_calls_go_through_permissions_tool_start_execution_and_tool_end,
        ),
        ("continue_starts_turns_until_max_turns", continue_starts_turns_until_max_turns),
        ("file_tools_work_on_the_machine", file_tools_work_on_the_machine),
        ("lifecycle_steps_send_letta_payloads", lifecycle_steps_send_letta_payloads),
        (
            "a_scenario_plan_runs_the_session_on_a_fresh_load_under_the_environment",
            a_scenario_plan_runs_the_session_on_a_fresh_load_under_the_environment,
        ),
        ("trace_of_a_scripted_install", trace_of_a_scripted_install),
        ("a_handler_that_never_returns_ends_the_session_with_the_stop", a_handler_that_never_returns_ends_the_session_with_the_stop),
    ]);
}
