//! One tool call as Letta's host runs it: permission overlays (approval phase), `tool_start`,
//! the overlays again (execution phase), execution, `tool_end`.

use modlearn_engine::EngineError;
use modlearn_types::{PermissionCheck, ToolRun};
use serde_json::{Value, json};

use super::ToolCall;
use super::host::Session;
use super::tools;
use super::trace::brief;

impl Session<'_> {
    pub(super) fn tool_call(&mut self, call: ToolCall) -> Result<(), EngineError> {
        self.tool_calls += 1;
        let id = call.tool_call_id.clone().unwrap_or_else(|| format!("call-{}", self.tool_calls));
        let args = self.substitute(&call.args);
        let source = self.tools.iter().find(|tool| tool.name == call.name).map(|tool| tool.source);
        self.trace
            .push("tool_call", json!({ "toolCallId": id, "toolName": call.name, "args": args, "dispatch": source.unwrap_or("none") }));
        self.transcript.push(json!({ "role": "assistant", "toolCall": { "id": id, "name": call.name, "args": args } }));
        let Some(source) = source else {
            let output = format!("Error: tool '{}' is not available in this session", call.name);
            return self.finish_call(&id, &call.name, &args, "error", json!(output), "unavailable");
        };
        if let Some(blocked) = self.permission("approval", &call.name, &args, &id, source)? {
            // Refused before execution: no tool_start, no tool_end.
            return self.finish_call(&id, &call.name, &args, "error", json!(blocked), "permission");
        }
        let payload = json!({
            "agentId": self.host.agent_id, "conversationId": self.host.conversation_id,
            "toolCallId": id, "toolName": call.name, "args": args,
        });
        let event = self.emit("tool_start", payload)?;
        let effective = match event.as_ref().and_then(|event| event.get("args")) {
            Some(rewritten) if rewritten.is_object() => rewritten.clone(),
            _ => args.clone(),
        };
        let (status, output, by) = if let Some((status, output)) = event.as_ref().and_then(synthesized) {
            (status, json!(output), "tool_start")
        } else if let Some(blocked) = self.permission("execution", &call.name, &effective, &id, "mod-only")? {
            ("error".to_owned(), json!(blocked), "permission")
        } else {
            let (status, output) = self.execute(&call, &effective, &id, source)?;
            (status, output, "executed")
        };
        // Letta fires tool_end only for string results.
        let (status, output, by) = match output.as_str() {
            Some(text) => {
                let payload = json!({
                    "agentId": self.host.agent_id, "conversationId": self.host.conversation_id, "toolCallId": id,
                    "toolName": call.name, "args": effective, "status": status, "output": text,
                });
                match self.emit("tool_end", payload)?.as_ref().and_then(synthesized) {
                    Some((status, output)) => (status, json!(output), "tool_end"),
                    None => (status, output, by),
                }
            }
            None => (status, output, by),
        };
        self.finish_call(&id, &call.name, &effective, &status, output, by)
    }

    fn finish_call(&mut self, id: &str, name: &str, args: &Value, status: &str, output: Value, by: &str) -> Result<(), EngineError> {
        self.trace.push(
            "tool_result",
            json!({ "toolCallId": id, "toolName": name, "args": args, "status": status, "output": output, "resultFrom": by }),
        );
        self.transcript.push(json!({ "role": "tool", "toolCallId": id, "toolName": name, "status": status, "content": output }));
        Ok(())
    }

    /// Asks the mods' overlays; `Some(error text)` when the call may not run. `source` `mod-only`
    /// is the execution-phase re-check, where only the overlays count.
    fn permission(&mut self, phase: &str, name: &str, args: &Value, id: &str, source: &str) -> Result<Option<String>, EngineError> {
        let event = json!({
            "agentId": self.host.agent_id, "conversationId": self.host.conversation_id,
            "toolCallId": id, "toolName": name, "args": args, "phase": phase,
        });
        let check = self.engine.check_permissions(&event)?;
        let (decision, rule, reason, diagnostics, threw) = match &check {
            PermissionCheck::Decided { decision, diagnostics, .. } => {
                let decision = decision.as_ref();
                (
                    decision.map(|d| d.decision.clone()),
                    decision.map(|d| d.matched_rule.clone()),
                    decision.and_then(|d| d.reason.clone()),
                    diagnostics.clone(),
                    None,
                )
            }
            PermissionCheck::Threw { message, diagnostics, .. } => (None, None, None, diagnostics.clone(), Some(message.clone())),
        };
        // A mod tool's own `alwaysAsk` policy is never auto-approved, not even by --yolo.
        let always_asks = phase == "approval"
            && source == "mod"
            && self.engine.snapshot()?.tools.iter().any(|tool| tool.name == name && tool.approval_policy == "alwaysAsk");
        let reason_text = reason.as_ref().map(|r| r.as_str().map_or_else(|| r.to_string(), str::to_owned));
        let (outcome, message) = match (decision.as_deref(), &threw) {
            (_, Some(message)) => ("blocked", Some(format!("Error: the permission check failed: {message}"))),
            (Some("deny"), _) => {
                ("denied", Some(refusal("denied", rule.as_deref(), reason_text.as_deref(), "Denied by a mod permission.")))
            }
            (Some("alwaysAsk"), _) => ("blocked", Some(refusal("blocked", rule.as_deref(), reason_text.as_deref(), NOBODY_TO_ASK))),
            (Some("ask"), _) if !self.plan.env.ask_allows => {
                ("blocked", Some(refusal("blocked", rule.as_deref(), reason_text.as_deref(), NOBODY_TO_ASK)))
            }
            _ if always_asks => ("blocked", Some(refusal("blocked", Some("tool approvalPolicy:alwaysAsk"), None, NOBODY_TO_ASK))),
            _ => ("allowed", None),
        };
        let mut entry = json!({ "phase": phase, "toolCallId": id, "toolName": name, "decision": decision, "outcome": outcome });
        if let Some(rule) = rule {
            entry["matchedRule"] = json!(rule);
        }
        if let Some(reason) = reason {
            entry["reason"] = reason;
        }
        if !diagnostics.is_empty() {
            entry["diagnostics"] = brief(&diagnostics);
        }
        self.trace.push("permission", entry);
        Ok(message)
    }

    fn execute(&mut self, call: &ToolCall, args: &Value, id: &str, source: &str) -> Result<(String, Value), EngineError> {
        if source == "mod" {
            let run = self.engine.run_tool(&call.name, args, id)?;
            let mut entry = json!({ "toolCallId": id, "toolName": call.name, "runner": "mod" });
            let result = match &run {
                ToolRun::Ran { status, output, stdout, stderr, diagnostics } => {
                    if stdout.is_some() || stderr.is_some() {
                        entry["stdout"] = json!(stdout);
                        entry["stderr"] = json!(stderr);
                    }
                    if !diagnostics.is_empty() {
                        entry["diagnostics"] = brief(diagnostics);
                    }
                    (status.clone(), output.clone())
                }
                ToolRun::Unavailable { reason, diagnostics } => {
                    if !diagnostics.is_empty() {
                        entry["diagnostics"] = brief(diagnostics);
                    }
                    ("error".to_owned(), json!(format!("Error: Mod tool '{}' is not available: {reason}", call.name)))
                }
                ToolRun::NotRegistered { .. } => {
                    ("error".to_owned(), json!(format!("Error: Mod tool '{}' is no longer available", call.name)))
                }
            };
            self.trace.push("tool_execution", entry);
            return Ok(result);
        }
        let tool = self.plan.env.tools.iter().find(|tool| tool.name == call.name).expect("dispatched to an env tool");
        let executed = tools::execute(tool, call, args, &self.machine, self.plan.env.dialect);
        let mut entry = json!({ "toolCallId": id, "toolName": call.name, "runner": "env" });
        if let Value::Object(effect) = executed.effect {
            entry.as_object_mut().expect("an object").extend(effect);
        }
        self.trace.push("tool_execution", entry);
        Ok((executed.status.to_owned(), json!(executed.output)))
    }
}

const NOBODY_TO_ASK: &str = "Approval required, and a headless session has nobody to ask.";

/// Letta's refusal text: `Error: Tool execution <denied|blocked> by <rule>. <reason>`.
fn refusal(verb: &str, rule: Option<&str>, reason: Option<&str>, fallback: &str) -> String {
    let reason = reason.filter(|reason| !reason.trim().is_empty()).unwrap_or(fallback);
    format!("Error: Tool execution {verb} by {}. {reason}", rule.unwrap_or("mod permission"))
}

/// `event.result` when it is a tool result the host honours.
fn synthesized(event: &Value) -> Option<(String, String)> {
    let result = event.get("result")?;
    let status = result.get("status").and_then(Value::as_str).filter(|s| *s == "success" || *s == "error")?;
    let output = result.get("output").and_then(Value::as_str)?;
    Some((status.to_owned(), output.to_owned()))
}
