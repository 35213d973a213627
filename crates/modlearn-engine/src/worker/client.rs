//! modlearn's side of an engine process: spawning it through the zygote,
//! sending requests, and the wall-clock deadline that backs the engine's own
//! CPU-time budget. A process that misses its deadline is killed; one that
//! dies on its own is reported by the signal that ended it. Either way the
//! engine is gone, and every later request says why.

use std::collections::{HashMap, HashSet};
use std::io::{BufReader, BufWriter, ErrorKind, Write};
use std::os::fd::OwnedFd;
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Condvar, Mutex, mpsc};
use std::time::Duration;

use serde_json::Value;

use crate::engine::{EngineError, EngineOptions, StopFault};
use crate::protocol::{HostMethod, Operation};
use crate::worker::channel::{read_frame, receive_packet, send_packet, socket_pair, write_frame};
use crate::worker::messages::{ControlReply, ControlRequest, EngineReply, EngineRequest};
use crate::worker::{Isolation, ZYGOTE_ARGUMENT};

/// Wall time a step may take beyond three times its CPU budget before the
/// process is killed: room for a loaded machine (the budget is CPU time),
/// little enough to end a hang soon.
const WALL_MARGIN: Duration = Duration::from_millis(500);

/// How long spawning an engine may take (it is a fork; this is for a zygote that hangs).
const SPAWN_DEADLINE: Duration = Duration::from_secs(20);

/// How long to wait for the zygote's report of how a dead engine ended.
const EXIT_REPORT_DEADLINE: Duration = Duration::from_secs(5);

/// How ended engines ended: (exit code, signal) by pid, and the pids of
/// engines dropped while alive, whose reports nobody will ask for.
#[derive(Default)]
struct ExitBook {
    reports: HashMap<i32, (Option<i32>, Option<i32>)>,
    discard: HashSet<i32>,
}

type Exits = Arc<(Mutex<ExitBook>, Condvar)>;

/// One zygote process and what it reported.
struct Zygote {
    control: Arc<OwnedFd>,
    /// Spawn requests and their replies, one at a time.
    spawn: Mutex<mpsc::Receiver<ControlReply>>,
    exits: Exits,
    process_id: u32,
    _process: Mutex<Child>,
}

static ZYGOTES: Mutex<Vec<(usize, Arc<Zygote>)>> = Mutex::new(Vec::new());

impl Zygote {
    fn start(isolation: &Isolation, memory_limit: usize) -> Result<Zygote, EngineError> {
        let startup = |error: std::io::Error| EngineError::Startup(format!("could not start the engine zygote: {error}"));
        let (ours, theirs) = socket_pair(libc::SOCK_SEQPACKET).map_err(startup)?;
        let mut command = Command::new(&isolation.executable);
        command
            .arg(ZYGOTE_ARGUMENT)
            .arg(memory_limit.to_string())
            // Nothing of modlearn's environment (API keys) reaches the engines.
            .env_clear()
            .env("V82JSC_NO_BC_CACHE", "1")
            .stdin(Stdio::from(theirs))
            .stdout(Stdio::null());
        if let Some(value) = std::env::var_os("MODLEARN_WORKER_STDERR") {
            command.env("MODLEARN_WORKER_STDERR", value);
        } else {
            command.stderr(Stdio::null());
        }
        let process = command.spawn().map_err(startup)?;
        let control = Arc::new(ours);
        let exits: Exits = Arc::new((Mutex::new(ExitBook::default()), Condvar::new()));
        let (replies, spawn) = mpsc::channel();
        let reader_control = Arc::clone(&control);
        let reader_exits = Arc::clone(&exits);
        std::thread::Builder::new()
            .name("modlearn-zygote-reader".into())
            .spawn(move || read_control(&reader_control, &reader_exits, &replies))
            .map_err(startup)?;
        let process_id = process.id();
        Ok(Zygote { control, spawn: Mutex::new(spawn), exits, process_id, _process: Mutex::new(process) })
    }

