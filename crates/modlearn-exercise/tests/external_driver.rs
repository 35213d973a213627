//! A driver made outside this crate (as the runner's eval model is): `DriverPlan::External` runs
//! through `exercise` like a script, the driver sees the mods' injected messages in the
//! transcript, `Action::Stop` ends the session unfinished, and `finish` adds a `driver` entry.
//! This binary is its machines' helper (`harness = false`).

use std::sync::{Arc, Mutex};

use modlearn_engine::EngineOptions;
use modlearn_exercise::session::{
    Action, DriverFactory, DriverPlan, EnvTool, SessionDriver, SessionEnv, SessionPlan, SessionView, ToolCall, ToolKind,
};
use modlearn_exercise::{ScenarioPlan, exercise};
use modlearn_types::Dialect;
use serde_json::{Value, json};

/// Plays `steps`, then stops with `stop` if given; records every transcript it was shown.
#[derive(Debug)]
struct Recording {
    steps: Vec<Action>,
    stop: Option<String>,
    seen: Arc<Mutex<Vec<Vec<Value>>>>,
}

struct RecordingDriver {
    steps: std::vec::IntoIter<Action>,
    stop: Option<String>,
    seen: Arc<Mutex<Vec<Vec<Value>>>>,
}

impl DriverFactory for Recording {
    fn driver(&self) -> Box<dyn SessionDriver> {
        Box::new(RecordingDriver { steps: self.steps.clone().into_iter(), stop: self.stop.clone(), seen: Arc::clone(&self.seen) })
    }
}

impl SessionDriver for RecordingDriver {
    fn next_action(&mut self, view: &SessionView<'_>) -> Action {
        self.seen.lock().unwrap().push(view.transcript.to_vec());
        match (self.steps.next(), &self.stop) {
            (Some(step), _) => step,
            (None, Some(reason)) => Action::Stop(reason.clone()),
            (None, None) => Action::End,
        }
    }

    fn finish(&mut self) -> Option<Value> {
        Some(json!({ "driver": "recording" }))
    }
}

const MOD: &str = r#"export function activate(letta) {
    letta.events.on("turn_start", (event) => ({ input: [...event.input, { type: "message", role: "system", content: "use uv" }] }));
    letta.events.on("tool_start", (event) => ({ args: { command: event.args.command.replace("pip install", "uv pip install") } }));
}"#;

fn run(stop: Option<&str>) -> (modlearn_exercise::session::SessionOutcome, Vec<Vec<Value>>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mod.js");
    std::fs::write(&path, MOD).unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let steps = vec![
        Action::User("install in $MEMORY_DIR".to_owned()),
        Action::Tool(ToolCall { name: "Bash".to_owned(), args: json!({ "command": "pip install x" }), ..ToolCall::default() }),
        Action::Assistant("Installed x.".to_owned()),
    ];
    let factory = Recording { steps, stop: stop.map(str::to_owned), seen: Arc::clone(&seen) };
    let bash = EnvTool {
        name: "Bash".to_owned(),
        kind: ToolKind::Bash,
        description: "shell".to_owned(),
        parameters: json!({ "type": "object" }),
        default_output: "ok".to_owned(),
    };
    let session = SessionPlan {
        driver: DriverPlan::External(Arc::new(factory)),
        env: SessionEnv { name: "test".to_owned(), context: None, tools: vec![bash], ask_allows: false, dialect: Dialect::Letta },
        memory_dir: "/home/user/.letta/eval/001-x/memory".to_owned(),
        command_env: vec![("PATH".to_owned(), "/usr/local/bin:/usr/bin:/bin".to_owned())],
        max_turns: 2,
    };
    let plan = ScenarioPlan { probes: Vec::new(), host: None, session: Some(session), ..Default::default() };
    let mut runs = exercise(&path, MOD, &[plan], &EngineOptions::default()).unwrap();
    let outcome = runs.remove(0).session.expect("the session ran");
    let seen = seen.lock().unwrap().clone();
    (outcome, seen)
}

fn an_external_driver_sees_the_injected_messages_and_its_calls_are_rewritten() {
    let (outcome, seen) = run(None);
    assert_eq!(outcome.error, None);
    assert_eq!(outcome.result, "Installed x.");
    // After the user step, the driver's view holds the substituted prompt and the mod's reminder.
    assert_eq!(
        seen[1],
        vec![
            json!({ "type": "message", "role": "user", "content": "install in /home/user/.letta/eval/001-x/memory" }),
            json!({ "type": "message", "role": "system", "content": "use uv" }),
        ]
    );
    let execution = outcome.trace.iter().find(|entry| entry["type"] == "tool_execution").unwrap();
    assert_eq!(execution["command"], "uv pip install x");
    let kinds: Vec<&str> = outcome.trace.iter().rev().take(2).map(|entry| entry["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["result", "driver"]);
}

fn a_stop_ends_the_session_unfinished_with_the_reason() {
    let (outcome, _) = run(Some("the 10 ms of timeoutMs ran out"));
    assert_eq!(outcome.error.as_deref(), Some("the 10 ms of timeoutMs ran out"));
    let error = outcome.trace.iter().find(|entry| entry["type"] == "error").unwrap();
    assert_eq!(error["message"], "the 10 ms of timeoutMs ran out");
    assert!(outcome.trace.iter().any(|entry| entry["type"] == "driver"), "finish runs on a stop too");
}

fn main() {
    modlearn_machine::testing::main(&[
        (
            "an_external_driver_sees_the_injected_messages_and_its_calls_are_rewritten",
            an_external_driver_sees_the_injected_messages_and_its_calls_are_rewritten,
        ),
        ("a_stop_ends_the_session_unfinished_with_the_reason", a_stop_ends_the_session_unfinished_with_the_reason),
    ]);
}
