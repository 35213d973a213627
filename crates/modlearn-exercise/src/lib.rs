//! The exercise stage: load a candidate into an engine, run each scenario's
//! probes against it, and hand back what was observed. It decides nothing
//! about passing or failing; that is the judge's work.
//!
//! Each scenario gets a fresh load generation (a fresh module instance and
//! registry), the way Letta's harness reloads the mod per scenario. One
//! engine serves all scenarios of a candidate unless a stopped mod leaves it
//! unusable, in which case the next scenario gets a new engine (and a scenario
//! whose environment sets another profile or ctx gets one configured for it).
//! A scripted scenario also runs a headless agent session ([`session`]) on a
//! fresh load of the candidate, after its probes.
#![deny(missing_docs)]

mod lifecycle;
mod probe;
pub mod session;

use std::path::Path;
use std::time::{Duration, Instant};

use modlearn_engine::{Batch, CandidateFile, Engine, EngineError, EngineOptions, StopFault, WorldSeed};
use modlearn_types::{ConsoleLine, Diagnostic, Dialect, Fault, Observation, Probe, RegistrySnapshot, Severity};

use crate::probe::Pending;
use serde::Serialize;

/// The probes of one scenario, in order.
#[derive(Clone, Debug, Default)]
pub struct ScenarioPlan {
    /// What to do after loading the candidate.
    pub probes: Vec<Probe>,
    /// The environment's capability profile and ctx values, replacing the engine options' own.
    pub host: Option<HostSettings>,
    /// A headless session run after the probes, on a fresh load of the candidate.
    pub session: Option<session::SessionPlan>,
    /// The virtual world the mod's `node:fs`, `process.env` and `child_process` see.
    pub world: WorldSeed,
    /// Which host's plugin API the candidate is written against.
    pub dialect: Dialect,
}

/// What an environment sets on the engine a scenario runs in.
#[derive(Clone, Debug, PartialEq)]
pub struct HostSettings {
    /// Capability profile name (`headless`, `tui`, ...).
    pub profile: String,
    /// ctx values replacing the defaults.
    pub context: Option<serde_json::Value>,
}

impl ScenarioPlan {
    /// The engine options this scenario runs under.
    fn engine_options(&self, base: &EngineOptions) -> EngineOptions {
        let mut options = base.clone();
        if let Some(host) = &self.host {
            options.profile = host.profile.clone();
            options.context = host.context.clone();
        }
        options.world = self.world.clone();
        options.dialect = self.dialect;
        options
    }
}

/// What happened in one scenario.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScenarioRun {
    /// One observation per probe.
    pub observations: Vec<Observation>,
    /// The registry after the probes ran (before disposal).
    pub snapshot: Option<RegistrySnapshot>,
    /// What the candidate printed.
    pub console: Vec<ConsoleLine>,
    /// The headless session, when the scenario has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<session::SessionOutcome>,
    /// Why the engine had to be stopped, when mod code stopped it where the
    /// host could not record it (a killed or crashed worker process).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<Diagnostic>,
    /// Wall time of the scenario.
    #[serde(skip)]
    pub elapsed: Duration,
}

/// Runs every scenario against `candidate`. Fails only when no engine can be
/// started at all; everything the candidate does wrong is in the observations.
pub fn exercise(
    candidate_path: &Path,
    source: &str,
    plans: &[ScenarioPlan],
    options: &EngineOptions,
) -> Result<Vec<ScenarioRun>, EngineError> {
    let candidate = CandidateFile { path: candidate_path, source };
    // The engine and the environment and world it was configured for; another needs another engine.
    let mut engine: Option<(Engine, Option<HostSettings>, WorldSeed)> = None;
    let mut runs = Vec::with_capacity(plans.len());
    for plan in plans {
        let started = Instant::now();
        let scenario_options = plan.engine_options(options);
        let mut current = match engine.take() {
            Some((engine, host, world)) if host == plan.host && world == plan.world => engine,
            _ => Engine::new(scenario_options.clone())?,
        };
        let mut observations = Vec::with_capacity(plan.probes.len());
        let mut session = None;
        let outcome = run_scenario(&mut current, &candidate, plan, &scenario_options, &mut observations, &mut session);
        let run = match outcome {
            Ok((snapshot, console)) => {
                engine = Some((current, plan.host.clone(), plan.world.clone()));
                ScenarioRun { observations, snapshot: Some(snapshot), console, session, stopped: None, elapsed: started.elapsed() }
            }
            Err(error) => {
                tracing::warn!(candidate = %candidate_path.display(), %error, "engine left unusable; starting a new one");
                let message = error.to_string();
                while observations.len() < plan.probes.len() {
                    observations.push(Observation::EngineFailure { message: message.clone() });
                }
                let stopped = stop_diagnostic(&error);
                ScenarioRun { observations, snapshot: None, console: Vec::new(), session, stopped, elapsed: started.elapsed() }
            }
        };
        runs.push(run);
    }
    Ok(runs)
}

