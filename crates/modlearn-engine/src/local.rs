//! An engine in this process: a deno_core runtime (QuickJS backend) with the
//! host modules, driven step by step under the watchdog's CPU budget.
//!
//! Booting ([`Booted`]) is split from arming ([`LocalEngine::from_booted`]):
//! a booted runtime has no threads of its own, so a worker template can boot
//! once and fork a copy per candidate, each child then starting its own
//! watchdog (see `worker`).

use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::Duration;

use deno_core::{JsRuntime, ModuleSpecifier, PollEventLoopOptions, RuntimeOptions, v8};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;
use serde_json::{Value, json};

use modlearn_types::Dialect;

use crate::batch::Request;
use crate::engine::{EngineError, EngineOptions, StopFault};
use crate::host_sources::{HOST_ENTRY, HOST_SCHEME};
use crate::loader::SandboxLoader;
use crate::protocol::{HostMethod, Language, Operation};
use crate::reply_budget::ReplyBudget;
use crate::transpile::{SourceKind, as_letta_loads, to_javascript_mapped};
use crate::watchdog::{ThreadCpuClock, Watchdog};

/// Heap a dialect's own runtime takes on top of the others', so a candidate's memory limit is
/// the same allowance in every dialect: Pi's vendored runtime (the runner, the agent loop, the
/// built-in tools, TypeBox; js/vendor/pi.js) needs 18 MiB to boot where a Letta engine needs 10.
fn runtime_heap(dialect: Dialect) -> usize {
    match dialect {
        Dialect::Pi => 8 << 20,
        Dialect::Letta | Dialect::Dsh => 0,
    }
}

/// A runtime with the host modules loaded and nothing else: no watchdog
/// thread, no configuration, no candidate.
pub(crate) struct Booted {
    runtime: JsRuntime,
    host: v8::Global<v8::Function>,
    loader: Rc<SandboxLoader>,
    tokio: tokio::runtime::Runtime,
    memory_limit: usize,
}

impl Booted {
    /// A full collection of the engine's heap.
    pub(crate) fn collect_garbage(&mut self) {
        self.runtime.v8_isolate().low_memory_notification();
    }

    /// A booted runtime with the host modules a dialect's engines evaluate before the seal:
    /// the packages its plugins import and, for DSH, its runtime (which hands the host its
    /// API: no host module is imported once mods can run). A Letta engine needs neither.
    pub(crate) fn for_dialect(memory_limit: usize, dialect: Dialect) -> Result<Booted, EngineError> {
        let preload: &[&str] = match dialect {
            Dialect::Letta => &[],
            Dialect::Pi => &[
                "pi/api.js",
                "pi/packages/typebox.js",
                "pi/packages/typebox-compile.js",
                "pi/packages/typebox-value.js",
                "pi/packages/ai.js",
                "pi/packages/agent-core.js",
                "pi/packages/coding-agent.js",
            ],
            Dialect::Dsh => &["dsh/api.js", "dsh/packages/cordis.js", "dsh/packages/tools.js", "dsh/packages/llm.js"],
        };
        Booted::with_preloaded(memory_limit, runtime_heap(dialect), preload)
    }

