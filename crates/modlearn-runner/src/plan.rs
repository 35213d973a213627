//! What the exercise stage runs for each resolved scenario: its assertions' probes, the
//! environment's engine settings, the machine the environment gives the candidate and, for a
//! scripted scenario (or a prompt scenario with an eval model), the session.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::Duration;

use modlearn_engine::WorldSeed;
use modlearn_exercise::session::{Action, DriverPlan, EnvTool, SessionEnv, SessionPlan, ToolCall, ToolKind};
use modlearn_exercise::{HostSettings, ScenarioPlan};
use modlearn_judge::probe;
use modlearn_machine::{
    ArgsMatch, CommitPlan, DEFAULT_WORKSPACE, HOME, MachinePlan, ScriptedAnswer, ScriptedProgram, WorkspacePlan, check_machine_path,
};
use modlearn_spec::{AskResolution, Assertion, Dialect, Env, EnvToolKind, ResolvedScenario, ScriptStep, default_env};
use modlearn_types::machine_path;
use serde_json::{Value, json};

use crate::eval_model::{EvalModel, Ledger, PromptSession};

/// The plans of every scenario for one candidate (`file_name` and `source` are the candidate's).
/// A scenario that names an environment, or has a script, runs under that environment
/// (`coding-agent` by default); others keep Letta's harness settings. Scenarios of one
/// environment share its machine, which holds every path their `keeps_files` checks keep.
pub(crate) fn scenario_plans(
    scenarios: &[ResolvedScenario],
    eval: Option<&EvalSessions>,
    file_name: &str,
    source: &str,
) -> Vec<ScenarioPlan> {
    let envs: Vec<Option<Env>> = scenarios.iter().map(environment).collect();
    let mut kept: BTreeMap<Option<String>, BTreeSet<String>> = BTreeMap::new();
    for (scenario, env) in scenarios.iter().zip(&envs) {
        let cwd = env.as_ref().map_or(DEFAULT_WORKSPACE, context_cwd);
        for assertion in &scenario.assertions {
            if let Assertion::KeepsFiles(keeps) = assertion {
                let paths = keeps.paths.iter().flat_map(|paths| paths.items()).map(|path| machine_path(path, HOME, cwd));
                kept.entry(env.as_ref().map(|env| env.name.clone())).or_default().extend(paths);
            }
        }
    }
    scenarios
        .iter()
        .zip(envs)
        .map(|(scenario, env)| {
            let keep = kept.get(&env.as_ref().map(|env| env.name.clone())).cloned().unwrap_or_default();
            let machine = Arc::new(machine_plan(env.as_ref(), &keep, file_name, source));
            scenario_plan(scenario, env, machine, eval)
        })
        .collect()
}

/// The environment a scenario runs under, when it has one.
fn environment(scenario: &ResolvedScenario) -> Option<Env> {
    scenario.env_name().map(|_| scenario.environment.clone().unwrap_or_else(|| default_env(scenario.dialect)))
}

fn scenario_plan(scenario: &ResolvedScenario, env: Option<Env>, machine: Arc<MachinePlan>, eval: Option<&EvalSessions>) -> ScenarioPlan {
    let host = env.as_ref().map(|env| HostSettings {
        profile: env.profile.as_str().to_owned(),
        context: (!env.context.is_empty()).then(|| Value::Object(env.context.clone())),
    });
    let memory_dir = format!("{HOME}/.letta/eval/{}/memory", scenario.dir_name);
    let memory_files: Vec<(String, String)> = scenario
        .memory_files
        .iter()
        .map(|(path, text)| (machine_path(path, HOME, &memory_dir), text.clone()))
        .filter(|(path, _)| path.starts_with(&format!("{memory_dir}/")))
        .collect();
    let has_session = scenario.script.is_some() || (eval.is_some() && scenario.prompt_to_run().is_some());
    let world = world_seed(scenario, env.as_ref(), has_session, &memory_dir);
    let session = match (&scenario.script, &env) {
        (Some(script), Some(env)) => Some(SessionPlan {
            driver: DriverPlan::Script(script.iter().map(action).collect()),
            env: session_env(env),
            memory_dir: memory_dir.clone(),
            command_env: command_env(&world, context_cwd(env)),
            max_turns: scenario.max_turns,
        }),
        (None, _) => eval
            .zip(scenario.prompt_to_run())
            .map(|(eval, prompt)| prompt_session(scenario, env.as_ref(), eval, prompt, &memory_dir, &world)),
        _ => None,
    };
    ScenarioPlan {
        name: scenario.name.clone(),
        probes: scenario.assertions.iter().map(probe).collect(),
        host,
        session,
        world,
        machine,
        memory_files,
        hidden: scenario.hidden,
        dialect: scenario.dialect,
    }
}

