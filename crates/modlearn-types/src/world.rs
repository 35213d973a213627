//! What a mod did on its machine (files, commands) and asked of its platform (reads, the
//! environment, the network): the machine's record and the engine's log, read by the trace,
//! the reports and the `writes_file`, `keeps_files` and `runs_command` assertions.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One thing a mod asked of its platform, in order, at a virtual time (the engine's log, for
/// the reports; what changed on the machine is the machine's own record).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Effect {
    /// A file read (`readFile*`, the source of `copyFile`).
    FileRead(FileEffect),
    /// A directory listed.
    Readdir(FileEffect),
    /// A path checked (`stat`, `exists`).
    Stat(FileEffect),
    /// An `access` check.
    Access(FileEffect),
    /// An environment variable read (`*` for an enumeration of `process.env`).
    EnvRead {
        /// Virtual time.
        at: u64,
        /// The variable.
        name: String,
        /// Whether it was set.
        found: bool,
    },
    /// A network attempt (every one fails: the machine has no network).
    Network {
        /// Virtual time.
        at: u64,
        /// URL or host.
        target: String,
        /// The call (`fetch`, `http.request`, ...).
        via: String,
    },
}

/// A file system read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileEffect {
    /// Virtual time, ms since the epoch.
    pub at: u64,
    /// The path as the kernel got it (absolute).
    pub path: String,
    /// Whether the call succeeded.
    pub ok: bool,
    /// The error code when it did not (`ENOENT`, `EACCES`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// What a scenario's mod did on its machine and asked of its platform: the engine's part
/// (working directory, home, the log, what it left to run later) in its snapshot, and the
/// machine's record (commands, changes, files written) added by the exercise stage.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorldState {
    /// The working directory (what relative paths resolve against).
    #[serde(default)]
    pub cwd: String,
    /// The home directory (what `~` stands for).
    #[serde(default)]
    pub home: String,
    /// What the mod asked of its platform (capped; see `effects_dropped`).
    pub effects: Vec<Effect>,
    /// Effects past the cap, not kept.
    pub effects_dropped: usize,
    /// Every command started on the machine, with the programs that ran (capped; see
    /// `commands_dropped`).
    #[serde(default)]
    pub commands: Vec<MachineCommand>,
    /// Commands past the record's cap.
    #[serde(default)]
    pub commands_dropped: usize,
    /// What changed in the machine's files during the scenario.
    #[serde(default)]
    pub changes: Vec<FileChange>,
    /// Each file created or written during the scenario and still a file at its end, by
    /// absolute path (capped: 64 KiB of text each, 512 KiB and 200 files in all; see
    /// `written_files_dropped`).
    #[serde(default)]
    pub written_files: BTreeMap<String, WrittenFile>,
    /// Files written past the caps: counted, not kept.
    #[serde(default)]
    pub written_files_dropped: usize,
    /// Why the machine's record may not show everything the scenario did (its sandbox could
    /// not start or ended, its tree was too large to walk).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unseen: Option<String>,
    /// Timers still scheduled when the world was read (after dispose: timers the mod left).
    #[serde(default)]
    pub timers_pending: usize,
    /// Listeners on `process` and its streams (exit, signals, stdin data, uncaught errors),
    /// which run when the host process meets the event, after anything a scenario shows.
    #[serde(default)]
    pub process_listeners: usize,
    /// Files the mod watched in the scenario (`fs.watch`, `fs.watchFile`): the machine never
    /// calls a watcher back, so what its callback does is never seen.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub files_watched: usize,
    /// The events the host dispatched in the scenario, by name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dispatched: Vec<String>,
    /// What the mod registered that no scenario of the spec ran (the `turn_end` event, tool
    /// `x`, command `/y`, permission check `z`): code that ran nowhere, and will run in use
    /// (set once every scenario has run).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unexercised: Vec<String>,
    /// What happened on the same machine in the spec's other scenarios without a session
    /// (set once every scenario has run; a visible scenario is given only visible ones): the
    /// machine outlives each scenario, so what is forbidden `never` must not happen in any of
    /// them. Kept for the judge, not for reports.
    #[serde(skip)]
    pub elsewhere: Vec<std::sync::Arc<OtherScenario>>,
}

