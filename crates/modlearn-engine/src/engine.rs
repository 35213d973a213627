//! One isolated JavaScript engine: a deno_core runtime (QuickJS backend)
//! holding the host modules and, at most, one candidate mod.

use std::path::Path;
use std::rc::Rc;
use std::time::Duration;

use deno_core::{JsRuntime, ModuleSpecifier, PollEventLoopOptions, RuntimeOptions, v8};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use modlearn_types::{
    CommandRun, Compared, ConsoleLine, Emission, LiveCompare, PermissionCheck, RegistrySnapshot, ToolRun,
};

use crate::host_sources::HOST_ENTRY;
use crate::loader::{SandboxLoader, normalize};
use crate::transpile::{SourceKind, to_javascript};
use crate::watchdog::{ThreadCpuClock, Watchdog};

/// Limits and settings for one engine.
#[derive(Clone, Debug)]
pub struct EngineOptions {
    /// Budget for each unit of mod code (activate, one handler, one
    /// disposer), in CPU time of the engine's thread.
    pub step_timeout: Duration,
    /// Heap cap for the engine, in bytes.
    pub memory_limit: usize,
    /// Capability profile (`engine`, `tui`, `headless`, `listener`, ...).
    pub profile: String,
    /// Fields that replace the default ctx values.
    pub context: Option<Value>,
    /// Seed of the candidate's `Math.random`.
    pub seed: u32,
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions {
            step_timeout: Duration::from_secs(2),
            memory_limit: 64 * 1024 * 1024,
            profile: "engine".to_owned(),
            context: None,
            seed: 0x5eed,
        }
    }
}

/// A failure of the engine itself, as opposed to a fault of the mod (those
/// are diagnostics).
#[derive(Debug, thiserror::Error)]
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
}

/// A candidate mod file to load.
#[derive(Clone, Debug)]
pub struct CandidateFile<'a> {
    /// Path of the file, the only file the mod can load (a candidate is one file).
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

#[derive(Deserialize)]
struct StepCount {
    steps: usize,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PollState {
    settled: bool,
    host_error: Option<String>,
    timers: usize,
}

enum CallFailure {
    Terminated,
    Threw(String),
}

enum StepEnd {
    Settled,
    Stopped { fault: &'static str, message: String },
}

/// One isolated engine. Not `Send`: create it on the thread that uses it.
pub struct Engine {
    runtime: JsRuntime,
    host: v8::Global<v8::Function>,
    loader: Rc<SandboxLoader>,
    tokio: tokio::runtime::Runtime,
    watchdog: Watchdog,
    options: EngineOptions,
    load_count: u64,
    /// The last candidate transpiled: (path, source, result).
    transpiled: Option<(std::path::PathBuf, String, Result<String, String>)>,
}

impl Engine {
    /// Starts an engine with the host modules loaded and no candidate.
    pub fn new(options: EngineOptions) -> Result<Engine, EngineError> {
        let loader = Rc::new(SandboxLoader::new());
        let create_params = v8::CreateParams::default().heap_limits(0, options.memory_limit);
        let mut runtime = JsRuntime::try_new(RuntimeOptions {
            module_loader: Some(loader.clone()),
            create_params: Some(create_params),
            ..Default::default()
        })
        .map_err(|error| EngineError::Startup(error.to_string()))?;
        let tokio = tokio::runtime::Builder::new_current_thread()
            .build()
            .map_err(|error| EngineError::Startup(error.to_string()))?;
        let host = tokio.block_on(async {
            let entry = ModuleSpecifier::parse(HOST_ENTRY).expect("host entry is a valid URL");
            let id = runtime.load_side_es_module(&entry).await.map_err(|e| e.to_string())?;
            let evaluated = runtime.mod_evaluate(id);
            runtime.run_event_loop(PollEventLoopOptions::default()).await.map_err(|e| e.to_string())?;
            evaluated.await.map_err(|e| e.to_string())
        });
        host.map_err(EngineError::Startup)?;
        let host = take_host_function(&mut runtime)?;
        let watchdog = Watchdog::new(runtime.v8_isolate().thread_safe_handle());
        let mut engine = Engine { runtime, host, loader, tokio, watchdog, options, load_count: 0, transpiled: None };
        let config = json!({
            "profile": engine.options.profile,
            "context": engine.options.context,
            "seed": engine.options.seed,
        });
        engine.call::<Value>("configure", &config)?;
        Ok(engine)
    }

    /// Loads and activates `candidate` into the current load generation.
    /// Each call imports a fresh module instance.
    pub fn load(&mut self, candidate: &CandidateFile<'_>) -> Result<LoadOutcome, EngineError> {
        self.load_instance(candidate, false)
    }

    /// Loads and activates `candidate` as Letta's `/reload` does: an unchanged
    /// file keeps the module instance of the last load (Letta imports
    /// `<file>?mod=<mtime>`, the same URL), so module-level state persists and
    /// only `activate` runs again. A changed file gets a fresh instance.
    pub fn reload(&mut self, candidate: &CandidateFile<'_>) -> Result<LoadOutcome, EngineError> {
        self.load_instance(candidate, true)
    }

