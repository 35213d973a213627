//! The exercise stage: load a candidate into an engine, run each scenario's
//! probes against it, and hand back what was observed. It decides nothing
//! about passing or failing; that is the judge's work.
//!
//! Each scenario gets a fresh load generation (a fresh module instance and
//! registry), the way Letta's harness reloads the mod per scenario. One
//! engine serves all scenarios of a candidate unless a stopped mod leaves it
//! unusable, in which case the next scenario gets a new engine.
#![deny(missing_docs)]

use std::path::Path;
use std::time::{Duration, Instant};

use modlearn_engine::{CandidateFile, EmitOutcome, Engine, EngineError, EngineOptions};
use modlearn_types::{ConsoleLine, Observation, Probe, RegistrySnapshot};
use serde::Serialize;

/// The probes of one scenario, in order.
#[derive(Clone, Debug, Default)]
pub struct ScenarioPlan {
    /// What to do after loading the candidate.
    pub probes: Vec<Probe>,
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
    let mut engine: Option<Engine> = None;
    let mut runs = Vec::with_capacity(plans.len());
    for plan in plans {
        let started = Instant::now();
        let mut current = match engine.take() {
            Some(engine) => engine,
            None => Engine::new(options.clone())?,
        };
        let mut observations = Vec::with_capacity(plan.probes.len());
        let outcome = run_scenario(&mut current, &candidate, plan, &mut observations);
        let run = match outcome {
            Ok((snapshot, console)) => {
                engine = Some(current);
                ScenarioRun { observations, snapshot: Some(snapshot), console, elapsed: started.elapsed() }
            }
            Err(error) => {
                tracing::warn!(candidate = %candidate_path.display(), %error, "engine left unusable; starting a new one");
                let message = error.to_string();
                while observations.len() < plan.probes.len() {
                    observations.push(Observation::EngineFailure { message: message.clone() });
                }
                ScenarioRun { observations, snapshot: None, console: Vec::new(), elapsed: started.elapsed() }
            }
        };
        runs.push(run);
    }
    Ok(runs)
}

fn run_scenario(
    engine: &mut Engine,
    candidate: &CandidateFile<'_>,
    plan: &ScenarioPlan,
    observations: &mut Vec<Observation>,
) -> Result<(RegistrySnapshot, Vec<ConsoleLine>), EngineError> {
    engine.new_generation()?;
    engine.load(candidate)?;
    for probe in &plan.probes {
        observations.push(observe(engine, probe)?);
    }
    let snapshot = engine.snapshot()?;
    engine.dispose()?;
    let console = engine.take_console()?;
    Ok((snapshot, console))
}

fn observe(engine: &mut Engine, probe: &Probe) -> Result<Observation, EngineError> {
    Ok(match probe {
        Probe::Snapshot => Observation::Snapshot { snapshot: engine.snapshot()? },
        Probe::Emit { event, payload } => match engine.emit(event, payload)? {
            EmitOutcome::Emitted { emission, event } => {
                Observation::Emitted { before: payload.clone(), after: event, emission }
            }
            EmitOutcome::Rejected { message } => Observation::Rejected { message },
        },
        Probe::RunTool { tool_name, args, tool_call_id } => {
            Observation::ToolRan { run: engine.run_tool(tool_name, args, tool_call_id)? }
        }
        Probe::CheckPermissions { event } => Observation::PermissionChecked { check: engine.check_permissions(event)? },
        Probe::RunCommand { command, args } => Observation::CommandRan { run: engine.run_command(command, args)? },
    })
}