    /// Forks an engine; returns its pid and modlearn's end of its socket.
    fn spawn(&self, options: &EngineOptions) -> Result<(i32, OwnedFd), EngineError> {
        let startup = |message: String| EngineError::Startup(format!("could not start an engine process: {message}"));
        let (ours, theirs) = socket_pair(libc::SOCK_STREAM).map_err(|error| startup(error.to_string()))?;
        let replies = self.spawn.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        use std::os::fd::AsRawFd;
        send_packet(&*self.control, &ControlRequest::Spawn { options: options.clone() }, Some(theirs.as_raw_fd()))
            .map_err(|error| startup(format!("the zygote is gone ({error})")))?;
        drop(theirs);
        match replies.recv_timeout(SPAWN_DEADLINE) {
            Ok(ControlReply::Spawned { pid }) => Ok((pid, ours)),
            Ok(ControlReply::SpawnFailed { message }) => Err(startup(message)),
            Ok(ControlReply::Exited { .. }) => Err(startup("unexpected reply".to_owned())),
            Err(_) => Err(startup("the zygote did not answer".to_owned())),
        }
    }

    fn kill(&self, pid: i32) {
        let _ = send_packet(&*self.control, &ControlRequest::Kill { pid }, None);
    }

    /// How engine `pid` ended: (exit code, signal), once the zygote reaped it.
    fn exit_of(&self, pid: i32) -> Option<(Option<i32>, Option<i32>)> {
        let (book, changed) = &*self.exits;
        let book = book.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let (mut book, _) = changed
            .wait_timeout_while(book, EXIT_REPORT_DEADLINE, |book| !book.reports.contains_key(&pid))
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        book.reports.remove(&pid)
    }

    /// Kills an engine nobody needs any more and drops its exit report, now or when it comes.
    fn discard(&self, pid: i32) {
        self.kill(pid);
        let (book, _) = &*self.exits;
        let mut book = book.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if book.reports.remove(&pid).is_none() {
            book.discard.insert(pid);
        }
    }
}

fn read_control(control: &OwnedFd, exits: &Exits, replies: &mpsc::Sender<ControlReply>) {
    while let Ok(Some((reply, _))) = receive_packet::<ControlReply>(control) {
        match reply {
            ControlReply::Exited { pid, code, signal } => {
                let (book, changed) = &**exits;
                let mut book = book.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                if !book.discard.remove(&pid) {
                    book.reports.insert(pid, (code, signal));
                }
                changed.notify_all();
            }
            other => {
                if replies.send(other).is_err() {
                    return;
                }
            }
        }
    }
}

/// The zygote for engines with this heap cap (the cap is fixed when a runtime boots).
fn zygote_for(isolation: &Isolation, memory_limit: usize) -> Result<Arc<Zygote>, EngineError> {
    let mut zygotes = ZYGOTES.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, zygote)) = zygotes.iter().find(|(limit, _)| *limit == memory_limit) {
        return Ok(Arc::clone(zygote));
    }
    let zygote = Arc::new(Zygote::start(isolation, memory_limit)?);
    zygotes.push((memory_limit, Arc::clone(&zygote)));
    Ok(zygote)
}

/// The process ids of the zygotes running now.
pub(crate) fn zygote_process_ids() -> Vec<u32> {
    let zygotes = ZYGOTES.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    zygotes.iter().map(|(_, zygote)| zygote.process_id).collect()
}

fn forget_zygote(zygote: &Arc<Zygote>) {
    let mut zygotes = ZYGOTES.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    zygotes.retain(|(_, other)| !Arc::ptr_eq(other, zygote));
}

/// An engine in a worker process.
pub(crate) struct WorkerEngine {
    zygote: Arc<Zygote>,
    pid: i32,
    reader: BufReader<UnixStream>,
    writer: BufWriter<UnixStream>,
    wall_deadline: Duration,
    /// Set once the process is gone: every later request fails with it.
    gone: Option<EngineError>,
}

impl WorkerEngine {
    pub(crate) fn spawn(isolation: &Isolation, options: &EngineOptions) -> Result<WorkerEngine, EngineError> {
        let zygote = zygote_for(isolation, options.memory_limit)?;
        let (pid, socket) = match zygote.spawn(options) {
            Ok(spawned) => spawned,
            Err(error) => {
                // A broken zygote is replaced on the next attempt.
                forget_zygote(&zygote);
                return Err(error);
            }
        };
        let stream = UnixStream::from(socket);
        let writer = stream.try_clone().map_err(|error| EngineError::Startup(error.to_string()))?;
        let wall_deadline = options.step_timeout.saturating_mul(3).saturating_add(WALL_MARGIN);
        let mut engine = WorkerEngine {
            zygote,
            pid,
            reader: BufReader::new(stream),
            writer: BufWriter::new(writer),
            wall_deadline,
            gone: None,
        };
        engine.reader.get_ref().set_read_timeout(Some(SPAWN_DEADLINE)).map_err(|e| EngineError::Startup(e.to_string()))?;
        match read_frame::<EngineReply>(&mut engine.reader) {
            Ok(Some(EngineReply::Ready(Ok(())))) => Ok(engine),
            Ok(Some(EngineReply::Ready(Err(error)))) => Err(error),
            _ => Err(engine.ended("activate", false)),
        }
    }