    fn load_instance(&mut self, candidate: &CandidateFile<'_>, keep_instance: bool) -> Result<LoadOutcome, EngineError> {
        let path = normalize(&absolute(candidate.path));
        self.loader.confine_to(path.clone());
        let unchanged = matches!(&self.transpiled, Some((cached_path, cached_source, _)) if *cached_path == path && cached_source == candidate.source);
        if !(keep_instance && unchanged && self.load_count > 0) {
            self.load_count += 1;
        }
        let mut specifier = ModuleSpecifier::from_file_path(&path)
            .map_err(|()| EngineError::Host(format!("not an absolute path: {}", path.display())))?;
        let kind = SourceKind::from_path(&path).unwrap_or(SourceKind::JavaScript);
        // Transpile and scan once per file and source; later load generations
        // reuse the transpiled code (primed in the loader) and the scan (kept by the host).
        let fresh = !unchanged;
        if fresh {
            let result = to_javascript(&specifier, &path, kind, candidate.source);
            if let Ok(code) = &result {
                self.loader.prime(path.clone(), code.clone());
            }
            self.transpiled = Some((path.clone(), candidate.source.to_owned(), result));
        }
        let transpile_error = self.transpiled.as_ref().and_then(|(_, _, result)| result.as_ref().err().cloned());
        specifier.set_query(Some(&format!("load={}", self.load_count)));
        let language = if kind == SourceKind::JavaScript { "js" } else { "ts" };
        self.run_operation(json!({
            "op": "load",
            "specifier": specifier.as_str(),
            "path": candidate.path.to_string_lossy(),
            "source": fresh.then_some(candidate.source),
            "transpileError": transpile_error,
            "language": language,
        }))
    }

    /// Emits event `name` with payload `event` to every registered handler.
    pub fn emit(&mut self, name: &str, event: &Value) -> Result<EmitOutcome, EngineError> {
        self.emit_compared(name, event, None)
    }

    /// [`Engine::emit`], then `compare` made on the live event (JSON, which the event
    /// leaves the engine as, would lose what Letta's comparison sees).
    pub fn emit_compared(
        &mut self,
        name: &str,
        event: &Value,
        compare: Option<&LiveCompare>,
    ) -> Result<EmitOutcome, EngineError> {
        self.run_operation(json!({ "op": "emit", "name": name, "event": event, "compare": compare }))
    }

    /// Runs registered tool `tool_name` as Letta's host executes a mod tool:
    /// `isEnabled(ctx)`, then `run(ctx)` with `ctx.args = args`, its return
    /// value normalised to a status and output. Each is one step.
    pub fn run_tool(&mut self, tool_name: &str, args: &Value, tool_call_id: &str) -> Result<ToolRun, EngineError> {
        self.run_operation(json!({ "op": "runTool", "toolName": tool_name, "args": args, "toolCallId": tool_call_id }))
    }

    /// Asks every permission overlay about the tool call in `event`, one step
    /// per `isEnabled` and per `check`, and composes the answers as Letta's
    /// `checkModPermissions` does.
    pub fn check_permissions(&mut self, event: &Value) -> Result<PermissionCheck, EngineError> {
        self.run_operation(json!({ "op": "checkPermissions", "event": event }))
    }

    /// Runs slash command `/<command> <args>` (one step) and normalises its result.
    pub fn run_command(&mut self, command: &str, args: &str) -> Result<CommandRun, EngineError> {
        self.run_operation(json!({ "op": "runCommand", "command": command, "args": args }))
    }

    /// Aborts every owner's signal and runs the disposers (reverse load order).
    pub fn dispose(&mut self) -> Result<DisposeOutcome, EngineError> {
        self.run_operation(json!({ "op": "dispose" }))
    }

    /// Starts a new load generation with an empty registry.
    pub fn new_generation(&mut self) -> Result<u64, EngineError> {
        #[derive(Deserialize)]
        struct Generation {
            generation: u64,
        }
        Ok(self.call::<Generation>("newGeneration", &json!({}))?.generation)
    }

    /// The registry as it stands.
    pub fn snapshot(&mut self) -> Result<RegistrySnapshot, EngineError> {
        self.call("snapshot", &json!({}))
    }

    /// Console output since the last call.
    pub fn take_console(&mut self) -> Result<Vec<ConsoleLine>, EngineError> {
        #[derive(Deserialize)]
        struct Taken {
            lines: Vec<ConsoleLine>,
        }
        Ok(self.call::<Taken>("takeConsole", &json!({}))?.lines)
    }

    /// Runs one host operation step by step, each step under its own budget.
    pub(crate) fn run_operation<T: DeserializeOwned>(&mut self, operation: Value) -> Result<T, EngineError> {
        let StepCount { steps } = self.call("start", &operation)?;
        for index in 0..steps {
            if let StepEnd::Stopped { fault, message } = self.run_step(index)? {
                self.call::<Value>("fail", &json!({ "index": index, "fault": fault, "message": message }))?;
            }
        }
        self.call("finish", &json!({}))
    }

