use modlearn_spec::{Assertion, Dialect};
use modlearn_types::{CheckResult, Emission, Observation, Probe, bound};
use serde_json::Value;

use crate::checks;

/// What the engine must do for `assertion`.
pub fn probe(assertion: &Assertion) -> Probe {
    match assertion {
        Assertion::ModLoads(_) => checks::mod_loads::probe(),
        Assertion::TurnStartInjectsMessage(a) => checks::turn_start_injects_message::probe(a),
        Assertion::ToolStartRewritesArgs(a) => checks::tool_start_args::rewrite_probe(a),
        Assertion::ToolStartPreservesArgs(a) => checks::tool_start_args::preserve_probe(a),
        Assertion::ToolStartBlocks(a) => checks::tool_start_args::probe(&a.tool_name, &a.args, None),
        Assertion::ToolEndRewritesResult(a) => checks::tool_end_rewrites_result::probe(a),
        Assertion::TurnStartCancels(a) => checks::turn_start_cancels::probe(a),
        Assertion::TurnEndContinues(a) => checks::turn_end_continues::probe(a),
        Assertion::ToolRegistered(_) | Assertion::CommandRegistered(_) => Probe::Snapshot,
        Assertion::ToolRunReturns(a) => checks::tool_run_returns::probe(a),
        Assertion::PermissionDecides(a) => checks::permission_decides::probe(a),
        Assertion::CommandRuns(a) => checks::command_runs::probe(a),
        Assertion::DisposesCleanly(a) => checks::disposes_cleanly::probe(a),
        Assertion::ReloadIdempotent(a) => checks::reload_idempotent::probe(a),
        Assertion::RunsUnderProfile(a) => checks::runs_under_profile::probe(a),
        Assertion::Deterministic(a) => checks::deterministic::probe(a),
        Assertion::IsolatedConversations(a) => checks::isolated_conversations::probe(a),
        Assertion::WritesFile(_) => checks::writes_file::probe(),
        Assertion::RunsCommand(_) => checks::runs_command::probe(),
        Assertion::AsksApproval(a) => checks::tool_start_args::probe(&a.tool_name, &a.args, None),
        Assertion::NoPendingPlugin(_) => Probe::LoadSnapshot,
        Assertion::PostExecuteDecides(a) => checks::post_execute_decides::probe(a),
        Assertion::DeclaresWhatItUses(_) => Probe::EndSnapshot,
        Assertion::KeepsFiles(_) => checks::keeps_files::probe(),
    }
}

/// Judges the `index`-th assertion of a scenario from its observation, by the rules of the host
/// `dialect` (README, "One vocabulary, three hosts").
pub fn judge(index: usize, assertion: &Assertion, observation: &Observation, dialect: Dialect) -> CheckResult {
    let (passed, message, details) = match observation {
        Observation::EngineFailure { message } => (false, format!("the engine failed: {message}"), Value::Null),
        Observation::Rejected { message } => (false, format!("the event was rejected: {message}"), Value::Null),
        observation => match assertion {
            Assertion::ModLoads(a) => checks::mod_loads::judge(a, observation),
            Assertion::TurnStartInjectsMessage(a) => checks::turn_start_injects_message::judge(a, observation),
            Assertion::ToolStartRewritesArgs(a) => checks::tool_start_args::judge_rewrite(a, observation, dialect),
            Assertion::ToolStartPreservesArgs(a) => checks::tool_start_args::judge_preserve(a, observation, dialect),
            Assertion::ToolStartBlocks(a) => checks::tool_start_blocks::judge(a, observation),
            Assertion::ToolEndRewritesResult(a) => checks::tool_end_rewrites_result::judge(a, observation),
            Assertion::TurnStartCancels(a) => checks::turn_start_cancels::judge(a, observation),
            Assertion::TurnEndContinues(a) => checks::turn_end_continues::judge(a, observation),
            Assertion::ToolRegistered(a) => checks::tool_registered::judge(a, observation),
            Assertion::ToolRunReturns(a) => checks::tool_run_returns::judge(a, observation),
            Assertion::PermissionDecides(a) => checks::permission_decides::judge(a, observation),
            Assertion::CommandRegistered(a) => checks::command_registered::judge(a, observation),
            Assertion::CommandRuns(a) => checks::command_runs::judge(a, observation),
            Assertion::DisposesCleanly(a) => checks::disposes_cleanly::judge(a, observation, dialect),
            Assertion::ReloadIdempotent(a) => checks::reload_idempotent::judge(a, observation, dialect),
            Assertion::RunsUnderProfile(a) => checks::runs_under_profile::judge(a, observation),
            Assertion::Deterministic(a) => checks::deterministic::judge(a, observation),
            Assertion::IsolatedConversations(a) => checks::isolated_conversations::judge(a, observation),
            Assertion::WritesFile(a) => checks::writes_file::judge(a, observation),
            Assertion::RunsCommand(a) => checks::runs_command::judge(a, observation),
            Assertion::AsksApproval(a) => checks::asks_approval::judge(a, observation),
            Assertion::PostExecuteDecides(a) => checks::post_execute_decides::judge(a, observation),
            Assertion::DeclaresWhatItUses(_) => checks::declares_what_it_uses::judge(observation),
            Assertion::KeepsFiles(a) => checks::keeps_files::judge(a, observation),
            Assertion::NoPendingPlugin(_) => checks::no_pending_plugin::judge(observation),
        },
    };
    // What a candidate controls is quoted here: keep reports and run directories bounded.
    let message = bound::cut(&message, bound::MESSAGE_LIMIT);
    let mut details = details;
    bound::bound_strings(&mut details, bound::VALUE_STRING_LIMIT);
    bound::bound_total(&mut details, bound::VALUE_TOTAL_LIMIT);
    CheckResult { label: assertion.label(index), kind: assertion.type_name().to_owned(), passed, message, details, unchecked: false }
}

