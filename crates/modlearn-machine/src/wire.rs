//! What modlearn and the helper inside the sandbox say to each other, as messages of
//! [`crate::protocol`]'s framing.

use serde::{Deserialize, Serialize};

use crate::plan::{MachinePlan, USER_ID};
use crate::protocol::{Call, MachineReply};
use crate::tree::TreeSnapshot;

/// modlearn → helper.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) enum HelperRequest {
    /// The first message: build the machine's tree (the reply is [`HelperReply::Ready`]).
    Setup(Box<Setup>),
    /// A file system call or a command (with the payload).
    Call(Call),
    /// The writable tree as it stands.
    Snapshot,
    /// The start of each of `paths`' bytes, at most `each` per file and `total` in all.
    Read { paths: Vec<String>, each: usize, total: usize },
}

/// What the helper builds before anything runs.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Setup {
    pub(crate) plan: MachinePlan,
    /// The virtual clock's start, ms: the time of the workspace's commits and of every file made.
    pub(crate) epoch_ms: f64,
}

/// helper → modlearn.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) enum HelperReply {
    /// The tree is built; its snapshot.
    Ready(TreeSnapshot),
    /// The tree could not be built, and why.
    SetupFailed(String),
    /// A call's reply (with the payload).
    Reply(MachineReply),
    /// A snapshot.
    Snapshot(TreeSnapshot),
    /// The bytes read, each file's start in order (the payload holds them, `lengths` says where
    /// each ends); `None` for a path that was no regular file any more.
    Read { lengths: Vec<Option<usize>>, sizes: Vec<u64> },
}

/// The first argument that makes the binary the sandbox's helper.
pub(crate) const HELPER_ARGUMENT: &str = "__modlearn-machine";

/// The user's name in the machine.
pub(crate) const USER: &str = "user";

/// The uid the machine's user has (and the helper, which runs as the same user).
pub(crate) const UID: u32 = USER_ID;