/// The diagnostic of an engine that mod code stopped (see [`EngineError::Stopped`]).
pub fn stop_diagnostic(error: &EngineError) -> Option<Diagnostic> {
    let EngineError::Stopped { fault, phase, message } = error else {
        return None;
    };
    let (fault, error_name, hint) = match fault {
        StopFault::Timeout => (
            Fault::Timeout,
            "TimeoutError",
            "Mod code must finish within the time budget. Look for a loop that never ends, a blocking wait, or work that grows without bound.",
        ),
        StopFault::OutOfMemory => (
            Fault::OutOfMemory,
            "OutOfMemoryError",
            "The mod allocated more memory than the engine allows. Look for collections or buffers that grow without bound.",
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
        timestamp: VIRTUAL_EPOCH.to_owned(),
        fault,
    })
}

/// The virtual clock's start, as diagnostics print it: a stopped engine's clock cannot be read.
const VIRTUAL_EPOCH: &str = "2026-01-01T00:00:00.000Z";

fn run_scenario(
    engine: &mut Engine,
    candidate: &CandidateFile<'_>,
    plan: &ScenarioPlan,
    options: &EngineOptions,
    observations: &mut Vec<Observation>,
    session: &mut Option<session::SessionOutcome>,
) -> Result<(RegistrySnapshot, Vec<ConsoleLine>), EngineError> {
    // Everything up to the session in one batch: no request depends on an earlier reply,
    // only on its success, and the replies are read in order as if each ran alone.
    let mut batch = Batch::new();
    let generation = batch.new_generation();
    let load = batch.load(candidate, false);
    let wants = |wanted: fn(&Probe) -> bool| plan.probes.iter().any(wanted);
    let at_load = wants(|probe| matches!(probe, Probe::LoadSnapshot)).then(|| batch.snapshot());
    let pending: Vec<Pending> = plan.probes.iter().map(|probe| probe::queue(&mut batch, probe)).collect();
    let snapshot = batch.snapshot();
    let dispose = batch.dispose();
    // The world as the scenario left it, dispose included: a command a disposer runs counts,
    // and timers still pending are in it (what they would do later cannot be judged).
    let end = wants(|probe| matches!(probe, Probe::EndSnapshot)).then(|| batch.snapshot());
    let console = plan.session.is_none().then(|| batch.take_console());
    let mut replies = engine.run(batch);

    replies.take(generation)?;
    replies.take(load)?;
    let at_load = at_load.map(|ticket| replies.take(ticket)).transpose()?;
    let first = observations.len();
    for (probe, pending) in plan.probes.iter().zip(pending) {
        let observation = match pending {
            // Lifecycle probes load the candidate in engines of their own.
            Pending::Lifecycle => {
                let others: Vec<Probe> = plan.probes.iter().filter(|p| !p.is_lifecycle()).cloned().collect();
                lifecycle::observe_lifecycle(candidate, probe, &others, options)
            }
            // Filled in below, once every other probe ran.
            Pending::AtEnd => Observation::EngineFailure { message: "the scenario stopped before its end".to_owned() },
            pending => probe::read(probe, pending, &mut replies, at_load.as_ref())?,
        };
        observations.push(observation);
    }
    let snapshot = replies.take(snapshot)?;
    replies.take(dispose)?;
    if let Some(end) = end {
        let end = replies.take(end)?;
        for (probe, observation) in plan.probes.iter().zip(&mut observations[first..]) {
            if matches!(probe, Probe::EndSnapshot) {
                *observation = Observation::Snapshot { snapshot: end.clone() };
            }
        }
    }
    if let Some(console) = console {
        return Ok((snapshot, replies.take(console)?));
    }
    if let Some(plan) = &plan.session {
        // A fresh load, as Letta's headless run is a process of its own.
        engine.new_generation()?;
        engine.load(candidate)?;
        // The session puts the ctx values the engine was configured with on its events.
        let mut plan = plan.clone();
        plan.env.context = options.context.clone();
        let mut driver = plan.driver.driver();
        let outcome = session::run_session(engine, &plan, driver.as_mut());
        *session = Some(outcome);
        // After an engine failure this dispose fails too, and the next scenario gets a new engine.
        engine.dispose()?;
    }
    let console = engine.take_console()?;
    Ok((snapshot, console))
}

/// The registry right after a load, when one of `probes` (about to run) asks for it.
fn snapshot_at_load(engine: &mut Engine, probes: &[Probe]) -> Result<Option<RegistrySnapshot>, EngineError> {
    if probes.iter().any(|probe| matches!(probe, Probe::LoadSnapshot)) { engine.snapshot().map(Some) } else { Ok(None) }
}
