//! One probe as engine requests and back: [`queue`] puts what a probe asks of the engine
//! into a batch, [`read`] turns the replies into its observation. A scenario's probes go to
//! the engine in one batch; [`observe`] runs a single probe on its own.

use modlearn_engine::{Batch, EmitOutcome, Engine, EngineError, Replies, Ticket};
use modlearn_types::{CommandRun, Observation, PermissionCheck, Probe, RegistrySnapshot, ToolRun};

/// A probe queued in a batch: the ticket of its reply, or what it observes without one.
pub(crate) enum Pending {
    /// Runs in engines of its own, after the batch.
    Lifecycle,
    /// Filled in once every other probe ran, with the registry after dispose.
    AtEnd,
    /// The registry right after the load.
    AtLoad,
    Snapshot(Ticket<RegistrySnapshot>),
    Emit(Ticket<EmitOutcome>),
    Tool(Ticket<ToolRun>),
    Permission(Ticket<PermissionCheck>),
    Command(Ticket<CommandRun>),
}

/// Queues what `probe` asks of the engine.
pub(crate) fn queue(batch: &mut Batch, probe: &Probe) -> Pending {
    match probe {
        Probe::Snapshot => Pending::Snapshot(batch.snapshot()),
        Probe::LoadSnapshot => Pending::AtLoad,
        Probe::EndSnapshot => Pending::AtEnd,
        Probe::Emit { event, payload, compare } => Pending::Emit(batch.emit_compared(event, payload, compare.as_ref())),
        Probe::RunTool { tool_name, args, tool_call_id } => Pending::Tool(batch.run_tool(tool_name, args, tool_call_id)),
        Probe::CheckPermissions { event } => Pending::Permission(batch.check_permissions(event)),
        Probe::RunCommand { command, args } => Pending::Command(batch.run_command(command, args)),
        Probe::Dispose { .. } | Probe::Reload { .. } | Probe::UnderProfile { .. } | Probe::Repeat { .. } | Probe::Conversations { .. } => {
            Pending::Lifecycle
        }
    }
}

/// The observation of a queued probe that needs no engine of its own; `at_load` is the
/// registry right after the load.
pub(crate) fn read(
    probe: &Probe,
    pending: Pending,
    replies: &mut Replies,
    at_load: Option<&RegistrySnapshot>,
) -> Result<Observation, EngineError> {
    Ok(match pending {
        Pending::Snapshot(ticket) => Observation::Snapshot { snapshot: replies.take(ticket)? },
        Pending::AtLoad => match at_load {
            Some(snapshot) => Observation::Snapshot { snapshot: snapshot.clone() },
            None => return Err(EngineError::Host("the registry at load was not taken".to_owned())),
        },
        Pending::Emit(ticket) => match replies.take(ticket)? {
            EmitOutcome::Emitted { emission, event, compared } => {
                let Probe::Emit { payload, .. } = probe else { unreachable!("an emit ticket belongs to an emit probe") };
                Observation::Emitted { before: payload.clone(), after: event, emission, compared }
            }
            EmitOutcome::Rejected { message } => Observation::Rejected { message },
        },
        Pending::Tool(ticket) => Observation::ToolRan { run: replies.take(ticket)? },
        Pending::Permission(ticket) => Observation::PermissionChecked { check: replies.take(ticket)? },
        Pending::Command(ticket) => Observation::CommandRan { run: replies.take(ticket)? },
        Pending::Lifecycle | Pending::AtEnd => {
            Observation::EngineFailure { message: format!("a lifecycle probe cannot run inside another one: {probe:?}") }
        }
    })
}

/// Runs one probe; `at_load` is the registry right after the load (taken now when absent).
pub(crate) fn observe(engine: &mut Engine, probe: &Probe, at_load: Option<&RegistrySnapshot>) -> Result<Observation, EngineError> {
    let mut batch = Batch::new();
    let pending = match (probe, at_load) {
        // Outside a scenario's batch, the end is now.
        (Probe::EndSnapshot, _) | (Probe::LoadSnapshot, None) => Pending::Snapshot(batch.snapshot()),
        _ => queue(&mut batch, probe),
    };
    let mut replies = engine.run(batch);
    read(probe, pending, &mut replies, at_load)
}