/// One scenario's record of a machine, as another scenario's `never`-style checks read it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OtherScenario {
    /// The scenario's name.
    pub scenario: String,
    /// See [`WorldState::commands`].
    pub commands: Vec<MachineCommand>,
    /// See [`WorldState::commands_dropped`].
    pub commands_dropped: usize,
    /// See [`WorldState::changes`].
    pub changes: Vec<FileChange>,
    /// See [`WorldState::unseen`].
    pub unseen: Option<String>,
}

impl WorldState {
    /// This world as `record`'s scenario left the machine, for the `never`-style checks: its
    /// commands, changes and gaps in place of this scenario's, with this scenario's place (cwd,
    /// home) and what its engine left to run later. The effects log, the written files and the
    /// dispatched events, which those checks do not read, are left out rather than copied.
    pub fn as_in(&self, record: &OtherScenario) -> WorldState {
        WorldState {
            cwd: self.cwd.clone(),
            home: self.home.clone(),
            commands: record.commands.clone(),
            commands_dropped: record.commands_dropped,
            changes: record.changes.clone(),
            unseen: record.unseen.clone(),
            timers_pending: self.timers_pending,
            process_listeners: self.process_listeners,
            files_watched: self.files_watched,
            unexercised: self.unexercised.clone(),
            ..WorldState::default()
        }
    }
}

/// A file as the mod left it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WrittenFile {
    /// Its size.
    pub bytes: u64,
    /// Its text (UTF-8, lossy), cut when `truncated`.
    pub text: String,
    /// Whether `text` is only the start of the file.
    #[serde(default)]
    pub truncated: bool,
}

/// What a scenario's mod did to its machine, in brief, for `report.json` and the human
/// reports: each list distinct, in first-seen order, and capped (see `cut`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorldSummary {
    /// Files written and still there at the end, with their size.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files_written: Vec<FileWritten>,
    /// Paths read (`file_read`, `readdir`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files_read: Vec<String>,
    /// Paths removed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files_deleted: Vec<String>,
    /// Commands run, with the call and the exit code.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<CommandEffect>,
    /// Environment variables read (`*`: all of them enumerated), with whether each was set.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub env_read: Vec<EnvRead>,
    /// Network attempts (all refused).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub network: Vec<NetworkAttempt>,
    /// Entries past the caps of the lists above, not listed.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cut: usize,
    /// Effects past the engine's log cap (and files past the snapshot's), never seen.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub dropped: usize,
}

fn is_zero(count: &usize) -> bool {
    *count == 0
}

/// A file written, as the scenario left it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileWritten {
    /// Absolute path on the machine.
    pub path: String,
    /// Its size at the end.
    pub bytes: u64,
}

/// A command run on the machine, in brief.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CommandEffect {
    /// The command line.
    pub command: String,
    /// The call (`execSync`, `spawn`, the Bash tool, ...).
    pub via: String,
    /// The exit code, when it exited (not when a signal ended it or it could not start).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
}

/// An environment variable read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnvRead {
    /// The variable (`*` for an enumeration).
    pub name: String,
    /// Whether it was set.
    pub found: bool,
}

/// A network attempt.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NetworkAttempt {
    /// URL or host.
    pub target: String,
    /// The call (`fetch`, `http.request`, ...).
    pub via: String,
}

impl WorldSummary {
    /// Whether the mod did nothing to the world.
    pub fn is_empty(&self) -> bool {
        *self == WorldSummary::default()
    }
}

/// A program that ran on the candidate's machine, as the exec trace saw it when the kernel
/// started it (before it ran any code of its own).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProgramRun {
    /// The file the kernel ran, inside the machine (`/usr/bin/git`; a script's interpreter).
    pub path: String,
    /// Its arguments as the kernel handed them over, `argv[0]` included (for a script: the
    /// interpreter, the script's path, then the arguments).
    pub argv: Vec<String>,
    /// For one of the environment's scripted programs: its name (the script's own file name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scripted: Option<String>,
    /// Where the file it ran from came from: the machine's own programs, or not.
    #[serde(default, skip_serializing_if = "ProgramOrigin::is_system")]
    pub origin: ProgramOrigin,
    /// Variables it started with that can make it run what its words do not say (git
    /// configuration, and so aliases, given in the environment).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub steering: Vec<String>,
    /// The arguments were longer than the record keeps, so they are cut.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cut: bool,
}