    /// A booted runtime that has also evaluated the host modules `preload` names, before the
    /// seal. The engine template preloads the packages Pi extensions import (TypeBox is ~100 KB),
    /// so that no candidate's import budget pays for evaluating them.
    fn with_preloaded(memory_limit: usize, runtime: usize, preload: &[&str]) -> Result<Booted, EngineError> {
        let loader = Rc::new(SandboxLoader::new());
        let create_params = v8::CreateParams::default().heap_limits(0, memory_limit + runtime);
        let mut runtime = JsRuntime::try_new(RuntimeOptions {
            module_loader: Some(loader.clone()),
            create_params: Some(create_params),
            extensions: vec![modlearn_engine_ops::extension()],
            ..Default::default()
        })
        .map_err(|error| EngineError::Startup(error.to_string()))?;
        // No I/O or time driver: the runtime owns no file descriptors or threads, so it forks safely.
        let tokio = tokio::runtime::Builder::new_current_thread().build().map_err(|error| EngineError::Startup(error.to_string()))?;
        // The entry first (it installs the sandbox), then the preloaded modules.
        let modules = std::iter::once(HOST_ENTRY.to_owned()).chain(preload.iter().map(|module| format!("{HOST_SCHEME}:///{module}")));
        let host = tokio.block_on(async {
            for module in modules {
                let specifier = ModuleSpecifier::parse(&module).map_err(|e| e.to_string())?;
                let id = runtime.load_side_es_module(&specifier).await.map_err(|e| e.to_string())?;
                let evaluated = runtime.mod_evaluate(id);
                runtime.run_event_loop(PollEventLoopOptions::default()).await.map_err(|e| e.to_string())?;
                evaluated.await.map_err(|e| e.to_string())?;
            }
            Ok::<(), String>(())
        });
        host.map_err(EngineError::Startup)?;
        let host = take_host_function(&mut runtime)?;
        let mut booted = Booted { runtime, host, loader, tokio, memory_limit };
        booted.seal()?;
        Ok(booted)
    }

    /// Locks the sandbox's built-ins (js/host.js `seal`) and the loader: from
    /// here on only candidate files and public host modules load.
    fn seal(&mut self) -> Result<(), EngineError> {
        let host = self.host.clone();
        let runtime = &mut self.runtime;
        let sealed = {
            deno_core::scope!(scope, runtime);
            v8::tc_scope!(let scope, scope);
            let function = v8::Local::new(scope, &host);
            let (Some(method), Some(payload)) = (v8::String::new(scope, HostMethod::Seal.as_str()), v8::String::new(scope, "{}")) else {
                return Err(EngineError::Startup("could not allocate the seal call".to_owned()));
            };
            let receiver = v8::undefined(scope).into();
            let called = function.call(scope, receiver, &[method.into(), payload.into()]);
            match called {
                Some(_) => Ok(()),
                None => Err(scope.exception().map(|e| e.to_rust_string_lossy(scope)).unwrap_or_default()),
            }
        };
        sealed.map_err(|error| EngineError::Startup(format!("sealing the sandbox failed: {error}")))?;
        self.loader.seal();
        Ok(())
    }
}

/// The reply to `start`: the operation's step count, and its result when it has no steps
/// (otherwise the first step is already under way).
#[derive(Deserialize)]
struct Started {
    steps: usize,
    finished: Option<Box<RawValue>>,
}

/// The reply to `poll`. Asked to (`follow`), the host begins the next step at once when
/// this one settled cleanly.
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
    /// The step settled; `followed` when the host was asked to begin the next one, and did.
    Settled { followed: bool },
    /// The step awaits a promise that nothing can settle (no timer is left).
    NeverSettled,
}

/// The last candidate transpiled: its path, its source and whether it transpiled (its code
/// is primed in the loader).
struct Transpiled {
    path: PathBuf,
    source: String,
    result: Result<(), String>,
}

/// One engine in this thread. Not `Send`.
pub(crate) struct LocalEngine {
    booted: Booted,
    watchdog: Watchdog,
    options: EngineOptions,
    /// The settings the host has: a spare's defaults, which a candidate's own settings often
    /// equal (then configuring again would only redo the same work).
    configured: Option<Value>,
    load_count: u64,
    transpiled: Option<Transpiled>,
    replies: ReplyBudget,
    /// The phase of the request running, which a stop is reported in.
    phase: &'static str,
    /// Set once mod code was stopped at a limit: every later request fails with it.
    stopped: Option<EngineError>,
}

/// The CPU time all the steps of one operation may use together, in step budgets. Steps
/// that each stay under the budget would otherwise cost a turn as many budgets as the mod
/// registers handlers; past this the rest are failed unrun.
const OPERATION_BUDGETS: u32 = 4;

impl LocalEngine {
    pub(crate) fn new(options: EngineOptions) -> Result<LocalEngine, EngineError> {
        LocalEngine::from_booted(Booted::for_dialect(options.memory_limit, options.dialect)?, options)
    }

