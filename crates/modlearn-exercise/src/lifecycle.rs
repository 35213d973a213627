//! Lifecycle probes. Each runs the candidate in engines of its own, so the
//! scenario's loaded candidate is left as it was: dispose and watch what
//! remains, reload in one engine (keeping the module instance, as Letta's
//! `/reload` of an unchanged file does), load under another capability profile,
//! run twice, run conversations alone and interleaved.

use std::sync::Arc;

use modlearn_engine::{CandidateFile, Engine, EngineError, EngineOptions, VIRTUAL_EPOCH_MS};
use modlearn_machine::{Machine, MachinePlan};
use modlearn_types::{
    ConversationPlan, ConversationRun, ConversationsReport, DisposeReport, Observation, Probe, ProfileReport, Registrations,
    RegistrySnapshot, ReloadCycle, RepeatReport,
};

use crate::probe::observe;
use crate::snapshot_at_load;

/// How far the clock moves between the two runs of a `Repeat` probe (one day).
const CLOCK_SHIFT_MS: u64 = 24 * 60 * 60 * 1000;

/// Runs lifecycle probe `probe`; `others` are the scenario's other probes
/// (what a `Repeat` probe without probes repeats). An engine failure
/// becomes an `EngineFailure` observation: the scenario goes on.
pub(crate) fn observe_lifecycle(
    candidate: &CandidateFile<'_>,
    probe: &Probe,
    others: &[Probe],
    options: &EngineOptions,
    machine: &MachinePlan,
) -> Observation {
    let setup = &Setup { options, machine };
    let observed = match probe {
        Probe::Dispose { steps, settle_ms } => dispose(candidate, steps, *settle_ms, setup),
        Probe::Reload { cycles, steps } => reload(candidate, *cycles, steps, setup),
        Probe::UnderProfile { profile, steps } => under_profile(candidate, profile, steps, setup),
        Probe::Repeat { probes, vary } => {
            let probes = if probes.is_empty() { others.to_vec() } else { probes.clone() };
            repeat(candidate, probes, vary, setup)
        }
        Probe::Conversations { conversations } => conversations_run(candidate, conversations, setup),
        other => Err(EngineError::Host(format!("not a lifecycle probe: {other:?}"))),
    };
    observed.unwrap_or_else(|error| Observation::EngineFailure { message: error.to_string() })
}

/// What a lifecycle probe's engines start from: the scenario's options, and its machine's plan
/// (each engine gets a fresh machine of it: the probe's extra loads change nothing the
/// scenario's own checks read).
struct Setup<'a> {
    options: &'a EngineOptions,
    machine: &'a MachinePlan,
}

impl Setup<'_> {
    fn engine(&self, options: EngineOptions) -> Result<Engine, EngineError> {
        Engine::with_machine(options, Arc::new(Machine::new(self.machine.clone(), VIRTUAL_EPOCH_MS)))
    }
}

/// A fresh engine with a new generation and the candidate loaded.
fn loaded(candidate: &CandidateFile<'_>, setup: &Setup<'_>, options: EngineOptions) -> Result<(Engine, bool), EngineError> {
    let mut engine = setup.engine(options)?;
    let loaded = load(&mut engine, candidate)?;
    Ok((engine, loaded))
}

fn load(engine: &mut Engine, candidate: &CandidateFile<'_>) -> Result<bool, EngineError> {
    engine.new_generation()?;
    Ok(engine.load(candidate)?.loaded)
}

/// Runs `steps` right after a load.
fn run_steps(engine: &mut Engine, steps: &[Probe]) -> Result<Vec<Observation>, EngineError> {
    let at_load = snapshot_at_load(engine, steps)?;
    steps.iter().map(|step| observe(engine, step, at_load.as_ref())).collect()
}

fn dispose(candidate: &CandidateFile<'_>, steps: &[Probe], settle_ms: u64, setup: &Setup<'_>) -> Result<Observation, EngineError> {
    let (mut engine, loaded) = loaded(candidate, setup, setup.options.clone())?;
    let load_diagnostics = engine.snapshot()?.diagnostics;
    let steps = run_steps(&mut engine, steps)?;
    let dispose = engine.dispose_checked()?;
    let leftovers = engine.leftovers()?;
    let settle = engine.settle(settle_ms)?;
    let after_settle = engine.leftovers()?;
    let report = DisposeReport { loaded, load_diagnostics, steps, dispose, settle, settle_ms, leftovers, after_settle };
    Ok(Observation::Disposed { report: Box::new(report) })
}

fn reload(candidate: &CandidateFile<'_>, cycles: u32, steps: &[Probe], setup: &Setup<'_>) -> Result<Observation, EngineError> {
    let mut engine = setup.engine(setup.options.clone())?;
    let mut observed = Vec::new();
    for cycle in 0..cycles {
        // As Letta's `/reload` of an unchanged file: the same module instance, `activate` again,
        // in the same process (its environment, working directory and files).
        if cycle == 0 {
            engine.new_generation()?;
        } else {
            engine.reload_generation()?;
        }
        let loaded = engine.reload(candidate)?.loaded;
        let steps = run_steps(&mut engine, steps)?;
        let snapshot = engine.snapshot()?;
        engine.dispose()?;
        let leftovers = engine.leftovers()?;
        observed.push(ReloadCycle { loaded, registrations: registrations(&snapshot), diagnostics: snapshot.diagnostics, leftovers, steps });
    }
    Ok(Observation::Reloaded { cycles: observed })
}

