//! The simulated host: turns and tool calls as Letta Code's headless host runs them.

use modlearn_engine::{EmitOutcome, Engine, EngineError, VIRTUAL_EPOCH_MS};
use modlearn_machine::Machine;
use modlearn_machine::protocol::{Call, MachineReply, MachineRequest};
use serde_json::{Value, json};

use super::tools::SessionMachine;
use super::trace::Trace;
use super::{Action, SessionDriver, SessionOutcome, SessionPlan, SessionView, ToolSchema};

/// Actions a session may take before it counts as runaway.
const MAX_ACTIONS: usize = 10_000;

/// The ctx values the host puts on events, read from the engine's context settings with the
/// harness defaults behind them.
pub(super) struct HostContext {
    pub(super) agent_id: String,
    pub(super) agent_name: String,
    pub(super) conversation_id: String,
    pub(super) cwd: String,
    pub(super) model: String,
    pub(super) context_window: u64,
}

impl HostContext {
    fn from(context: Option<&Value>) -> HostContext {
        let text =
            |pointer: &str, default: &str| context.and_then(|c| c.pointer(pointer)).and_then(Value::as_str).unwrap_or(default).to_owned();
        HostContext {
            agent_id: text("/agent/id", "mod-learning-eval-agent"),
            agent_name: text("/agent/name", "Mod Learning Eval"),
            conversation_id: text("/sessionId", "mod-learning-eval-conversation"),
            cwd: text("/cwd", "/workspace"),
            model: text("/model/id", "mod-learning-eval"),
            context_window: context.and_then(|c| c.pointer("/contextWindow/size")).and_then(Value::as_u64).unwrap_or(200_000),
        }
    }
}

/// One running session.
pub(super) struct Session<'e> {
    pub(super) engine: &'e mut Engine,
    pub(super) plan: &'e SessionPlan,
    pub(super) host: HostContext,
    pub(super) trace: Trace,
    pub(super) transcript: Vec<Value>,
    pub(super) machine: SessionMachine<'e>,
    pub(super) tools: Vec<ToolSchema>,
    in_turn: bool,
    continuation: bool,
    pub(super) turns: u32,
    pub(super) tool_calls: u32,
    turn_reply: Option<String>,
    result: String,
}

/// Runs a session against the candidate loaded in `engine`, driven by `driver`, its tools on
/// `machine`. The candidate must be loaded (activated) already; the session does not dispose it.
pub fn run_session<'e>(
    engine: &'e mut Engine,
    plan: &'e SessionPlan,
    driver: &mut dyn SessionDriver,
    machine: &'e Machine,
) -> SessionOutcome {
    let host = HostContext::from(plan.env.context.as_ref());
    let on = SessionMachine { machine, cwd: host.cwd.clone(), env: plan.command_env.clone() };
    let mut session = Session {
        engine,
        plan,
        host,
        trace: Trace::default(),
        transcript: Vec::new(),
        machine: on,
        tools: Vec::new(),
        in_turn: false,
        continuation: false,
        turns: 0,
        tool_calls: 0,
        turn_reply: None,
        result: String::new(),
    };
    session.trace.push("session", json!({ "env": plan.env.name, "cwd": session.host.cwd, "maxTurns": plan.max_turns }));
    let error = session.drive(driver).err();
    if let Some(summary) = driver.finish() {
        session.trace.push("driver", summary);
    }
    if let Some(error) = &error {
        session.trace.push("error", json!({ "message": error }));
    }
    let (diagnostics, world) = session.engine.snapshot().map(|snapshot| (snapshot.diagnostics, snapshot.world)).unwrap_or_default();
    // What the mod did to the machine in the session, in the trace markers are checked against.
    if !world.effects.is_empty() {
        session.trace.push("world", json!({ "effects": world.effects, "effectsDropped": world.effects_dropped }));
    }
    session.trace.push("result", json!({ "result": session.result, "turns": session.turns, "toolCalls": session.tool_calls }));
    SessionOutcome {
        trace: session.trace.entries,
        result: session.result,
        transcript: session.transcript,
        files: memory_files(machine, &plan.memory_dir),
        diagnostics,
        world: *world,
        error,
    }
}

