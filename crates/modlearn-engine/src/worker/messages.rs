//! What modlearn and its worker processes say to each other.

use serde::{Deserialize, Serialize};

use crate::batch::Request;
use crate::engine::{EngineError, EngineOptions};

/// modlearn → zygote, one packet each.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) enum ControlRequest {
    /// Fork an engine; its end of the engine socket rides along. The engine seals itself
    /// and waits for its settings ([`EngineRequest::Configure`]): forked ahead of need, a
    /// spare is ready the moment a candidate asks for one.
    Spawn,
    /// Kill an engine that is still running (the zygote knows it has not been reaped).
    Kill {
        /// The engine's process id.
        pid: i32,
    },
}

/// zygote → modlearn, one packet each.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) enum ControlReply {
    /// The engine process exists.
    Spawned {
        /// Its process id.
        pid: i32,
    },
    /// `fork` failed.
    SpawnFailed {
        /// Why.
        message: String,
    },
    /// An engine process ended.
    Exited {
        /// Its process id.
        pid: i32,
        /// Exit code, when it exited.
        code: Option<i32>,
        /// The signal that ended it, when one did.
        signal: Option<i32>,
    },
}

/// modlearn → engine process, one frame each.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) enum EngineRequest {
    /// The engine's settings, the first frame and only then (the heap cap and dialect are the
    /// zygote's own); the engine answers [`EngineReply::Ready`].
    Configure(Box<EngineOptions>),
    /// Commands to run in order ([`crate::Batch`]): one [`EngineReply::Done`] each.
    Run(Vec<Request>),
    /// The answer to [`EngineReply::Machine`]: a packed machine reply, base64.
    MachineReply(String),
}

/// engine process → modlearn, one frame each.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) enum EngineReply {
    /// The engine is configured and sealed (or why it could not be).
    Ready(Result<(), EngineError>),
    /// A step of mod code of the running request starts: the wall-clock deadline starts again.
    Step {
        /// Its index in the operation.
        index: usize,
    },
    /// A request's result: the host's JSON reply.
    Done(Result<String, EngineError>),
    /// The running mod asks its machine (a packed call, base64); the engine waits for
    /// [`EngineRequest::MachineReply`].
    Machine(String),
}
