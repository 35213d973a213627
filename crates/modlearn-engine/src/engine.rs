//! One isolated JavaScript engine: a deno_core runtime (QuickJS backend)
//! holding the host modules and, at most, one candidate mod.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use modlearn_machine::Machine;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use modlearn_types::{
    CommandRun, Compared, ConsoleLine, Diagnostic, Dialect, Emission, Fault, LiveCompare, PermissionCheck, RegistrySnapshot, Severity,
    ToolRun,
};

use crate::batch::{self, Batch, Replies, Ticket};
use crate::local::LocalEngine;
use crate::protocol::{HostMethod, Operation};
use crate::worker::WorkerEngine;
use crate::world::WorldSeed;

/// Limits and settings for one engine.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct EngineOptions {
    /// Budget for each unit of mod code (activate, one handler, one
    /// disposer), in CPU time of the engine's thread.
    pub step_timeout: Duration,
    /// Heap cap for the engine, in bytes.
    pub memory_limit: usize,
    /// Which host's plugin API the candidate is written against.
    #[serde(default)]
    pub dialect: Dialect,
    /// Capability profile (`engine`, `tui`, `headless`, `listener`, ...).
    pub profile: String,
    /// Fields that replace the default ctx values.
    pub context: Option<Value>,
    /// Seed of the candidate's `Math.random`.
    pub seed: u32,
    /// The scenario's environment variables and dialog answers (files and programs are the
    /// machine's).
    pub world: WorldSeed,
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions {
            step_timeout: Duration::from_secs(2),
            memory_limit: 64 * 1024 * 1024,
            dialect: Dialect::Letta,
            profile: "engine".to_owned(),
            context: None,
            seed: 0x5eed,
            world: WorldSeed::default(),
        }
    }
}

/// A failure of the engine itself, as opposed to a fault of the mod (those
/// are diagnostics).
#[derive(Clone, Debug, thiserror::Error, Serialize, Deserialize)]
pub enum EngineError {
    /// The runtime or the host modules could not start.
    #[error("failed to start the JavaScript engine: {0}")]
    Startup(String),
    /// A stopped mod left the engine unable to run the host's own code.
    #[error("the engine can no longer run after the mod was stopped ({0})")]
    Unusable(String),
    /// The host's JavaScript failed: a bug in modlearn, not in the mod.
    #[error("modlearn's host code failed: {0}")]
    Host(String),
    /// Mod code had to be stopped where the host could not record it as a
    /// diagnostic of its own (a host call, or a worker process killed or
    /// crashed); the engine is gone or unusable.
    #[error("{message}")]
    Stopped {
        /// What kind of stop.
        fault: StopFault,
        /// The diagnostic phase of the mod code that was running.
        phase: String,
        /// What happened, for the report.
        message: String,
    },
}

impl EngineError {
    /// Mod code in `phase` stopped at one of the engine's limits. However the stop came (the
    /// engine's own watchdog or heap cap, or a kill from outside when the code ignored them),
    /// it is worded the same and ends the engine the same way: which one came first is a race a
    /// verdict must not hinge on.
    pub(crate) fn at_limit(fault: StopFault, phase: &str, options: &EngineOptions) -> EngineError {
        let what = match fault {
            StopFault::Timeout => format!("did not finish within its {} ms budget", options.step_timeout.as_millis()),
            StopFault::OutOfMemory => format!("exceeded the engine's {} MiB memory limit", options.memory_limit >> 20),
            StopFault::Crashed => "crashed the engine".to_owned(),
        };
        EngineError::Stopped {
            fault,
            phase: phase.to_owned(),
            message: format!("mod code in the {phase} phase {what}; the engine was stopped"),
        }
    }

    /// The diagnostic a stop is reported as, when mod code stopped the engine.
    pub fn stop_diagnostic(&self) -> Option<Diagnostic> {
        let EngineError::Stopped { fault, phase, message } = self else {
            return None;
        };
        // Worded as js/diagnostics.js words the same faults.
        let (fault, error_name, hint) = match fault {
            StopFault::Timeout => (
                Fault::Timeout,
                "TimeoutError",
                "Mod code must finish within the time budget. Look for a loop that never ends or work that grows without bound.",
            ),
            StopFault::OutOfMemory => (
                Fault::OutOfMemory,
                "OutOfMemoryError",
                "The mod allocated more memory than the engine allows. Look for collections that grow without bound.",
            ),
            StopFault::Crashed => {
                (Fault::Crashed, "CrashError", "The engine's process died running this mod. Look for very deeply nested code or data.")
            }
        };
        Some(Diagnostic {
            capability: None,
            error_name: error_name.to_owned(),
            hint: Some(hint.to_owned()),
            owner: None,
            message: message.clone(),
            phase: phase.clone(),
            severity: Severity::Error,
            stack: None,
            // A stopped engine's clock cannot be read: its start, as diagnostics print it.
            timestamp: "2026-01-01T00:00:00.000Z".to_owned(),
            fault,
        })
    }

