//! How an engine's mod reaches its candidate's machine ([`modlearn_machine::Machine`]): the
//! `op_machine_call` op hands over packed calls; this link gives each command the running
//! step's deadline and carries the call over the engine's transport (a direct call in this
//! process, or the engine process's socket to modlearn).

use std::rc::Rc;
use std::time::Instant;

use modlearn_engine_ops::{MachineLink, MachineSlot};
use modlearn_machine::protocol::{Call, MachineReply, MachineRequest, pack, unpack};

use crate::watchdog::MachineBudget;

/// Why a mod's file system call or command fails in an engine made without a machine.
pub(crate) const NO_MACHINE: &str = "this engine was started without a machine, so the mod's files and commands are not available";

/// A transport to no machine.
pub(crate) fn no_machine() -> Transport {
    Box::new(|_: &[u8]| pack(&MachineReply::Unavailable { reason: NO_MACHINE.to_owned() }, &[]))
}

/// Carries a packed call to the machine and brings its packed reply back.
pub(crate) type Transport = Box<dyn Fn(&[u8]) -> Vec<u8>>;

struct StepLink {
    transport: Transport,
    budget: MachineBudget,
}

impl MachineLink for StepLink {
    fn call(&self, packed: &[u8]) -> Vec<u8> {
        let Ok((mut call, payload)) = unpack::<Call>(packed) else { return (self.transport)(packed) };
        let MachineRequest::Run(run) = &mut call.request else { return (self.transport)(packed) };
        let left = self.budget.left();
        if left.is_zero() {
            self.budget.expire();
            return pack(&MachineReply::Unavailable { reason: "the step's time is used up".to_owned() }, &[]);
        }
        run.deadline_ms = left.as_millis().max(1) as u64;
        let started = Instant::now();
        let reply = (self.transport)(&pack(&call, payload));
        self.budget.spend(started.elapsed());
        let timed_out = matches!(unpack::<MachineReply>(&reply), Ok((MachineReply::Ran(outcome), _)) if outcome.timed_out);
        if timed_out {
            // The command ran out the step's time: the step ends as out of time.
            self.budget.expire();
        }
        reply
    }
}

/// The `OpState` slot for a machine reached over `transport`.
pub(crate) fn slot(transport: Transport, budget: MachineBudget) -> MachineSlot {
    MachineSlot(Rc::new(StepLink { transport, budget }))
}