    pub(crate) fn process_id(&self) -> u32 {
        self.pid as u32
    }

    pub(crate) fn load(&mut self, path: &Path, source: &str) -> Result<String, EngineError> {
        let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        self.request(&EngineRequest::Load { path, source: source.to_owned() }, "activate")
    }

    pub(crate) fn operate(&mut self, operation: Operation) -> Result<String, EngineError> {
        let phase = operation.phase();
        self.request(&EngineRequest::Operate(operation), phase)
    }

    pub(crate) fn call(&mut self, method: HostMethod, args: Value) -> Result<String, EngineError> {
        self.request(&EngineRequest::Call { method, args }, "timer")
    }

    fn request(&mut self, request: &EngineRequest, phase: &str) -> Result<String, EngineError> {
        if let Some(gone) = &self.gone {
            return Err(gone.clone());
        }
        if write_frame(&mut self.writer, request).and_then(|()| self.writer.flush()).is_err() {
            return Err(self.ended(phase, false));
        }
        let _ = self.reader.get_ref().set_read_timeout(Some(self.wall_deadline));
        loop {
            match read_frame::<EngineReply>(&mut self.reader) {
                Ok(Some(EngineReply::Step { .. })) => continue,
                Ok(Some(EngineReply::Done(result))) => return result,
                Ok(Some(EngineReply::Ready(_))) => return Err(self.ended(phase, false)),
                Err(error) if matches!(error.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                    self.zygote.kill(self.pid);
                    return Err(self.ended(phase, true));
                }
                Ok(None) | Err(_) => return Err(self.ended(phase, false)),
            }
        }
    }

    /// The process is gone (or made so): why, as the error every later request gets.
    fn ended(&mut self, phase: &str, killed_for_time: bool) -> EngineError {
        let exit = self.zygote.exit_of(self.pid);
        let deadline = self.wall_deadline.as_millis();
        let error = if killed_for_time {
            EngineError::Stopped {
                fault: StopFault::Timeout,
                phase: phase.to_owned(),
                message: format!(
                    "mod code in the {phase} phase did not finish within {deadline} ms of wall time; the engine process was killed"
                ),
            }
        } else {
            match exit {
                Some((_, Some(signal))) if signal == libc::SIGXCPU => EngineError::Stopped {
                    phase: phase.to_owned(),
                    fault: StopFault::Timeout,
                    message: format!("the engine process used up its CPU-time limit in the {phase} phase"),
                },
                // The kernel's out-of-memory killer sends SIGKILL; modlearn itself did not.
                Some((_, Some(signal))) if signal == libc::SIGKILL => EngineError::Stopped {
                    phase: phase.to_owned(),
                    fault: StopFault::OutOfMemory,
                    message: format!("the engine process was killed in the {phase} phase, most likely out of memory"),
                },
                Some((_, Some(signal))) => EngineError::Stopped {
                    phase: phase.to_owned(),
                    fault: StopFault::Crashed,
                    message: format!("the engine process crashed in the {phase} phase (signal {})", signal_name(signal)),
                },
                Some((Some(code), None)) => EngineError::Stopped {
                    phase: phase.to_owned(),
                    fault: StopFault::Crashed,
                    message: format!("the engine process exited in the {phase} phase (code {code})"),
                },
                _ => EngineError::Stopped {
                    phase: phase.to_owned(),
                    fault: StopFault::Crashed,
                    message: format!("the engine process stopped answering in the {phase} phase"),
                },
            }
        };
        self.gone = Some(error.clone());
        error
    }
}

impl Drop for WorkerEngine {
    fn drop(&mut self) {
        if self.gone.is_none() {
            // Closing the socket would end an idle engine; the kill also ends a busy one.
            self.zygote.discard(self.pid);
        }
    }
}

fn signal_name(signal: i32) -> String {
    let name = match signal {
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGILL => "SIGILL",
        libc::SIGFPE => "SIGFPE",
        libc::SIGSYS => "SIGSYS",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGXFSZ => "SIGXFSZ",
        _ => return signal.to_string(),
    };
    name.to_owned()
}