    /// The fault of a stopped engine, when the mod's code caused the failure.
    pub fn stop_fault(&self) -> Option<StopFault> {
        match self {
            EngineError::Stopped { fault, .. } => Some(*fault),
            _ => None,
        }
    }
}

/// Why an engine had to be stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopFault {
    /// Past its time budget (CPU in the engine, or wall clock from outside).
    Timeout,
    /// Past its memory cap.
    OutOfMemory,
    /// The worker process died of a signal it was not sent by modlearn.
    Crashed,
}

/// A candidate mod file to load.
#[derive(Clone, Debug)]
pub struct CandidateFile<'a> {
    /// Path of the file; its directory is all the mod may import from.
    pub path: &'a Path,
    /// The file's text.
    pub source: &'a str,
}

/// What loading a candidate did.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LoadOutcome {
    /// Whether the mod imported and activated.
    pub loaded: bool,
    /// Owner id of the mod.
    pub owner: String,
}

/// What emitting an event did.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum EmitOutcome {
    /// The handlers ran.
    Emitted {
        /// Letta's emission result.
        emission: Emission,
        /// The shared event object after dispatch.
        event: Value,
        /// The outcome of the comparison asked for, made on the live event.
        #[serde(default)]
        compared: Option<Compared>,
    },
    /// Letta's `emit` would reject: unknown event, or turn_start input that
    /// is not an array.
    Rejected {
        /// Why.
        message: String,
    },
}

/// What disposing did.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct DisposeOutcome {
    /// How many disposers ran.
    pub disposed: usize,
    /// Owners whose disposer threw or was stopped.
    pub threw: Vec<String>,
}

/// One isolated engine: in this process, or in a worker process of its own
/// when [`crate::worker::isolate_engines`] was called. Not `Send`: create it
/// on the thread that uses it.
pub struct Engine {
    backend: Backend,
}

enum Backend {
    Local(Box<LocalEngine>),
    Worker(Box<WorkerEngine>),
}

impl Engine {
    /// Starts an engine with the host modules loaded and no candidate. Its mod has no machine:
    /// file system calls and commands fail, saying so.
    pub fn new(options: EngineOptions) -> Result<Engine, EngineError> {
        Engine::start(options, None)
    }

    /// [`Engine::new`], with `machine` as the one the mod's files and commands are on.
    pub fn with_machine(options: EngineOptions, machine: Arc<Machine>) -> Result<Engine, EngineError> {
        Engine::start(options, Some(machine))
    }

    fn start(options: EngineOptions, machine: Option<Arc<Machine>>) -> Result<Engine, EngineError> {
        let backend = match crate::worker::isolation() {
            Some(isolation) => Backend::Worker(Box::new(WorkerEngine::spawn(isolation, &options, machine)?)),
            None => {
                let mut engine = LocalEngine::new(options)?;
                engine.set_machine(match machine {
                    Some(machine) => Box::new(move |packed: &[u8]| machine.call_packed(packed)),
                    None => crate::machine_link::no_machine(),
                });
                Backend::Local(Box::new(engine))
            }
        };
        Ok(Engine { backend })
    }

    /// The process id of this engine's worker process, when it has one.
    pub fn process_id(&self) -> Option<u32> {
        match &self.backend {
            Backend::Worker(engine) => Some(engine.process_id()),
            Backend::Local(_) => None,
        }
    }

    /// Loads and activates `candidate` into the current load generation.
    /// Each call imports a fresh module instance.
    pub fn load(&mut self, candidate: &CandidateFile<'_>) -> Result<LoadOutcome, EngineError> {
        self.one(|batch| batch.load(candidate, false))
    }

    /// Loads and activates `candidate` as its host's reload does. Letta's `/reload`
    /// keeps the module instance of an unchanged file (it imports
    /// `<file>?mod=<mtime>`, the same URL), so module-level state persists and
    /// only `activate` runs again; a changed file gets a fresh instance. Pi
    /// imports an extension afresh on every reload, as its loader does.
    pub fn reload(&mut self, candidate: &CandidateFile<'_>) -> Result<LoadOutcome, EngineError> {
        self.one(|batch| batch.load(candidate, true))
    }