impl Session<'_> {
    fn drive(&mut self, driver: &mut dyn SessionDriver) -> Result<(), String> {
        for _ in 0..MAX_ACTIONS {
            self.refresh_tools().map_err(|error| error.to_string())?;
            let view = SessionView {
                transcript: &self.transcript,
                tools: &self.tools,
                in_turn: self.in_turn,
                continuation: self.continuation,
                turns: self.turns,
                max_turns: self.plan.max_turns,
            };
            let action = driver.next_action(&view);
            if let Action::Stop(reason) = action {
                return Err(reason);
            }
            let done = matches!(action, Action::End) && !self.in_turn;
            self.act(action).map_err(|error| error.to_string())?;
            if done {
                return Ok(());
            }
        }
        Err(format!("the driver did not end the session within {MAX_ACTIONS} actions"))
    }

    fn act(&mut self, action: Action) -> Result<(), EngineError> {
        match action {
            Action::User(text) => {
                while self.in_turn {
                    self.finish_turn()?;
                }
                let text = self.substitute_text(&text);
                self.start_turn(text, false)
            }
            Action::EndTurn | Action::End if self.in_turn => self.finish_turn(),
            Action::EndTurn | Action::End => Ok(()),
            Action::Assistant(text) if self.in_turn => {
                self.trace.push("message", json!({ "role": "assistant", "content": text }));
                self.transcript.push(json!({ "role": "assistant", "content": text }));
                self.turn_reply = Some(text.clone());
                self.result = text;
                Ok(())
            }
            Action::Tool(call) if self.in_turn => self.tool_call(call),
            Action::Assistant(_) | Action::Tool(_) => {
                let step = if let Action::Tool(call) = &action { json!({ "tool": call.name }) } else { json!("assistant") };
                self.trace.push("skipped", json!({ "step": step, "reason": "no turn is running (the last one was cancelled)" }));
                Ok(())
            }
            lifecycle => self.lifecycle(lifecycle),
        }
    }

    /// Emits `name`; `None` when Letta's `emit` would reject (the host then goes on unchanged).
    pub(super) fn emit(&mut self, name: &str, payload: Value) -> Result<Option<Value>, EngineError> {
        match self.engine.emit(name, &payload)? {
            EmitOutcome::Emitted { emission, event, .. } => {
                self.trace.event(name, &event, &emission);
                Ok(Some(event))
            }
            EmitOutcome::Rejected { message } => {
                self.trace.push("event_rejected", json!({ "name": name, "event": payload, "message": message }));
                Ok(None)
            }
        }
    }

    fn start_turn(&mut self, text: String, continuation: bool) -> Result<(), EngineError> {
        self.turns += 1;
        self.in_turn = true;
        self.continuation = continuation;
        self.turn_reply = None;
        let origin = if continuation { "continue" } else { "user" };
        self.trace.push("turn", json!({ "turn": self.turns, "origin": origin }));
        let input = json!([{ "type": "message", "role": "user", "content": text }]);
        let payload = json!({ "agentId": self.host.agent_id, "conversationId": self.host.conversation_id, "input": input });
        let event = self.emit("turn_start", payload)?;
        // The host reads the input back unless it is no longer an array of objects.
        let items = match event.as_ref().and_then(|event| event.get("input")).and_then(Value::as_array) {
            Some(items) if items.iter().all(Value::is_object) => items.clone(),
            _ => input.as_array().cloned().unwrap_or_default(),
        };
        for item in items {
            self.trace.push("message", item.clone());
            self.transcript.push(item);
        }
        let cancel = event.as_ref().and_then(|event| event.pointer("/cancel/reason")).and_then(Value::as_str);
        if let Some(reason) = cancel {
            // Letta's headless host ends the turn with stop reason `cancelled`; no turn_end.
            self.trace.push("turn_cancelled", json!({ "turn": self.turns, "stopReason": "cancelled", "reason": reason }));
            self.in_turn = false;
            self.continuation = false;
        }
        Ok(())
    }

    /// `turn_end`, then the continuation a mod asked for, if the turn budget allows it.
    fn finish_turn(&mut self) -> Result<(), EngineError> {
        self.in_turn = false;
        self.continuation = false;
        let mut payload = json!({
            "agentId": self.host.agent_id, "conversationId": self.host.conversation_id, "stopReason": "end_turn",
        });
        if let Some(reply) = self.turn_reply.take() {
            payload["assistantMessage"] = json!(reply);
        }
        let event = self.emit("turn_end", payload)?;
        let Some(message) = event.as_ref().and_then(|event| event.get("continue")).and_then(Value::as_str) else {
            return Ok(());
        };
        let message = message.to_owned();
        if self.turns >= self.plan.max_turns {
            self.trace.push("continue_dropped", json!({ "message": message, "reason": "maxTurns", "maxTurns": self.plan.max_turns }));
            return Ok(());
        }
        self.trace.push("continue", json!({ "message": message }));
        self.start_turn(message, true)
    }

    fn refresh_tools(&mut self) -> Result<(), EngineError> {
        let snapshot = self.engine.snapshot()?;
        let mut tools: Vec<ToolSchema> = snapshot
            .tools
            .into_iter()
            .map(|tool| ToolSchema { name: tool.name, description: tool.description, parameters: tool.parameters, source: "mod" })
            .collect();
        for tool in &self.plan.env.tools {
            // A registered tool of the same name shadows the environment's (mod tools go first).
            if !tools.iter().any(|known| known.name == tool.name) {
                tools.push(ToolSchema {
                    name: tool.name.clone(),
                    description: tool.description.clone(),
                    parameters: tool.parameters.clone(),
                    source: "env",
                });
            }
        }
        self.tools = tools;
        Ok(())
    }

    pub(super) fn substitute_text(&self, text: &str) -> String {
        text.replace("${MEMORY_DIR}", &self.plan.memory_dir).replace("$MEMORY_DIR", &self.plan.memory_dir)
    }

    /// `$MEMORY_DIR` in every string of `value` becomes the scenario's memory directory.
    pub(super) fn substitute(&self, value: &Value) -> Value {
        match value {
            Value::String(text) => Value::String(self.substitute_text(text)),
            Value::Array(items) => Value::Array(items.iter().map(|item| self.substitute(item)).collect()),
            Value::Object(map) => Value::Object(map.iter().map(|(k, v)| (k.clone(), self.substitute(v))).collect()),
            other => other.clone(),
        }
    }
}

