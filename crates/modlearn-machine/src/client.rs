//! modlearn's side of a machine: the sandbox started on first use, the calls of the mod and of
//! the session's tools passed to it, and the record the judge reads for each scenario (every
//! command with the programs that ran, and the tree's changes). The record comes from the helper
//! and the kernel, never from the engine: a mod cannot write what the judge reads of it.

use std::collections::BTreeMap;
use std::io::{BufReader, BufWriter, Read};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::net::UnixStream;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Stdio};
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::Duration;

use modlearn_types::{FileChange, MachineCommand, WrittenFile};

use crate::plan::MachinePlan;
use crate::protocol::{Call, MachineReply, MachineRequest, RunOutcome, pack, read_message, unpack, write_message};
use crate::sandbox::{self, EXECUTABLE_FD, SOCKET_FD, Scaffold};
use crate::tree::{TreeSnapshot, changes};
use crate::wire::{HelperReply, HelperRequest, Setup};

/// How long the sandbox may take to start and build its tree.
const START_DEADLINE: Duration = Duration::from_secs(30);
/// How long the helper may take to answer past a command's own deadline (the command is killed
/// at it; what is left is reaping and the reply).
const RUN_GRACE: Duration = Duration::from_secs(10);
/// How long a file system call may take to be answered.
const CALL_DEADLINE: Duration = Duration::from_secs(10);
/// How long a walk of the tree, or a read of the files written, may take.
const WALK_DEADLINE: Duration = Duration::from_secs(60);
/// Commands one scenario's record keeps; the rest are counted.
const COMMANDS_LIMIT: usize = 1000;
/// How much of each file written the record keeps, and of all of them, and how many files.
const WRITTEN_TEXT_LIMIT: usize = 64 << 10;
const WRITTEN_TOTAL_LIMIT: usize = 512 << 10;
const WRITTEN_FILES_LIMIT: usize = 200;

/// The executable that serves as the sandbox's helper (it must call [`crate::serve_if_helper`]).
static HELPER: OnceLock<PathBuf> = OnceLock::new();

/// Makes `executable` the helper of every machine from now on (the `modlearn` binary passes
/// itself). Without one, machines are unavailable.
pub fn set_helper_executable(executable: PathBuf) {
    let _ = HELPER.set(executable);
}

/// What one scenario did to its machine, for the judge.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ScenarioRecord {
    /// Commands started, each with its programs.
    pub commands: Vec<MachineCommand>,
    /// Commands past the record's cap.
    pub commands_dropped: usize,
    /// What changed in the tree.
    pub changes: Vec<FileChange>,
    /// Files created or written and still regular files at the end, with their start.
    pub written_files: BTreeMap<String, WrittenFile>,
    /// Files past the caps, counted.
    pub written_files_dropped: usize,
    /// Why this record may not show all the scenario did (the tree's walk was cut, the sandbox
    /// ended early).
    pub unseen: Option<String>,
}

/// One candidate's machine.
pub struct Machine {
    plan: MachinePlan,
    epoch_ms: f64,
    inner: Mutex<Inner>,
}

struct Inner {
    state: State,
    /// The tree when the running scenario began (or when the sandbox started during it).
    start: Option<TreeSnapshot>,
    record: ScenarioRecord,
}

enum State {
    /// Not needed yet.
    Idle,
    Running(Box<Sandbox>),
    /// It could not start, or ended: no later call reaches a machine (its files went with it).
    Gone(String),
}