    /// Arms a booted runtime: starts its watchdog and configures the host.
    pub(crate) fn from_booted(mut booted: Booted, options: EngineOptions) -> Result<LocalEngine, EngineError> {
        let watchdog = Watchdog::new(booted.runtime.v8_isolate().thread_safe_handle());
        let mut engine = LocalEngine {
            booted,
            watchdog,
            options: options.clone(),
            configured: None,
            load_count: 0,
            transpiled: None,
            replies: ReplyBudget::default(),
            phase: "activate",
            stopped: None,
        };
        engine.configure(options)?;
        Ok(engine)
    }

    /// Gives the mod a machine, reached over `transport` (see [`crate::machine_link`]).
    pub(crate) fn set_machine(&mut self, transport: crate::machine_link::Transport) {
        let slot = crate::machine_link::slot(transport, self.watchdog.machine_budget());
        self.booted.runtime.op_state().borrow_mut().put(slot);
    }

    /// Gives the host new settings, each replacing the last (an engine process is first
    /// configured with defaults while it waits as a spare). Only before a load.
    pub(crate) fn configure(&mut self, options: EngineOptions) -> Result<(), EngineError> {
        debug_assert_eq!(self.booted.memory_limit, options.memory_limit, "the runtime's heap cap is fixed at boot");
        debug_assert_eq!(self.load_count, 0, "an engine is configured before its first load");
        self.options = options;
        self.booted.loader.set_dialect(self.options.dialect);
        let config = json!({
            "dialect": self.options.dialect,
            "profile": self.options.profile,
            "context": self.options.context,
            "seed": self.options.seed,
            "world": self.options.world,
        });
        // No mod code ran since the last configuration, so the same settings would leave the
        // host exactly as it is.
        if self.configured.as_ref() != Some(&config) {
            self.call(HostMethod::Configure, &config)?;
            self.configured = Some(config);
        }
        Ok(())
    }

    /// Runs one request of a batch.
    pub(crate) fn run(&mut self, request: Request, on_step: &mut dyn FnMut(usize)) -> Result<String, EngineError> {
        if let Some(error) = &self.stopped {
            return Err(error.clone());
        }
        self.phase = request.phase();
        let reply = match request {
            Request::Load { path, source, keep_instance } => self.load(&path, &source, keep_instance, on_step),
            Request::Operate(operation) => self.operate(&operation, on_step),
            Request::Call { method, args } => self.call(method, &args),
        }
        .and_then(|reply| self.replies.admit(self.phase, reply));
        if let Err(error @ EngineError::Stopped { .. }) = &reply {
            // Whatever the mod left half done is past judging, as it is after a kill.
            self.stopped = Some(error.clone());
        }
        reply
    }

