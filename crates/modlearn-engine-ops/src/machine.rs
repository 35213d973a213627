//! The engine's way to its candidate's machine: the host's JavaScript hands over a packed
//! call (a header and its payload in one buffer) and gets a packed reply. What carries it
//! (a direct call, or the engine process's socket) is the engine's; this op only passes bytes,
//! so the engine process stays sealed: it opens no file and starts no program itself.

use std::rc::Rc;

use deno_core::{OpState, op2};

/// Carries a packed machine call and answers its packed reply.
pub trait MachineLink {
    /// One call, answered.
    fn call(&self, packed: &[u8]) -> Vec<u8>;
}

/// The link an engine's ops use, kept in its `OpState`.
#[derive(Clone)]
pub struct MachineSlot(pub Rc<dyn MachineLink>);

/// Passes one packed call to the engine's link; with none, an empty reply (the host reads it as
/// "no machine").
#[op2]
#[buffer]
pub(crate) fn op_machine_call(state: &mut OpState, #[buffer] packed: &[u8]) -> Vec<u8> {
    let link = state.try_borrow::<MachineSlot>().cloned();
    match link {
        Some(MachineSlot(link)) => link.call(packed),
        None => Vec::new(),
    }
}