struct Sandbox {
    child: Child,
    reader: BufReader<UnixStream>,
    writer: BufWriter<UnixStream>,
    _scaffold: Scaffold,
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Machine {
    /// A machine that starts when first used. `epoch_ms` is the virtual clock's start.
    pub fn new(plan: MachinePlan, epoch_ms: f64) -> Machine {
        Machine { plan, epoch_ms, inner: Mutex::new(Inner { state: State::Idle, start: None, record: ScenarioRecord::default() }) }
    }

    /// What the machine was planned as.
    pub fn plan(&self) -> &MachinePlan {
        &self.plan
    }

    /// Carries out one call (a [`pack`]ed [`Call`]) and answers a packed [`MachineReply`]: the
    /// engine's way in, bytes both ways.
    pub fn call_packed(&self, packed: &[u8]) -> Vec<u8> {
        match unpack::<Call>(packed) {
            Ok((call, payload)) => {
                let (reply, payload) = self.call(&call, payload);
                pack(&reply, &payload)
            }
            Err(why) => pack(&MachineReply::Failed { code: "EINVAL".into(), syscall: why }, &[]),
        }
    }

    /// Carries out one call. Commands are recorded (with the programs they ran) for the judge.
    pub fn call(&self, call: &Call, payload: &[u8]) -> (MachineReply, Vec<u8>) {
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        if let Err(reason) = self.ensure_running(&mut inner) {
            return (MachineReply::Unavailable { reason }, Vec::new());
        }
        let mut call = call.clone();
        if let MachineRequest::Run(run) = &mut call.request {
            run.env.extend(clock_env(call.at));
        }
        let answer = inner.exchange(&HelperRequest::Call(call.clone()), payload);
        match (&call.request, answer) {
            (MachineRequest::Run(run), Ok((HelperReply::Reply(MachineReply::Ran(mut outcome)), output))) => {
                let programs = std::mem::take(&mut outcome.programs);
                let incomplete = outcome.incomplete.take();
                inner.note_command(MachineCommand {
                    at: call.at.max(0.0) as u64,
                    line: run.line.clone(),
                    via: run.via.clone(),
                    exit_code: outcome.exit_code,
                    signal: outcome.signal.clone(),
                    programs,
                    incomplete,
                });
                (MachineReply::Ran(outcome), output)
            }
            (_, Ok((HelperReply::Reply(reply), payload))) => (reply, payload),
            (request, failure) => {
                let why = match failure {
                    Err(why) => why,
                    Ok(_) => "the machine's helper answered out of turn".to_owned(),
                };
                inner.end(&why);
                if let MachineRequest::Run(run) = request {
                    inner.note_command(MachineCommand {
                        at: call.at.max(0.0) as u64,
                        line: run.line.clone(),
                        via: run.via.clone(),
                        incomplete: Some(why.clone()),
                        ..MachineCommand::default()
                    });
                    let outcome = RunOutcome { signal: Some("SIGKILL".into()), ..RunOutcome::default() };
                    return (MachineReply::Ran(Box::new(outcome)), Vec::new());
                }
                (MachineReply::Failed { code: "EIO".into(), syscall: why }, Vec::new())
            }
        }
    }

    /// Starts a scenario: writes `files` (absolute paths, the scenario's memory files) as the
    /// harness, not the mod, and takes the tree as the scenario's start. A machine nothing has
    /// needed yet stays idle.
    pub fn begin_scenario(&self, files: &[(String, String)]) {
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        inner.record = ScenarioRecord::default();
        inner.start = None;
        if files.is_empty() {
            if let State::Running(_) = inner.state {
                inner.start = inner.snapshot().ok();
            }
            return;
        }
        if self.ensure_running(&mut inner).is_err() {
            return;
        }
        for (path, text) in files {
            if let Some(parent) = std::path::Path::new(path).parent() {
                mkdir_all(&mut inner, &parent.to_string_lossy());
            }
            let request =
                MachineRequest::WriteFile { path: path.clone(), flags: libc::O_WRONLY | libc::O_CREAT | libc::O_TRUNC, mode: 0o644 };
            let _ = inner.exchange(&HelperRequest::Call(Call { at: self.epoch_ms, request }), text.as_bytes());
        }
        inner.start = inner.snapshot().ok();
    }

    /// Ends the scenario: what it did, from the tree's snapshot now against its start.
    pub fn end_scenario(&self) -> ScenarioRecord {
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        let mut record = std::mem::take(&mut inner.record);
        let Some(start) = inner.start.take() else { return record };
        let end = match inner.snapshot() {
            Ok(end) => end,
            Err(why) => {
                record.unseen.get_or_insert(why);
                return record;
            }
        };
        if start.cut || end.cut {
            record.unseen.get_or_insert(format!(
                "the machine holds more than {} paths, so changes past them cannot be seen",
                crate::tree::ENTRIES_LIMIT
            ));
        }
        if let Some(path) = start.unreadable.as_ref().or(end.unreadable.as_ref()) {
            record
                .unseen
                .get_or_insert(format!("{path} cannot be read (its mode shuts everyone out), so changes inside it cannot be seen"));
        }
        record.changes = changes(&start, &end);
        let kinds: BTreeMap<&str, modlearn_types::EntryKind> = end.entries.iter().map(|entry| (entry.path.as_str(), entry.kind)).collect();
        let mut written: Vec<String> = record
            .changes
            .iter()
            .filter(|change| matches!(change, FileChange::Created { .. } | FileChange::Written { .. } | FileChange::Renamed { .. }))
            .map(|change| change.path().to_owned())
            .filter(|path| kinds.get(path.as_str()) == Some(&modlearn_types::EntryKind::File))
            .collect();
        written.sort();
        written.dedup();
        record.written_files_dropped = written.len().saturating_sub(WRITTEN_FILES_LIMIT);
        written.truncate(WRITTEN_FILES_LIMIT);
        let request = HelperRequest::Read { paths: written.clone(), each: WRITTEN_TEXT_LIMIT, total: WRITTEN_TOTAL_LIMIT };
        if let Ok((HelperReply::Read { lengths, sizes }, bytes)) = inner.exchange(&request, &[]) {
            let mut offset = 0;
            for ((path, length), size) in written.into_iter().zip(lengths).zip(sizes) {
                let Some(length) = length else { continue };
                let text = String::from_utf8_lossy(&bytes[offset..offset + length]).into_owned();
                offset += length;
                record.written_files.insert(path, WrittenFile { bytes: size, text, truncated: (length as u64) < size });
            }
        }
        inner.start = Some(end);
        record
    }

    fn ensure_running(&self, inner: &mut Inner) -> Result<(), String> {
        match &inner.state {
            State::Running(_) => return Ok(()),
            State::Gone(why) => return Err(why.clone()),
            State::Idle => {}
        }
        match self.start() {
            Ok((sandbox, snapshot)) => {
                inner.state = State::Running(Box::new(sandbox));
                // Started within a scenario: what it did so far happened to this tree.
                inner.start = Some(snapshot);
                Ok(())
            }
            Err(why) => {
                inner.state = State::Gone(why.clone());
                Err(why)
            }
        }
    }

    fn start(&self) -> Result<(Sandbox, TreeSnapshot), String> {
        let helper = HELPER.get().ok_or_else(|| sandbox::how_to_enable("no helper executable was set up for this process"))?;
        let bwrap = sandbox::bubblewrap().ok_or_else(|| sandbox::how_to_enable("bubblewrap is not installed"))?;
        let scaffold = Scaffold::new(&self.plan).map_err(|error| format!("could not prepare the machine's files: {error}"))?;
        let executable = std::fs::File::open(helper).map_err(|error| format!("could not open {}: {error}", helper.display()))?;
        let (ours, theirs) = UnixStream::pair().map_err(|error| format!("could not make the machine's socket: {error}"))?;
        let mut command = sandbox::command(&bwrap, &scaffold, &self.plan.workspace.path);
        let (socket_fd, executable_fd) = (OwnedFd::from(theirs), OwnedFd::from(executable));
        let (socket_raw, executable_raw) = (socket_fd.as_raw_fd(), executable_fd.as_raw_fd());
        command.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::piped());
        let host_uid = sandbox::host_uid();
        if host_uid.is_some() {
            scaffold.lend().map_err(|error| format!("could not prepare the machine's files: {error}"))?;
        }
        // SAFETY: descriptor and credential calls only, in the child between fork and exec, on
        // descriptors open there.
        unsafe {
            command.pre_exec(move || {
                // Run as root, modlearn starts the sandbox as a user of its own, so the machine's
                // user owns nothing of the host's and the kernel's per-user limits apply to it.
                if let Some(uid) = host_uid
                    && (libc::setgroups(0, std::ptr::null()) != 0 || libc::setgid(uid) != 0 || libc::setuid(uid) != 0)
                {
                    return Err(std::io::Error::last_os_error());
                }
                // Both move above the targets first: one's number may be the other's target.
                let moved = [socket_raw, executable_raw].map(|fd| libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 16));
                for (from, to) in moved.into_iter().zip([SOCKET_FD, EXECUTABLE_FD]) {
                    if from < 0 || libc::dup2(from, to) < 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                }
                Ok(())
            });
        }
        let mut child = command.spawn().map_err(|error| sandbox::how_to_enable(&format!("bubblewrap did not start: {error}")))?;
        drop((socket_fd, executable_fd));
        let stderr = child.stderr.take();
        ours.set_read_timeout(Some(START_DEADLINE)).map_err(|error| error.to_string())?;
        let writer = ours.try_clone().map_err(|error| error.to_string())?;
        let mut sandbox = Sandbox { child, reader: BufReader::new(ours), writer: BufWriter::new(writer), _scaffold: scaffold };
        let setup = HelperRequest::Setup(Box::new(Setup { plan: self.plan.clone(), epoch_ms: self.epoch_ms }));
        let ready = write_message(&mut sandbox.writer, &setup, &[])
            .ok()
            .and_then(|()| read_message::<HelperReply>(&mut sandbox.reader).ok().flatten());
        match ready {
            Some((HelperReply::Ready(snapshot), _)) => {
                let _ = sandbox.reader.get_ref().set_read_timeout(None);
                // bubblewrap's own messages end here; nothing reads them later.
                drop(stderr);
                Ok((sandbox, snapshot))
            }
            Some((HelperReply::SetupFailed(why), _)) => Err(format!("the candidate's machine could not be built: {why}")),
            _ => {
                let _ = sandbox.child.kill();
                let mut detail = String::new();
                if let Some(stderr) = stderr {
                    let _ = stderr.take(4096).read_to_string(&mut detail);
                }
                Err(sandbox::how_to_enable(&detail))
            }
        }
    }
}