/// The most files, and bytes in all, the session's memory directory is read back with.
const MEMORY_FILES_LIMIT: usize = 200;
const MEMORY_BYTES_LIMIT: usize = 512 << 10;

/// The files of the scenario's memory directory at the session's end (relative path, text).
fn memory_files(machine: &Machine, dir: &str) -> Vec<(String, String)> {
    let call = |request| machine.call(&Call { at: VIRTUAL_EPOCH_MS, request }, &[]);
    let mut files = Vec::new();
    let mut bytes = 0;
    let mut pending = vec![String::new()];
    while let Some(relative) = pending.pop() {
        let path = if relative.is_empty() { dir.to_owned() } else { format!("{dir}/{relative}") };
        let MachineReply::Entries { entries } = call(MachineRequest::Readdir { path: path.clone() }).0 else { continue };
        for entry in entries {
            let child = if relative.is_empty() { entry.name.clone() } else { format!("{relative}/{}", entry.name) };
            match entry.kind.as_str() {
                "dir" => pending.push(child),
                "file" if files.len() < MEMORY_FILES_LIMIT && bytes < MEMORY_BYTES_LIMIT => {
                    if let (MachineReply::Bytes { .. }, data) = call(MachineRequest::ReadFile { path: format!("{path}/{}", entry.name) }) {
                        bytes += data.len();
                        files.push((child, String::from_utf8_lossy(&data).into_owned()));
                    }
                }
                _ => {}
            }
        }
    }
    files.sort();
    files
}