/// The machine an environment gives a candidate: its workspace repository at the ctx's `cwd`,
/// the candidate file in Letta's mods directory, the paths `keep` names (so that a check that
/// keeps `~/.ssh` has something there to keep), and the Bash tool's scripted programs.
fn machine_plan(env: Option<&Env>, keep: &BTreeSet<String>, file_name: &str, source: &str) -> MachinePlan {
    let workspace_path = env.map_or(DEFAULT_WORKSPACE, context_cwd).trim_end_matches('/').to_owned();
    let mut workspace = match env.and_then(|env| env.repository.as_ref()) {
        Some(repository) => WorkspacePlan {
            path: workspace_path.clone(),
            branch: repository.branch.clone(),
            commits: repository
                .commits
                .iter()
                .map(|commit| CommitPlan { message: commit.message.clone(), files: commit.files.clone() })
                .collect(),
            untracked: repository.untracked.clone(),
        },
        None => WorkspacePlan { path: workspace_path.clone(), ..WorkspacePlan::default() },
    };
    if workspace.commits.is_empty() {
        workspace.commits = WorkspacePlan::default().commits;
    }
    let mut files = MachinePlan::for_candidate(file_name, source).files;
    let planned: Vec<String> = workspace
        .commits
        .iter()
        .flat_map(|commit| commit.files.keys())
        .chain(workspace.untracked.keys())
        .map(|path| format!("{workspace_path}/{path}"))
        .chain(files.keys().cloned())
        .collect();
    let exists = |path: &str| {
        [HOME, "/tmp", workspace_path.as_str()].iter().any(|root| *root == path || root.starts_with(&format!("{path}/")))
            || path.starts_with(&format!("{workspace_path}/.git"))
            || planned.iter().any(|planned| planned == path || planned.starts_with(&format!("{path}/")))
    };
    for path in keep.iter().filter(|path| !exists(path) && check_machine_path(path, &workspace_path).is_ok()) {
        // A name with an extension stands for a file; anything else for a directory holding one.
        let looks_like_file = path.rsplit('/').next().is_some_and(|name| name.rfind('.').is_some_and(|dot| dot > 0));
        let seeded = if looks_like_file { path.clone() } else { format!("{path}/.keep") };
        let text = "kept by the spec's keeps_files check\n".to_owned();
        match seeded.strip_prefix(&format!("{workspace_path}/")) {
            // In the repository's first commit, so the workspace stays a clean checkout.
            Some(relative) => {
                workspace.commits[0].files.insert(relative.to_owned(), text);
            }
            None => {
                files.insert(seeded, text);
            }
        }
    }
    let programs = env.map(scripted_programs).unwrap_or_default();
    MachinePlan { workspace, files, dirs: BTreeSet::new(), programs }
}

/// The Bash tool's scripted commands, as programs of the machine (first match first).
fn scripted_programs(env: &Env) -> Vec<ScriptedProgram> {
    let mut programs: Vec<ScriptedProgram> = Vec::new();
    let bash = env.tools.iter().filter(|tool| tool.kind == EnvToolKind::Bash);
    for command in bash.flat_map(|tool| &tool.commands) {
        let Some((name, args)) = command.program() else { continue };
        let answer = ScriptedAnswer {
            matches: if command.regex { ArgsMatch::Regex(args) } else { ArgsMatch::Args(args) },
            stdout: command.stdout.clone(),
            stderr: command.stderr.clone(),
            exit_code: command.exit_code,
        };
        match programs.iter_mut().find(|program| program.name == name) {
            Some(program) => program.answers.push(answer),
            None => programs.push(ScriptedProgram { name, answers: vec![answer] }),
        }
    }
    programs
}

/// What the mod's process starts with: the environment's process variables, and who answers
/// dialogs. Letta sets `MEMORY_DIR` only for the headless run of a scenario with a session; its
/// assertions run inside the harness, whose environment has none.
fn world_seed(scenario: &ResolvedScenario, env: Option<&Env>, session: bool, memory_dir: &str) -> WorldSeed {
    let mut process_env = env.map(|env| env.process_env.clone()).unwrap_or_default();
    if session && scenario.dialect == Dialect::Letta {
        process_env.entry("MEMORY_DIR".to_owned()).or_insert_with(|| memory_dir.to_owned());
    }
    WorldSeed { env: process_env, dialogs: scenario.ui.clone() }
}

/// The environment the agent's Bash commands get: a user's login defaults, then the
/// environment's process variables.
fn command_env(world: &WorldSeed, cwd: &str) -> Vec<(String, String)> {
    let mut env: BTreeMap<String, String> = [
        ("HOME", HOME),
        ("USER", "user"),
        ("LOGNAME", "user"),
        ("SHELL", "/bin/bash"),
        ("PATH", "/usr/local/bin:/usr/bin:/bin"),
        ("LANG", "C.UTF-8"),
        ("TERM", "xterm-256color"),
        ("TZ", "UTC"),
    ]
    .into_iter()
    .map(|(name, value)| (name.to_owned(), value.to_owned()))
    .collect();
    env.insert("PWD".to_owned(), cwd.to_owned());
    env.extend(world.env.clone());
    env.into_iter().collect()
}

/// The working directory of an environment's context (ctx `cwd`).
fn context_cwd(env: &Env) -> &str {
    env.context.get("cwd").and_then(Value::as_str).unwrap_or(DEFAULT_WORKSPACE)
}

/// The eval model and the ledger of the candidate whose sessions it drives.
pub(crate) struct EvalSessions {
    pub(crate) model: Arc<EvalModel>,
    pub(crate) ledger: Ledger,
}

fn prompt_session(
    scenario: &ResolvedScenario,
    env: Option<&Env>,
    eval: &EvalSessions,
    prompt: &str,
    memory_dir: &str,
    world: &WorldSeed,
) -> SessionPlan {
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
        memory_dir: memory_dir.to_owned(),
        command_env: command_env(world, context_cwd(&env)),
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