/// Makes a directory and its parents as the harness (failures show in the writes that follow).
fn mkdir_all(inner: &mut Inner, path: &str) {
    let mut built = String::new();
    for part in path.split('/').filter(|part| !part.is_empty()) {
        built.push('/');
        built.push_str(part);
        let request = MachineRequest::Mkdir { path: built.clone(), mode: 0o755 };
        let _ = inner.exchange(&HelperRequest::Call(Call { at: 0.0, request }), &[]);
    }
}

impl Inner {
    /// One request and its reply; an error ends the machine.
    fn exchange(&mut self, request: &HelperRequest, payload: &[u8]) -> Result<(HelperReply, Vec<u8>), String> {
        let State::Running(sandbox) = &mut self.state else {
            return Err(match &self.state {
                State::Gone(why) => why.clone(),
                _ => "the machine is not running".to_owned(),
            });
        };
        // Nothing the machine does may hold the run: a helper that does not answer in time is
        // taken for dead, and the machine with it.
        let deadline = match request {
            HelperRequest::Call(Call { request: MachineRequest::Run(run), .. }) => Duration::from_millis(run.deadline_ms) + RUN_GRACE,
            HelperRequest::Call(_) => CALL_DEADLINE,
            HelperRequest::Snapshot | HelperRequest::Read { .. } | HelperRequest::Setup(_) => WALK_DEADLINE,
        };
        let stream = sandbox.reader.get_ref();
        let timed = stream.set_read_timeout(Some(deadline)).and_then(|()| stream.set_write_timeout(Some(deadline)));
        let sent = timed.and_then(|()| write_message(&mut sandbox.writer, request, payload));
        match sent.and_then(|()| read_message::<HelperReply>(&mut sandbox.reader)) {
            Ok(Some(reply)) => Ok(reply),
            Err(error) if matches!(error.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {
                let why = format!("the machine stopped answering (nothing in {} s), so it was ended", deadline.as_secs());
                self.end(&why);
                Err(why)
            }
            Ok(None) | Err(_) => {
                let why = "the machine's sandbox ended while a request ran (a program it ran may have exhausted its limits)".to_owned();
                self.end(&why);
                Err(why)
            }
        }
    }

    fn snapshot(&mut self) -> Result<TreeSnapshot, String> {
        match self.exchange(&HelperRequest::Snapshot, &[])? {
            (HelperReply::Snapshot(snapshot), _) => Ok(snapshot),
            _ => Err("the machine's helper answered out of turn".to_owned()),
        }
    }

    fn end(&mut self, why: &str) {
        self.record.unseen.get_or_insert_with(|| why.to_owned());
        self.state = State::Gone(why.to_owned());
    }

    fn note_command(&mut self, command: MachineCommand) {
        if self.record.commands.len() < COMMANDS_LIMIT {
            self.record.commands.push(command);
        } else {
            self.record.commands_dropped += 1;
        }
    }
}

/// What fixes a command's clock at the virtual time `at_ms`: libfaketime for what asks the time,
/// and git's own dates.
fn clock_env(at_ms: f64) -> Vec<(String, String)> {
    let seconds = (at_ms / 1000.0).floor() as i64;
    let mut env =
        vec![("GIT_AUTHOR_DATE".to_owned(), format!("@{seconds} +0000")), ("GIT_COMMITTER_DATE".to_owned(), format!("@{seconds} +0000"))];
    if let Some(library) = faketime_library() {
        env.push(("LD_PRELOAD".to_owned(), library));
        env.push(("FAKETIME".to_owned(), format!("@{}", format_utc(seconds))));
        env.push(("FAKETIME_DONT_FAKE_MONOTONIC".to_owned(), "1".to_owned()));
        env.push(("FAKETIME_DONT_RESET".to_owned(), "1".to_owned()));
    }
    env
}

/// libfaketime, where Debian puts it.
fn faketime_library() -> Option<String> {
    static LIBRARY: OnceLock<Option<String>> = OnceLock::new();
    LIBRARY
        .get_or_init(|| {
            let dirs = std::fs::read_dir("/usr/lib").ok()?;
            dirs.filter_map(Result::ok)
                .map(|dir| dir.path().join("faketime/libfaketime.so.1"))
                .find(|path| path.is_file())
                .map(|path| path.to_string_lossy().into_owned())
        })
        .clone()
}

/// `YYYY-MM-DD hh:mm:ss` of a time in seconds since the epoch, UTC, as libfaketime reads it.
fn format_utc(seconds: i64) -> String {
    jiff::Timestamp::from_second(seconds).unwrap_or(jiff::Timestamp::UNIX_EPOCH).strftime("%Y-%m-%d %H:%M:%S").to_string()
}

#[cfg(test)]
mod tests {
    use super::format_utc;

    #[test]
    fn times_print_as_faketime_reads_them() {
        assert_eq!(format_utc(0), "1970-01-01 00:00:00");
        assert_eq!(format_utc(1_767_225_600), "2026-01-01 00:00:00");
        assert_eq!(format_utc(1_767_225_600 + 86_400 * 59 + 3_723), "2026-03-01 01:02:03");
    }
}
