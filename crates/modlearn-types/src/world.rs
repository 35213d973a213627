//! What a mod did to its engine's virtual world (files, commands, environment, network):
//! recorded by the engine, read by the trace, the report and the `writes_file` and
//! `runs_command` assertions.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One thing a mod did to the virtual world, in order, at a virtual time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Effect {
    /// A file read (`readFile*`, the source of `copyFile`).
    FileRead(FileEffect),
    /// A file written or created.
    FileWrite(FileEffect),
    /// A file appended to.
    FileAppend(FileEffect),
    /// A file or tree removed.
    FileDelete(FileEffect),
    /// A directory created.
    Mkdir(FileEffect),
    /// A directory listed.
    Readdir(FileEffect),
    /// A path checked (`stat`, `exists`).
    Stat(FileEffect),
    /// An `access` check.
    Access(FileEffect),
    /// A rename; `path` is `from -> to`.
    Rename(FileEffect),
    /// A command run through `node:child_process` (answered by the simulator; nothing ran).
    Command {
        /// Virtual time, ms since the epoch.
        at: u64,
        /// The command line.
        command: String,
        /// The call that ran it (`exec`, `execSync`, `spawn`, ...).
        via: String,
        /// The simulated exit code.
        #[serde(rename = "exitCode")]
        exit_code: i32,
    },
    /// An environment variable read (`*` for an enumeration of `process.env`).
    EnvRead {
        /// Virtual time.
        at: u64,
        /// The variable.
        name: String,
        /// Whether it was set.
        found: bool,
    },
    /// A network attempt (every one fails: the sandbox has no network).
    Network {
        /// Virtual time.
        at: u64,
        /// URL or host.
        target: String,
        /// The call (`fetch`, `http.request`, ...).
        via: String,
    },
}

/// A filesystem effect.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileEffect {
    /// Virtual time, ms since the epoch.
    pub at: u64,
    /// The absolute virtual path.
    pub path: String,
    /// Whether the call succeeded.
    pub ok: bool,
    /// The error code when it did not (`ENOENT`, `EACCES`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// The virtual world as an engine reports it in its snapshot.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorldState {
    /// Every effect so far (capped; see `effects_dropped`).
    pub effects: Vec<Effect>,
    /// Effects past the cap, not kept.
    pub effects_dropped: usize,
    /// Text of each file written since the world was seeded, by absolute path (each capped at 64 KiB).
    pub written_files: BTreeMap<String, String>,
}