/// The outcome a check module returns: passed, message, details.
pub(crate) type Judged = (bool, String, Value);

/// Fails a check whose observation has the wrong shape (a bug, but a visible one).
pub(crate) fn unexpected(observation: &Observation) -> Judged {
    (false, format!("unexpected observation: {observation:?}"), Value::Null)
}

/// The gate every event assertion shares: a handler for `event` is
/// registered and none failed. `None` when it holds.
pub(crate) fn handler_failure(event: &str, emission: &Emission) -> Option<String> {
    if emission.handler_count == 0 {
        Some(format!("no {event} handler is registered"))
    } else {
        emission.diagnostics.first().map(|first| format!("a handler failed: [{}] {}", first.fault.as_str(), first.message))
    }
}

/// A call the host refused before any of the candidate's handlers saw it: Pi answers a call of a
/// tool the model may not call, or with arguments its schema rejects, without a `tool_call` handler.
pub(crate) fn refused_call(event: &Value) -> Option<String> {
    event
        .get("refused")
        .and_then(Value::as_str)
        .map(|why| format!("Pi refused the call before any tool_call handler saw it: {}", crate::text::excerpt(why, 120)))
}

/// `event.result` as Letta's host reads it: a tool result `{status: "success"|"error", output:
/// string}`, or why it is not one.
pub(crate) fn tool_result(event: &Value) -> Result<(&str, &str), String> {
    // Letta's host tests `if (event.result)`: any falsy value means no result.
    let result = match event.get("result") {
        None | Some(Value::Null) | Some(Value::Bool(false)) => return Err("no handler returned a `result`".to_owned()),
        Some(Value::String(text)) if text.is_empty() => return Err("no handler returned a `result`".to_owned()),
        Some(Value::Number(n)) if n.as_f64() == Some(0.0) => return Err("no handler returned a `result`".to_owned()),
        Some(result) => result,
    };
    let status = result.get("status").and_then(Value::as_str).filter(|s| *s == "success" || *s == "error");
    match (status, result.get("output").and_then(Value::as_str)) {
        (Some(status), Some(output)) => Ok((status, output)),
        _ => Err(format!("event.result {result} is not a tool result {{status: \"success\"|\"error\", output: string}}")),
    }
}

/// The first value a handler returned under `key` (valid or not), so a
/// message can say why the engine ignored it.
pub(crate) fn returned(emission: &Emission, key: &str) -> Option<Value> {
    emission.results.iter().find_map(|result| result.get(key).cloned())
}

/// Why there is no tool result: nothing returned, or what was returned is not one.
pub(crate) fn missing_result(emission: &Emission, why: String) -> String {
    match returned(emission, "result") {
        Some(invalid) if why.starts_with("no handler") => format!(
            "a handler returned result {invalid}, which is not a tool result {{status: \"success\"|\"error\", output: string}} (the engine ignores it)"
        ),
        _ => why,
    }
}