fn under_profile(candidate: &CandidateFile<'_>, profile: &str, steps: &[Probe], setup: &Setup<'_>) -> Result<Observation, EngineError> {
    let full_options = EngineOptions { profile: "engine".to_owned(), ..setup.options.clone() };
    let (mut full_engine, full_loaded) = loaded(candidate, setup, full_options)?;
    let full = registrations(&full_engine.snapshot()?);
    drop(full_engine);
    let profile_options = EngineOptions { profile: profile.to_owned(), ..setup.options.clone() };
    let (mut engine, loaded) = loaded(candidate, setup, profile_options)?;
    let capabilities = engine.capabilities()?;
    let steps = run_steps(&mut engine, steps)?;
    let snapshot = engine.snapshot()?;
    engine.dispose()?;
    let report = ProfileReport {
        capabilities,
        loaded,
        registrations: registrations(&snapshot),
        full,
        full_loaded,
        diagnostics: snapshot.diagnostics,
        steps,
    };
    Ok(Observation::ProfileRan { report: Box::new(report) })
}

fn repeat(candidate: &CandidateFile<'_>, probes: Vec<Probe>, vary: &[String], setup: &Setup<'_>) -> Result<Observation, EngineError> {
    let varies = |what: &str| vary.iter().any(|v| v == what);
    let (mut engine, _) = loaded(candidate, setup, setup.options.clone())?;
    let first = run_steps(&mut engine, &probes)?;
    engine.dispose()?;
    drop(engine);
    let second_options = EngineOptions {
        // Another seed from the start, so every generation of the engine draws other numbers.
        seed: if varies("seed") { setup.options.seed ^ 0x9e37_79b9 } else { setup.options.seed },
        ..setup.options.clone()
    };
    let mut engine = setup.engine(second_options)?;
    if varies("reuse") {
        // A used engine: the candidate ran in an earlier generation, its globals remain.
        load(&mut engine, candidate)?;
        run_steps(&mut engine, &probes)?;
        engine.dispose()?;
        if !varies("seed") {
            // Reuse alone: the second generation starts from the first one's seed, as a fresh engine does.
            engine.control(None, Some(setup.options.seed), None)?;
        }
    }
    if varies("clock") {
        engine.control(Some(CLOCK_SHIFT_MS), None, None)?;
    }
    load(&mut engine, candidate)?;
    let second = run_steps(&mut engine, &probes)?;
    engine.dispose()?;
    let report = RepeatReport { probes, varied: vary.to_vec(), first, second };
    Ok(Observation::Repeated { report: Box::new(report) })
}

fn conversations_run(candidate: &CandidateFile<'_>, plans: &[ConversationPlan], setup: &Setup<'_>) -> Result<Observation, EngineError> {
    let mut solo = Vec::new();
    for plan in plans {
        let (mut engine, _) = loaded(candidate, setup, setup.options.clone())?;
        engine.control(None, None, Some(&plan.conversation))?;
        let observations = run_steps(&mut engine, &plan.steps)?;
        engine.dispose()?;
        solo.push(ConversationRun { conversation: plan.conversation.clone(), observations });
    }
    let (mut engine, _) = loaded(candidate, setup, setup.options.clone())?;
    let mut interleaved: Vec<ConversationRun> =
        plans.iter().map(|plan| ConversationRun { conversation: plan.conversation.clone(), observations: Vec::new() }).collect();
    let longest = plans.iter().map(|plan| plan.steps.len()).max().unwrap_or(0);
    for step in 0..longest {
        for (plan, run) in plans.iter().zip(interleaved.iter_mut()) {
            if let Some(probe) = plan.steps.get(step) {
                // Tool and command runs take their conversation from ctx.sessionId.
                engine.control(None, None, Some(&plan.conversation))?;
                run.observations.push(observe(&mut engine, probe, None)?);
            }
        }
    }
    engine.dispose()?;
    Ok(Observation::ConversationsRan { report: Box::new(ConversationsReport { solo, interleaved }) })
}

/// The names in a registry snapshot, in the lifecycle checks' shape.
pub(crate) fn registrations(snapshot: &RegistrySnapshot) -> Registrations {
    let names = |values: &[serde_json::Value], key: &str| {
        let mut names: Vec<String> = values.iter().filter_map(|value| value.get(key).and_then(|v| v.as_str()).map(str::to_owned)).collect();
        names.sort();
        names
    };
    let mut tools: Vec<String> = snapshot.tools.iter().map(|tool| tool.name.clone()).collect();
    tools.sort();
    let mut commands: Vec<String> = snapshot.commands.iter().map(|command| command.id.clone()).collect();
    commands.sort();
    Registrations {
        events: snapshot.events.iter().filter(|(_, n)| **n > 0).map(|(name, n)| (name.clone(), *n)).collect(),
        tools,
        commands,
        permissions: names(&snapshot.permissions, "id"),
        providers: names(&snapshot.providers, "name"),
        panels: names(&snapshot.panels, "id"),
    }
}