    /// Loads and activates the candidate at `path` into the current load
    /// generation, as a fresh module instance. Replies with the host's JSON.
    ///
    /// With `keep_instance`, an unchanged file keeps the module instance of the
    /// last load, as Letta's `/reload` does (it imports `<file>?mod=<mtime>`,
    /// the same URL): module-level state persists and only `activate` runs again.
    /// Pi extensions are imported afresh, as Pi reloads them.
    fn load(&mut self, path: &Path, source: &str, keep_instance: bool, on_step: &mut dyn FnMut(usize)) -> Result<String, EngineError> {
        let given = path;
        // The mod sees itself at a virtual path (import.meta.url and its stack frames), never the host's.
        let file_name = path.file_name().map_or_else(|| "mod.js".into(), |name| name.to_os_string());
        let path = Path::new(VIRTUAL_MOD_DIR).join(file_name);
        self.booted.loader.confine_to(path.clone());
        let unchanged = matches!(&self.transpiled, Some(last) if last.path == path && last.source == source);
        // Pi's loader imports an extension afresh on every reload (jiti, `moduleCache: false`).
        let keep_instance = keep_instance && self.options.dialect != Dialect::Pi;
        if !(keep_instance && unchanged && self.load_count > 0) {
            self.load_count += 1;
        }
        let mut specifier =
            ModuleSpecifier::from_file_path(&path).map_err(|()| EngineError::Host(format!("not an absolute path: {}", path.display())))?;
        let kind = SourceKind::from_path(&path).unwrap_or(SourceKind::JavaScript);
        let kind = if self.options.dialect == Dialect::Letta { as_letta_loads(&specifier, kind, source) } else { kind };
        // Transpile and scan once per file and source; later load generations
        // reuse the transpiled code (primed in the loader) and the scan (kept by the host).
        let fresh = !unchanged;
        if fresh {
            // Transpile errors name the file as the user knows it.
            let result = to_javascript_mapped(&specifier, given, kind, source).map(|emitted| {
                self.booted.loader.prime(path.clone(), emitted.code, emitted.source_map);
            });
            self.transpiled = Some(Transpiled { path: path.clone(), source: source.to_owned(), result });
        }
        let transpile_error = self.transpiled.as_ref().and_then(|last| last.result.as_ref().err().cloned());
        specifier.set_query(Some(&format!("load={}", self.load_count)));
        let language = if kind == SourceKind::JavaScript { Language::Js } else { Language::Ts };
        let operation = Operation::Load {
            specifier: specifier.to_string(),
            path: given.to_string_lossy().into_owned(),
            source: fresh.then(|| source.to_owned()),
            transpile_error,
            language,
        };
        self.operate(&operation, on_step)
    }

    /// Runs one operation step by step, each step under its own budget,
    /// calling `on_step` before each step starts.
    fn operate(&mut self, operation: &Operation, on_step: &mut dyn FnMut(usize)) -> Result<String, EngineError> {
        let args = serde_json::to_value(operation).map_err(|error| EngineError::Host(error.to_string()))?;
        let started: Started = parse(&self.call(HostMethod::Start, &args)?).map_err(EngineError::Host)?;
        if let Some(result) = started.finished {
            return Ok(result.get().to_owned());
        }
        // `start` began step 0, and each step that settles begins the next: only a step after
        // one that was stopped needs a `step` call of its own.
        let clock = ThreadCpuClock::current();
        let allowance = self.options.step_timeout.saturating_mul(OPERATION_BUDGETS);
        let spent_by = clock.now().saturating_add(allowance);
        let mut begun = true;
        for index in 0..started.steps {
            on_step(index);
            let (fault, message) = if !begun && clock.now() >= spent_by {
                ("timeout", format!("not run: this operation's steps used up its {} ms of CPU time", allowance.as_millis()))
            } else {
                // The last step is not followed: `finish` (which can run mod code, reading
                // what the handlers returned) gets a budget of its own.
                let follow_by = if index + 1 < started.steps { spent_by } else { Duration::ZERO };
                match self.run_step(index, begun, follow_by)? {
                    StepEnd::Settled { followed } => {
                        begun = followed;
                        continue;
                    }
                    StepEnd::NeverSettled => ("never_settled", "mod code awaited a promise that can never settle".to_owned()),
                }
            };
            begun = false;
            self.call(HostMethod::Fail, &json!({ "index": index, "fault": fault, "message": message }))?;
        }
        self.call(HostMethod::Finish, &json!({}))
    }

    /// Calls one host method under the step budget (mod code can run inside
    /// any of them: getters and proxies the host reads, abort listeners).
    pub(crate) fn call(&mut self, method: HostMethod, args: &Value) -> Result<String, EngineError> {
        self.watchdog.arm(self.options.step_timeout);
        let result = self.call_raw(method, &args.to_string());
        self.watchdog.disarm();
        match result {
            Ok(text) => Ok(text),
            Err(CallFailure::Threw(message)) => Err(EngineError::Host(message)),
            Err(CallFailure::Terminated) => Err(self.stopped_at_limit()),
        }
    }

    /// Mod code was terminated at a limit: the request ends here, and the engine with it (see
    /// [`EngineError::at_limit`]).
    fn stopped_at_limit(&mut self) -> EngineError {
        self.booted.runtime.v8_isolate().cancel_terminate_execution();
        let fault = if self.watchdog.fired() { StopFault::Timeout } else { StopFault::OutOfMemory };
        EngineError::at_limit(fault, self.phase, &self.options)
    }