    /// Emits event `name` with payload `event` to every registered handler.
    pub fn emit(&mut self, name: &str, event: &Value) -> Result<EmitOutcome, EngineError> {
        self.emit_compared(name, event, None)
    }

    /// [`Engine::emit`], then `compare` made on the live event (JSON, which the event
    /// leaves the engine as, would lose what Letta's comparison sees).
    pub fn emit_compared(&mut self, name: &str, event: &Value, compare: Option<&LiveCompare>) -> Result<EmitOutcome, EngineError> {
        self.one(|batch| batch.emit_compared(name, event, compare))
    }

    /// Runs registered tool `tool_name` as Letta's host executes a mod tool:
    /// `isEnabled(ctx)`, then `run(ctx)` with `ctx.args = args`, its return
    /// value normalised to a status and output. Each is one step.
    pub fn run_tool(&mut self, tool_name: &str, args: &Value, tool_call_id: &str) -> Result<ToolRun, EngineError> {
        self.one(|batch| batch.run_tool(tool_name, args, tool_call_id))
    }

    /// Asks every permission overlay about the tool call in `event`, one step
    /// per `isEnabled` and per `check`, and composes the answers as Letta's
    /// `checkModPermissions` does.
    pub fn check_permissions(&mut self, event: &Value) -> Result<PermissionCheck, EngineError> {
        self.one(|batch| batch.check_permissions(event))
    }

    /// Runs slash command `/<command> <args>` (one step) and normalises its result.
    pub fn run_command(&mut self, command: &str, args: &str) -> Result<CommandRun, EngineError> {
        self.one(|batch| batch.run_command(command, args))
    }

    /// Aborts every owner's signal and runs the disposers (reverse load order).
    pub fn dispose(&mut self) -> Result<DisposeOutcome, EngineError> {
        self.one(Batch::dispose)
    }

    /// Starts a new load generation with an empty registry, on the scenario's freshly seeded
    /// virtual machine.
    pub fn new_generation(&mut self) -> Result<u64, EngineError> {
        self.one(Batch::new_generation)
    }

    /// Starts a new load generation with an empty registry on the virtual machine as the last
    /// one left it (environment, working directory, files, process listeners), as Letta's
    /// `/reload` runs in the same process.
    pub fn reload_generation(&mut self) -> Result<u64, EngineError> {
        self.one(Batch::reload_generation)
    }

    /// The registry as it stands.
    pub fn snapshot(&mut self) -> Result<RegistrySnapshot, EngineError> {
        self.one(Batch::snapshot)
    }

    /// Console output since the last call.
    pub fn take_console(&mut self) -> Result<Vec<ConsoleLine>, EngineError> {
        self.one(Batch::take_console)
    }

    /// The host's method and operation tables, as the JavaScript side lists them.
    pub fn protocol_tables(&mut self) -> Result<(Vec<String>, Vec<String>), EngineError> {
        #[derive(Deserialize)]
        struct Tables {
            methods: Vec<String>,
            operations: Vec<String>,
        }
        let tables: Tables = self.call(HostMethod::Protocol, &serde_json::json!({}))?;
        Ok((tables.methods, tables.operations))
    }

    /// Runs one host operation step by step, each step under its own budget.
    pub(crate) fn run_operation<T: DeserializeOwned>(&mut self, operation: Operation) -> Result<T, EngineError> {
        self.one(|batch| batch.operate(operation))
    }

    fn call<T: DeserializeOwned>(&mut self, method: HostMethod, args: &Value) -> Result<T, EngineError> {
        self.one(|batch| batch.call(method, args.clone()))
    }

    /// Runs a batch of one request.
    fn one<T>(&mut self, queue: impl FnOnce(&mut Batch) -> Ticket<T>) -> Result<T, EngineError> {
        let mut batch = Batch::new();
        let ticket = queue(&mut batch);
        self.run(batch).take(ticket)
    }

    /// Runs `batch`'s requests in order, each under its own budgets as it would run alone; an
    /// engine process gets them in one request. Once one fails the rest are not run.
    pub fn run(&mut self, batch: Batch) -> Replies {
        if batch.is_empty() {
            return Replies::new(Vec::new());
        }
        let mut replies = Vec::with_capacity(batch.requests.len());
        match &mut self.backend {
            Backend::Local(engine) => {
                batch::run_in_order(batch.requests, |request| engine.run(request, &mut |_| {}), |reply| replies.push(reply))
            }
            Backend::Worker(engine) => replies = engine.run(batch.requests),
        }
        Replies::new(replies)
    }
}
