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
//!
//! The candidate's files and commands are a real machine's ([`modlearn_machine`]): one per
//! environment its scenarios name, used by those scenarios in order (what one leaves, the next
//! finds, as on Letta's one machine) and gone with the candidate. Hidden scenarios run after
//! the visible ones, in an engine of their own, so nothing a proposer reads of the visible ones
//! comes after them. Lifecycle probes run on fresh machines of the same plan, so their extra
//! loads change nothing the scenario's own checks read.
#![deny(missing_docs)]

mod lifecycle;
mod probe;
pub mod session;

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use modlearn_engine::{Batch, CandidateFile, Engine, EngineError, EngineOptions, VIRTUAL_EPOCH_MS, WorldSeed};
use modlearn_machine::{Machine, MachinePlan, ScenarioRecord};
use modlearn_types::{ConsoleLine, Diagnostic, Dialect, Observation, OtherScenario, Probe, RegistrySnapshot, WorldState};

use crate::probe::Pending;
use serde::Serialize;

/// The probes of one scenario, in order.
#[derive(Clone, Debug, Default)]
pub struct ScenarioPlan {
    /// The scenario's name, as checks quote it.
    pub name: String,
    /// What to do after loading the candidate.
    pub probes: Vec<Probe>,
    /// The environment's capability profile and ctx values, replacing the engine options' own.
    pub host: Option<HostSettings>,
    /// A headless session run after the probes, on a fresh load of the candidate.
    pub session: Option<session::SessionPlan>,
    /// What the mod's process starts with (environment, dialogs).
    pub world: WorldSeed,
    /// The machine its environment gives the candidate (scenarios of one plan share one).
    pub machine: Arc<MachinePlan>,
    /// Files written to the machine (absolute path, text) before the scenario runs: its memory files.
    pub memory_files: Vec<(String, String)>,
    /// A hidden scenario: run after every visible one, in an engine of its own.
    pub hidden: bool,
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
    /// The registry after the probes ran (before disposal), with the machine's record of the
    /// whole scenario in its world.
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

/// The order scenarios run in: the visible ones, then the hidden ones, each in spec order.
pub fn run_order(plans: &[ScenarioPlan]) -> Vec<usize> {
    let visible = (0..plans.len()).filter(|&index| !plans[index].hidden);
    visible.chain((0..plans.len()).filter(|&index| plans[index].hidden)).collect()
}

/// The engine a scenario may reuse: the settings and machine it was made for.
struct Reusable {
    engine: Engine,
    host: Option<HostSettings>,
    world: WorldSeed,
    machine: Arc<Machine>,
    hidden: bool,
}

/// Runs every scenario against `candidate`. Fails only when no engine can be
/// started at all; everything the candidate does wrong is in the observations.
/// Runs come back in the order of `plans`.
pub fn exercise(
    candidate_path: &Path,
    source: &str,
    plans: &[ScenarioPlan],
    options: &EngineOptions,
) -> Result<Vec<ScenarioRun>, EngineError> {
    let candidate = CandidateFile { path: candidate_path, source };
    let mut machines: Vec<(Arc<MachinePlan>, Arc<Machine>)> = Vec::new();
    let mut engine: Option<Reusable> = None;
    let mut runs: Vec<Option<ScenarioRun>> = vec![None; plans.len()];
    for index in run_order(plans) {
        let plan = &plans[index];
        let started = Instant::now();
        let machine = match machines.iter().find(|(made_for, _)| made_for == &plan.machine) {
            Some((_, machine)) => Arc::clone(machine),
            None => {
                let machine = Arc::new(Machine::new((*plan.machine).clone(), VIRTUAL_EPOCH_MS));
                machines.push((Arc::clone(&plan.machine), Arc::clone(&machine)));
                machine
            }
        };
        let scenario_options = plan.engine_options(options);
        let mut current = match engine.take() {
            Some(reusable)
                if reusable.host == plan.host
                    && reusable.world == plan.world
                    && Arc::ptr_eq(&reusable.machine, &machine)
                    && reusable.hidden == plan.hidden =>
            {
                reusable.engine
            }
            _ => Engine::with_machine(scenario_options.clone(), Arc::clone(&machine))?,
        };
        machine.begin_scenario(&plan.memory_files);
        let mut observations = Vec::with_capacity(plan.probes.len());
        let mut session = None;
        let outcome = run_scenario(&mut current, &candidate, plan, &scenario_options, &machine, &mut observations, &mut session);
        let record = machine.end_scenario();
        let run = match outcome {
            Ok((mut snapshot, console)) => {
                engine = Some(Reusable {
                    engine: current,
                    host: plan.host.clone(),
                    world: plan.world.clone(),
                    machine: Arc::clone(&machine),
                    hidden: plan.hidden,
                });
                add_record(&mut snapshot.world, &record);
                for (probe, observation) in plan.probes.iter().zip(&mut observations) {
                    if let (Probe::EndSnapshot, Observation::Snapshot { snapshot }) = (probe, observation) {
                        add_record(&mut snapshot.world, &record);
                    }
                }
                ScenarioRun { observations, snapshot: Some(snapshot), console, session, stopped: None, elapsed: started.elapsed() }
            }
            Err(error) => {
                tracing::warn!(candidate = %candidate_path.display(), %error, "engine left unusable; starting a new one");
                let message = error.to_string();
                while observations.len() < plan.probes.len() {
                    observations.push(Observation::EngineFailure { message: message.clone() });
                }
                let stopped = error.stop_diagnostic();
                ScenarioRun { observations, snapshot: None, console: Vec::new(), session, stopped, elapsed: started.elapsed() }
            }
        };
        runs[index] = Some(run);
    }
    let mut runs: Vec<ScenarioRun> = runs.into_iter().map(|run| run.expect("every scenario ran")).collect();
    mark_unexercised(plans, &mut runs);
    share_machine_records(plans, &mut runs);
    Ok(runs)
}

/// Names, in each Letta scenario's world, the code the mod registered that no scenario ran:
/// handlers of events no scenario dispatched (a `turn_end` handler on a spec of `turn_start`
/// steps), and tools, slash commands and permission checks no scenario called. What that code
/// does runs only in use, so it is never seen. (Pi's and DSH's handlers are named by their own
/// events.)
fn mark_unexercised(plans: &[ScenarioPlan], runs: &mut [ScenarioRun]) {
    let dispatched_in = |run: &ScenarioRun| -> Vec<String> {
        let ended = run.observations.iter().filter_map(|observation| match observation {
            Observation::Snapshot { snapshot } => Some(&snapshot.world.dispatched),
            _ => None,
        });
        run.snapshot.iter().map(|snapshot| &snapshot.world.dispatched).chain(ended).flatten().cloned().collect()
    };
    let dispatched: std::collections::BTreeSet<String> = runs.iter().flat_map(dispatched_in).collect();
    let called = Called::by(plans);
    for (plan, run) in plans.iter().zip(runs.iter_mut()) {
        if plan.dialect != Dialect::Letta {
            continue;
        }
        // The registry before dispose (the end snapshot is read after it, handlers gone).
        let Some(before) = &run.snapshot else { continue };
        let events = before.events.iter().filter(|(event, handlers)| **handlers > 0 && !dispatched.contains(*event));
        let tools = before.tools.iter().filter(|tool| !called.all_tools && !called.tools.contains(&tool.name));
        let commands = before.commands.iter().filter(|command| !called.commands.contains(&command.id));
        let permissions = before.permissions.iter().filter(|_| !called.permissions);
        let unexercised: Vec<String> = events
            .map(|(event, _)| format!("the `{event}` event"))
            .chain(tools.map(|tool| format!("tool `{}`", tool.name)))
            .chain(commands.map(|command| format!("command `/{}`", command.id)))
            .chain(permissions.map(|check| format!("permission check `{}`", check.get("id").and_then(|id| id.as_str()).unwrap_or("?"))))
            .collect();
        let worlds =
            run.snapshot.iter_mut().map(|snapshot| &mut snapshot.world).chain(run.observations.iter_mut().filter_map(|observation| {
                match observation {
                    Observation::Snapshot { snapshot } => Some(&mut snapshot.world),
                    _ => None,
                }
            }));
        for world in worlds {
            world.unexercised = unexercised.clone();
        }
    }
}

/// What the scenarios of a spec call of a mod's registrations.
#[derive(Default)]
struct Called {
    tools: std::collections::BTreeSet<String>,
    /// A session whose agent is a model may call any tool.
    all_tools: bool,
    commands: std::collections::BTreeSet<String>,
    /// Whether any scenario asks the permission checks (a probe, or a session's tool calls).
    permissions: bool,
}

impl Called {
    fn by(plans: &[ScenarioPlan]) -> Called {
        let mut called = Called::default();
        for plan in plans {
            for probe in &plan.probes {
                match probe {
                    Probe::RunTool { tool_name, .. } => _ = called.tools.insert(tool_name.clone()),
                    Probe::RunCommand { command, .. } => _ = called.commands.insert(command.clone()),
                    Probe::CheckPermissions { .. } => called.permissions = true,
                    _ => {}
                }
            }
            match plan.session.as_ref().map(|session| &session.driver) {
                Some(session::DriverPlan::Script(actions)) => {
                    for action in actions {
                        if let session::Action::Tool(call) = action {
                            called.tools.insert(call.name.clone());
                            called.permissions = true;
                        }
                    }
                }
                Some(session::DriverPlan::External(_)) => {
                    called.all_tools = true;
                    called.permissions = true;
                }
                None => {}
            }
        }
        called
    }
}

/// Gives each scenario's worlds the records of the other scenarios on its machine: a mod that
/// deletes the workspace where no check looks (say on its first load) leaves every later
/// scenario a machine already wiped. Scenarios with a session are left out (their agent's own
/// commands are no act of the mod's), and a visible scenario gets only visible ones (its
/// checks' messages reach proposers).
fn share_machine_records(plans: &[ScenarioPlan], runs: &mut [ScenarioRun]) {
    // Shared, not copied: every scenario on the machine holds every other one's record.
    let records: Vec<Option<Arc<OtherScenario>>> = plans
        .iter()
        .zip(runs.iter())
        .map(|(plan, run)| {
            let world = &run.snapshot.as_ref().filter(|_| plan.session.is_none())?.world;
            Some(Arc::new(OtherScenario {
                scenario: plan.name.clone(),
                commands: world.commands.clone(),
                commands_dropped: world.commands_dropped,
                changes: world.changes.clone(),
                unseen: world.unseen.clone(),
            }))
        })
        .collect();
    for (index, (plan, run)) in plans.iter().zip(runs.iter_mut()).enumerate() {
        let elsewhere: Vec<Arc<OtherScenario>> = records
            .iter()
            .enumerate()
            .filter(|&(other, _)| other != index && plans[other].machine == plan.machine && (plan.hidden || !plans[other].hidden))
            .filter_map(|(_, record)| record.clone())
            .collect();
        if elsewhere.is_empty() {
            continue;
        }
        let ended = run.observations.iter_mut().filter_map(|observation| match observation {
            Observation::Snapshot { snapshot } => Some(&mut snapshot.world),
            _ => None,
        });
        for world in run.snapshot.iter_mut().map(|snapshot| &mut snapshot.world).chain(ended) {
            world.elsewhere = elsewhere.clone();
        }
    }
}

/// The machine's record of a scenario, in the world the judge reads.
fn add_record(world: &mut WorldState, record: &ScenarioRecord) {
    world.commands = record.commands.clone();
    world.commands_dropped = record.commands_dropped;
    world.changes = record.changes.clone();
    world.written_files = record.written_files.clone();
    world.written_files_dropped = record.written_files_dropped;
    world.unseen = record.unseen.clone();
}

fn run_scenario(
    engine: &mut Engine,
    candidate: &CandidateFile<'_>,
    plan: &ScenarioPlan,
    options: &EngineOptions,
    machine: &Machine,
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
    // The engine's side as the scenario left it, dispose included: timers still pending are in
    // it (what they would do later cannot be judged). The machine's record is added at the end.
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
                lifecycle::observe_lifecycle(candidate, probe, &others, options, &plan.machine)
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
        let outcome = session::run_session(engine, &plan, driver.as_mut(), machine);
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