    /// Runs step `index` under its own budget; `begun` when the host already began it. Once
    /// it settles, the host begins the next step if the thread's CPU clock is short of
    /// `follow_by` (the operation's time is not used up).
    fn run_step(&mut self, index: usize, begun: bool, follow_by: Duration) -> Result<StepEnd, EngineError> {
        let budget = self.options.step_timeout;
        let clock = ThreadCpuClock::current();
        let deadline = clock.now() + budget;
        self.watchdog.arm(budget);
        let end = self.drive_step(index, begun, clock, deadline, follow_by);
        self.watchdog.disarm();
        match end {
            Err(CallFailure::Terminated) => Err(self.stopped_at_limit()),
            Err(CallFailure::Threw(message)) => Err(EngineError::Host(message)),
            Ok(end) => Ok(end),
        }
    }

    /// Runs step `index` until it settles; `deadline` is on the thread's CPU clock.
    fn drive_step(
        &mut self,
        index: usize,
        begun: bool,
        clock: ThreadCpuClock,
        deadline: Duration,
        follow_by: Duration,
    ) -> Result<StepEnd, CallFailure> {
        if !begun {
            self.call_raw(HostMethod::Step, &json!({ "index": index }).to_string())?;
        }
        loop {
            self.run_event_loop()?;
            let follow = clock.now() < follow_by;
            let args = if follow { r#"{"follow":true}"# } else { "{}" };
            let poll: PollState = parse(&self.call_raw(HostMethod::Poll, args)?).map_err(CallFailure::Threw)?;
            if poll.settled {
                return match poll.host_error {
                    Some(error) => Err(CallFailure::Threw(error)),
                    None => Ok(StepEnd::Settled { followed: follow }),
                };
            }
            if clock.now() >= deadline {
                // Timers kept the step busy past its budget: stop it as the watchdog would.
                self.watchdog.mark_fired();
                return Err(CallFailure::Terminated);
            }
            if poll.timers == 0 {
                return Ok(StepEnd::NeverSettled);
            }
            self.call_raw(HostMethod::Advance, "{}")?;
        }
    }

    fn run_event_loop(&mut self) -> Result<(), CallFailure> {
        let runtime = &mut self.booted.runtime;
        let result = self.booted.tokio.block_on(runtime.run_event_loop(PollEventLoopOptions::default()));
        match result {
            Ok(()) => Ok(()),
            Err(_) if runtime.v8_isolate().is_execution_terminating() || self.watchdog.fired() => Err(CallFailure::Terminated),
            // deno_core knows nothing of the virtual clock: a module awaiting a timer at its top
            // level looks stalled to it, though firing the timer moves it on. The step loop
            // decides, as for any other awaited timer.
            Err(error) if error.to_string().contains(STALLED_TOP_LEVEL_AWAIT) => Ok(()),
            Err(error) => Err(CallFailure::Threw(error.to_string())),
        }
    }

    fn call_raw(&mut self, method: HostMethod, payload: &str) -> Result<String, CallFailure> {
        let host = self.booted.host.clone();
        let runtime = &mut self.booted.runtime;
        deno_core::scope!(scope, runtime);
        v8::tc_scope!(let scope, scope);
        let function = v8::Local::new(scope, &host);
        let (Some(method), Some(payload)) = (v8::String::new(scope, method.as_str()), v8::String::new(scope, payload)) else {
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

/// What deno_core reports when a module's top-level await has nothing left to wait on.
const STALLED_TOP_LEVEL_AWAIT: &str = "Top-level await promise never resolved";

/// Where a candidate seems to live, to itself: where its machine holds it.
pub(crate) const VIRTUAL_MOD_DIR: &str = modlearn_machine::MODS_DIR;

pub(crate) fn parse<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    serde_json::from_str(text).map_err(|error| format!("unexpected host reply ({error}): {}", modlearn_types::bound::cut(text, 2000)))
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