    fn run_step(&mut self, index: usize) -> Result<StepEnd, EngineError> {
        let budget = self.options.step_timeout;
        let clock = ThreadCpuClock::current();
        let deadline = clock.now() + budget;
        self.watchdog.arm(budget);
        let end = self.drive_step(index, clock, deadline);
        self.watchdog.disarm();
        match end {
            Err(CallFailure::Terminated) => {
                self.runtime.v8_isolate().cancel_terminate_execution();
                let (fault, message) = if self.watchdog.fired() {
                    ("timeout", format!("mod code did not finish within {} ms", budget.as_millis()))
                } else {
                    (
                        "out_of_memory",
                        format!("mod code exceeded the engine's {} MiB memory limit", self.options.memory_limit >> 20),
                    )
                };
                Ok(StepEnd::Stopped { fault, message })
            }
            Err(CallFailure::Threw(message)) => Err(EngineError::Host(message)),
            Ok(end) => Ok(end),
        }
    }

    /// Runs step `index` until it settles; `deadline` is on the thread's CPU clock.
    fn drive_step(&mut self, index: usize, clock: ThreadCpuClock, deadline: Duration) -> Result<StepEnd, CallFailure> {
        self.call_raw("step", &json!({ "index": index }).to_string())?;
        loop {
            self.run_event_loop()?;
            let poll: PollState = parse(&self.call_raw("poll", "{}")?).map_err(CallFailure::Threw)?;
            if poll.settled {
                return match poll.host_error {
                    Some(error) => Err(CallFailure::Threw(error)),
                    None => Ok(StepEnd::Settled),
                };
            }
            if clock.now() >= deadline {
                // Timers kept the step busy past its budget: stop it as the watchdog would.
                self.watchdog.mark_fired();
                return Err(CallFailure::Terminated);
            }
            if poll.timers == 0 {
                return Ok(StepEnd::Stopped {
                    fault: "never_settled",
                    message: "mod code awaited a promise that can never settle".to_owned(),
                });
            }
            self.call_raw("advance", "{}")?;
        }
    }

    fn run_event_loop(&mut self) -> Result<(), CallFailure> {
        let runtime = &mut self.runtime;
        let result = self.tokio.block_on(runtime.run_event_loop(PollEventLoopOptions::default()));
        match result {
            Ok(()) => Ok(()),
            Err(_) if runtime.v8_isolate().is_execution_terminating() || self.watchdog.fired() => {
                Err(CallFailure::Terminated)
            }
            Err(error) => Err(CallFailure::Threw(error.to_string())),
        }
    }

    fn call<T: DeserializeOwned>(&mut self, method: &str, args: &Value) -> Result<T, EngineError> {
        match self.call_raw(method, &args.to_string()) {
            Ok(text) => parse(&text).map_err(EngineError::Host),
            Err(CallFailure::Threw(message)) => Err(EngineError::Host(message)),
            Err(CallFailure::Terminated) => {
                self.runtime.v8_isolate().cancel_terminate_execution();
                Err(EngineError::Unusable(format!("host call `{method}` was terminated")))
            }
        }
    }

    fn call_raw(&mut self, method: &str, payload: &str) -> Result<String, CallFailure> {
        let host = self.host.clone();
        let runtime = &mut self.runtime;
        deno_core::scope!(scope, runtime);
        v8::tc_scope!(let scope, scope);
        let function = v8::Local::new(scope, &host);
        let (Some(method), Some(payload)) = (v8::String::new(scope, method), v8::String::new(scope, payload)) else {
            return Err(CallFailure::Threw("could not allocate call arguments".to_owned()));
        };
        let receiver = v8::undefined(scope).into();
        match function.call(scope, receiver, &[method.into(), payload.into()]) {
            Some(value) => Ok(value.to_rust_string_lossy(scope)),
            None if scope.has_terminated() || scope.is_execution_terminating() => Err(CallFailure::Terminated),
            None => {
                let message = scope
                    .exception()
                    .map(|exception| exception.to_rust_string_lossy(scope))
                    .unwrap_or_else(|| "unknown exception".to_owned());
                Err(CallFailure::Threw(message))
            }
        }
    }
}

fn parse<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    serde_json::from_str(text).map_err(|error| format!("unexpected host reply ({error}): {text}"))
}

fn absolute(path: &Path) -> std::path::PathBuf {
    if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().map(|dir| dir.join(path)).unwrap_or_else(|_| path.to_path_buf())
    }
}

/// Takes the host function off the global object, so candidates cannot reach it.
fn take_host_function(runtime: &mut JsRuntime) -> Result<v8::Global<v8::Function>, EngineError> {
    let value = runtime
        .execute_script(
            "modlearn-host:///take.js",
            "(() => { const host = globalThis.__modlearnHost; delete globalThis.__modlearnHost; return host; })()",
        )
        .map_err(|error| EngineError::Startup(error.to_string()))?;
    deno_core::scope!(scope, runtime);
    let local = v8::Local::new(scope, value);
    let function = v8::Local::<v8::Function>::try_from(local)
        .map_err(|_| EngineError::Startup("the host module did not install its entry function".to_owned()))?;
    Ok(v8::Global::new(scope, function))
}