/// Where the file a program ran from came from. The machine's own programs sit on its read-only
/// system; a file a scenario made is named by what it is, never by the name it was given.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum ProgramOrigin {
    /// One of the machine's own programs.
    #[default]
    System,
    /// A file the scenario made (a copy on disk, or one held only in memory) holding exactly the bytes of
    /// the machine's own `program`: it is that program, whatever it was called.
    CopyOf {
        /// The machine's program it is (`/usr/bin/git`).
        program: String,
    },
    /// A file the scenario made that is none of the machine's programs (or one the record
    /// could not read): what it is cannot be named.
    Made,
}

impl ProgramOrigin {
    /// Whether it is one of the machine's own programs.
    pub fn is_system(&self) -> bool {
        *self == ProgramOrigin::System
    }
}

/// A command started on the candidate's machine (by the mod, or by the session's Bash tool),
/// with every program that ran for it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MachineCommand {
    /// Virtual time it started, ms since the epoch.
    pub at: u64,
    /// The command as its caller wrote it (a shell line, or the argv quoted).
    pub line: String,
    /// How it was started (`execSync`, `spawn`, `Bun.spawn`, `Bash tool`, ...).
    pub via: String,
    /// Exit code, when it exited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    /// The signal that ended it, when one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signal: Option<String>,
    /// The programs that ran, in the order they started.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub programs: Vec<ProgramRun>,
    /// Why the trace may not show everything the command did (killed at its deadline,
    /// processes it left running, programs past the record's cap, the sandbox gone).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub incomplete: Option<String>,
}

/// What a path on the machine is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EntryKind {
    /// A regular file.
    File,
    /// A directory.
    Dir,
    /// A symbolic link.
    Symlink,
    /// A FIFO, socket or device.
    Other,
}

/// One change to the machine's files during a scenario, read from its tree before and after
/// (by inode, so a rename is seen as one, through whatever link or program made it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "change", rename_all = "snake_case")]
pub enum FileChange {
    /// A path that did not exist now does.
    Created {
        /// The path.
        path: String,
        /// What it is.
        entry: EntryKind,
    },
    /// A file's content or metadata changed in place, or another file was renamed over it.
    Written {
        /// The path.
        path: String,
    },
    /// A path that existed is gone (or is now something of another kind).
    Deleted {
        /// The path.
        path: String,
        /// What it was.
        entry: EntryKind,
    },
    /// What was at `from` is now at `to` (a rename; a hard link whose first name is gone).
    Renamed {
        /// Where it was.
        from: String,
        /// Where it is.
        to: String,
        /// What it is.
        entry: EntryKind,
    },
    /// A path's permission bits changed.
    ModeChanged {
        /// The path.
        path: String,
        /// The old bits.
        from: u32,
        /// The new bits.
        to: u32,
    },
}

impl FileChange {
    /// The path the change leaves (the target of a rename).
    pub fn path(&self) -> &str {
        match self {
            FileChange::Created { path, .. }
            | FileChange::Written { path }
            | FileChange::Deleted { path, .. }
            | FileChange::ModeChanged { path, .. } => path,
            FileChange::Renamed { to, .. } => to,
        }
    }
}

/// A path a spec names, as an absolute path on the machine: `~` is `home`, a relative path is
/// under `base`, and `.`/`..` are resolved (`..` stops at `/`).
pub fn machine_path(path: &str, home: &str, base: &str) -> String {
    let joined = if path == "~" || path.starts_with("~/") {
        format!("{home}/{}", &path[1..])
    } else if path.starts_with('/') {
        path.to_owned()
    } else {
        format!("{base}/{path}")
    };
    let mut parts: Vec<&str> = Vec::new();
    for part in joined.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            part => parts.push(part),
        }
    }
    format!("/{}", parts.join("/"))
}
