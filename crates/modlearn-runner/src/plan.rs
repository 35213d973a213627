//! What the exercise stage runs for each resolved scenario: its assertions' probes, the
//! environment's engine settings and, for a scripted scenario (or a prompt scenario with an eval
//! model), the session.

use std::sync::Arc;
use std::time::Duration;

use modlearn_engine::{ScriptedCommand, WorldSeed};
use modlearn_exercise::session::{Action, DriverPlan, EnvTool, SessionEnv, SessionPlan, ToolCall, ToolKind};
use modlearn_exercise::{HostSettings, ScenarioPlan};
use modlearn_judge::probe;
use modlearn_spec::{AskResolution, Dialect, Env, EnvToolKind, ResolvedScenario, ScriptStep, default_env};
use serde_json::{Value, json};

use crate::eval_model::{EvalModel, Ledger, PromptSession};

/// The plan of one scenario. A scenario that names an environment, or has a script, runs under
/// that environment (`coding-agent` by default); others keep Letta's harness settings. With an
/// eval model, a prompt scenario gets a model-driven session with the tools of its environment
/// (`coding-agent` when it names none).
pub(crate) fn scenario_plan(scenario: &ResolvedScenario, eval: Option<&EvalSessions>) -> ScenarioPlan {
    let env = scenario.env_name().map(|_| scenario.environment.clone().unwrap_or_else(|| default_env(scenario.dialect)));
    let host = env.as_ref().map(|env| HostSettings {
        profile: env.profile.as_str().to_owned(),
        context: (!env.context.is_empty()).then(|| Value::Object(env.context.clone())),
    });
    let session = match (&scenario.script, &env) {
        (Some(script), Some(env)) => Some(SessionPlan {
            driver: DriverPlan::Script(script.iter().map(action).collect()),
            env: session_env(env),
            memory_files: scenario.memory_files.iter().map(|(path, text)| (path.clone(), text.clone())).collect(),
            max_turns: scenario.max_turns,
        }),
        (None, _) => eval.zip(scenario.prompt_to_run()).map(|(eval, prompt)| prompt_session(scenario, env.as_ref(), eval, prompt)),
        _ => None,
    };
    let world = world_seed(scenario, env.as_ref(), session.is_some());
    ScenarioPlan { probes: scenario.assertions.iter().map(probe).collect(), host, session, world, dialect: scenario.dialect }
}

/// The virtual world of a scenario: its memory files in the working directory (ctx `cwd`), the
/// environment's process variables and, for `child_process`, its Bash tool's scripted commands and
/// default output. Letta sets `MEMORY_DIR` (the working directory here) only for the headless run
/// of a scenario with a session; its assertions run inside the harness, whose environment has none.
fn world_seed(scenario: &ResolvedScenario, env: Option<&Env>, session: bool) -> WorldSeed {
    let bash = env.and_then(|env| env.tools.iter().find(|tool| tool.kind == EnvToolKind::Bash));
    let mut process_env = env.map(|env| env.process_env.clone()).unwrap_or_default();
    if session && scenario.dialect == Dialect::Letta {
        let cwd = env.map_or(DEFAULT_CWD, context_cwd);
        process_env.entry("MEMORY_DIR".to_owned()).or_insert_with(|| cwd.to_owned());
    }
    WorldSeed {
        files: scenario.memory_files.iter().map(|(path, text)| (path.clone(), text.clone())).collect(),
        env: process_env,
        commands: bash
            .map(|tool| {
                tool.commands
                    .iter()
                    .map(|command| ScriptedCommand {
                        pattern: command.pattern.clone(),
                        regex: command.regex,
                        stdout: command.stdout.clone(),
                        stderr: command.stderr.clone(),
                        exit_code: command.exit_code,
                    })
                    .collect()
            })
            .unwrap_or_default(),
        default_output: bash.and_then(|tool| tool.default_output.clone()),
        dialogs: scenario.ui.clone(),
    }
}

/// The working directory mods see when an environment's context names none.
const DEFAULT_CWD: &str = "/workspace";

/// The working directory of an environment's context (ctx `cwd`).
fn context_cwd(env: &Env) -> &str {
    env.context.get("cwd").and_then(Value::as_str).unwrap_or(DEFAULT_CWD)
}

/// The eval model and the ledger of the candidate whose sessions it drives.
pub(crate) struct EvalSessions {
    pub(crate) model: Arc<EvalModel>,
    pub(crate) ledger: Ledger,
}

fn prompt_session(scenario: &ResolvedScenario, env: Option<&Env>, eval: &EvalSessions, prompt: &str) -> SessionPlan {
    let env = env.cloned().unwrap_or_else(|| default_env(scenario.dialect));
    let cwd = context_cwd(&env).to_owned();
    let session = PromptSession {
        model: Arc::clone(&eval.model),
        ledger: Arc::clone(&eval.ledger),
        prompt: prompt.to_owned(),
        cwd,
        max_turns: scenario.max_turns,
        timeout: Duration::from_millis(scenario.timeout_ms),
    };
    SessionPlan {
        driver: DriverPlan::External(Arc::new(session)),
        env: session_env(&env),
        memory_files: scenario.memory_files.iter().map(|(path, text)| (path.clone(), text.clone())).collect(),
        max_turns: scenario.max_turns,
    }
}

fn session_env(env: &Env) -> SessionEnv {
    SessionEnv {
        name: env.name.clone(),
        context: (!env.context.is_empty()).then(|| Value::Object(env.context.clone())),
        tools: env
            .tools
            .iter()
            .map(|tool| EnvTool {
                name: tool.name.clone(),
                kind: match tool.kind {
                    EnvToolKind::Bash => ToolKind::Bash,
                    EnvToolKind::Read => ToolKind::Read,
                    EnvToolKind::Write => ToolKind::Write,
                    EnvToolKind::Edit => ToolKind::Edit,
                },
                description: tool.description.clone(),
                parameters: tool
                    .parameters
                    .clone()
                    .map_or_else(|| json!({ "type": "object", "properties": {}, "additionalProperties": false }), Value::Object),
                default_output: tool.default_output.clone().unwrap_or_default(),
            })
            .collect(),
        ask_allows: env.permissions.on_ask == AskResolution::Allow,
        dialect: env.dialect,
    }
}

fn action(step: &ScriptStep) -> Action {
    match step {
        ScriptStep::User(step) => Action::User(step.user.clone()),
        ScriptStep::Assistant(step) => Action::Assistant(step.assistant.clone()),
        ScriptStep::Tool(step) => Action::Tool(ToolCall {
            name: step.tool.clone(),
            args: Value::Object(step.args.clone()),
            output: step.output.clone(),
            status: step.status.map(|status| status.as_str().to_owned()),
            tool_call_id: step.tool_call_id.clone(),
        }),
        ScriptStep::ConversationOpen(step) => Action::ConversationOpen {
            reason: step.conversation_open.as_str().to_owned(),
            previous_conversation_id: step.previous_conversation_id.clone(),
        },
        ScriptStep::ConversationClose(step) => Action::ConversationClose { reason: step.conversation_close.as_str().to_owned() },
        ScriptStep::Compact(step) => {
            Action::Compact { trigger: step.compact.as_str().to_owned(), keep_messages: step.keep_messages.unwrap_or(2) as usize }
        }
        ScriptStep::Llm(step) => Action::Llm { stop_reason: step.llm.clone(), error: step.error.clone() },
    }
}
