//! modlearn's side of an engine process: spawning it through the zygote,
//! sending requests, and the wall-clock deadline that backs the engine's own
//! CPU-time budget. A process that misses its deadline is killed; one that
//! dies on its own is reported by the signal that ended it. Either way the
//! engine is gone, and every later request says why.

use std::collections::{HashMap, HashSet, VecDeque};
use std::io::{BufReader, BufWriter, Write};
use std::os::fd::OwnedFd;
use std::os::unix::net::UnixStream;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Condvar, Mutex, mpsc};
use std::time::{Duration, Instant};

use modlearn_machine::Machine;
use modlearn_machine::protocol::{MachineReply, pack};

use crate::machine_link::NO_MACHINE;
use modlearn_types::Dialect;

use crate::batch::Request;
use crate::engine::{EngineError, EngineOptions, StopFault};
use crate::worker::channel::{read_frame, receive_packet, send_packet, socket_pair, write_frame};
use crate::worker::messages::{ControlReply, ControlRequest, EngineReply, EngineRequest};
use crate::worker::{Isolation, ProcessStat, ZYGOTE_ARGUMENT};

/// The most times one request may start its outer deadline again. An engine process says
/// a step starts at most once every 20 ms, so this is over twenty minutes of steps.
const MAX_FRESH_DEADLINES: usize = 1 << 16;

/// Which step frames of one request start the outer deadline again: only a later step's, and
/// only so many. A process that streamed them (it would take a compromised engine) would
/// otherwise keep a request from ever running out of time.
#[derive(Default)]
struct FreshDeadlines {
    last: Option<usize>,
    granted: usize,
}

impl FreshDeadlines {
    fn allow(&mut self, index: usize) -> bool {
        if self.last.is_some_and(|last| index <= last) || self.granted >= MAX_FRESH_DEADLINES {
            return false;
        }
        self.last = Some(index);
        self.granted += 1;
        true
    }
}

/// How often a running step is looked at from outside.
const WATCH_INTERVAL: Duration = Duration::from_millis(50);

/// When a step is stopped from outside. The engine's own watchdog stops
/// mod code at its CPU budget; these catch what it cannot stop, and they
/// measure the process's CPU time and state, not the wall clock alone, so
/// that a loaded machine never turns a finite step into a timeout.
#[derive(Clone, Copy, Debug)]
struct OuterLimits {
    /// CPU time past which a step is spinning in code that ignores termination.
    cpu: Duration,
    /// Wall time after which a process that is not running (waiting on
    /// nothing that can ever come) is blocked for good.
    blocked_after: Duration,
    /// Wall time after which a step ends whatever the process is doing.
    hard_wall: Duration,
}

impl OuterLimits {
    fn for_budget(budget: Duration) -> OuterLimits {
        OuterLimits {
            cpu: budget.saturating_mul(3) / 2 + Duration::from_millis(250),
            blocked_after: budget + Duration::from_millis(500),
            hard_wall: budget.saturating_mul(30).saturating_add(Duration::from_secs(30)),
        }
    }
}

/// Why a step was stopped from outside.
#[derive(Clone, Copy, Debug)]
enum Stall {
    Spinning,
    Blocked,
    Starved,
}

/// One step of an engine process, watched from outside.
struct StepWatch {
    pid: i32,
    started: Instant,
    /// The process's CPU time at the first look, not at the start: nearly every step ends
    /// before any look, and reading /proc per request would cost more than most steps. The
    /// CPU limit so counts from at most one [`WATCH_INTERVAL`] late.
    cpu_at_start: Option<Duration>,
    /// Since when every look found the process asleep, with no CPU time gained.
    asleep: Option<(Instant, Duration)>,
}

/// How long a process must stay asleep before it counts as blocked (a
/// moment's wait on the watchdog's lock is not).
const ASLEEP_FOR: Duration = Duration::from_millis(300);

impl StepWatch {
    fn start(pid: i32) -> StepWatch {
        StepWatch { pid, started: Instant::now(), cpu_at_start: None, asleep: None }
    }

    /// The step waited `waited` for work outside its process (its machine): the wall-clock
    /// limits do not count it, and sleeping through it was no stall.
    fn waited(&mut self, waited: Duration) {
        self.started += waited;
        self.asleep = None;
    }

    fn stalled(&mut self, limits: &OuterLimits) -> Option<Stall> {
        let elapsed = self.started.elapsed();
        if elapsed > limits.hard_wall {
            return Some(Stall::Starved);
        }
        let (cpu, running) = process_cpu(self.pid)?;
        let cpu_at_start = *self.cpu_at_start.get_or_insert(cpu);
        if cpu.saturating_sub(cpu_at_start) > limits.cpu {
            return Some(Stall::Spinning);
        }
        // An engine never waits for anything outside itself: asleep mid-step for long is blocked for good.
        self.asleep = match self.asleep {
            Some((since, at)) if !running && cpu == at => Some((since, at)),
            _ if !running => Some((Instant::now(), cpu)),
            _ => None,
        };
        let blocked = self.asleep.is_some_and(|(since, _)| since.elapsed() > ASLEEP_FOR);
        (blocked && elapsed > limits.blocked_after).then_some(Stall::Blocked)
    }
}

/// CPU time used by process `pid` (all threads) and whether its main thread is running or runnable.
fn process_cpu(pid: i32) -> Option<(Duration, bool)> {
    let stat = ProcessStat::read(u32::try_from(pid).ok()?)?;
    Some((stat.cpu_time(), stat.state == 'R'))
}

fn readable(stream: &UnixStream, timeout: Duration) -> bool {
    use std::os::fd::AsRawFd;
    let mut poll = libc::pollfd { fd: stream.as_raw_fd(), events: libc::POLLIN, revents: 0 };
    // SAFETY: poll is a valid array of one pollfd.
    unsafe { libc::poll(&mut poll, 1, timeout.as_millis() as i32) > 0 }
}

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

/// Spawn replies, in the order of the requests, and the requests sent ahead of need.
struct Spawns {
    replies: mpsc::Receiver<ControlReply>,
    /// modlearn's ends of the sockets of the spare engines asked for, oldest first (whose
    /// replies come in this order): each is forking or already waits for its settings.
    spares: VecDeque<OwnedFd>,
}

/// Spare engines kept per zygote: one for each evaluation that may ask at about the same
/// time on a small machine (`--jobs` is the number of cores); each costs a forked process
/// that has touched little of its own.
const SPARES: usize = 2;

/// One zygote process and what it reported.
struct Zygote {
    control: Arc<OwnedFd>,
    spawns: Mutex<Spawns>,
    exits: Exits,
    process_id: u32,
    _process: Mutex<Child>,
}

/// What a zygote is started for: engines with this heap cap (fixed when a runtime boots) and
/// dialect (whose host packages it preloads).
type ZygoteKey = (usize, Dialect);

static ZYGOTES: Mutex<Vec<(ZygoteKey, Arc<Zygote>)>> = Mutex::new(Vec::new());

impl Zygote {
    fn start(isolation: &Isolation, memory_limit: usize, dialect: Dialect) -> Result<Zygote, EngineError> {
        let startup = |error: std::io::Error| EngineError::Startup(format!("could not start the engine zygote: {error}"));
        let (ours, theirs) = socket_pair(libc::SOCK_SEQPACKET).map_err(startup)?;
        let mut command = Command::new(&isolation.executable);
        command
            .arg(ZYGOTE_ARGUMENT)
            .arg(memory_limit.to_string())
            .arg(dialect.as_str())
            // Nothing of modlearn's environment (API keys) reaches the engines.
            .env_clear()
            .env("V82JSC_NO_BC_CACHE", "1")
            .stdin(Stdio::from(theirs))
            .stdout(Stdio::null())
            // A process group of its own: the terminal's Ctrl-C is modlearn's to act on (the first
            // one lets the candidates being judged finish), and must not kill the engines under it.
            .process_group(0);
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
        let spawns = Mutex::new(Spawns { replies: spawn, spares: VecDeque::new() });
        Ok(Zygote { control, spawns, exits, process_id, _process: Mutex::new(process) })
    }

    /// An engine process waiting for its settings: the spare forked ahead, or a new one.
    /// Returns its pid and modlearn's end of its socket, and asks for the next spare.
    fn spawn(&self) -> Result<(i32, OwnedFd), EngineError> {
        let startup = |message: String| EngineError::Startup(format!("could not start an engine process: {message}"));
        let mut spawns = self.spawns.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let ours = match spawns.spares.pop_front() {
            Some(ours) => ours,
            None => self.request_spawn().map_err(startup)?,
        };
        let reply = spawns.replies.recv_timeout(SPAWN_DEADLINE);
        // The next engines fork and seal themselves while this one runs its candidate.
        while spawns.spares.len() < SPARES {
            match self.request_spawn() {
                Ok(spare) => spawns.spares.push_back(spare),
                Err(_) => break,
            }
        }
        match reply {
            Ok(ControlReply::Spawned { pid }) => Ok((pid, ours)),
            Ok(ControlReply::SpawnFailed { message }) => Err(startup(message)),
            Ok(ControlReply::Exited { .. }) => Err(startup("unexpected reply".to_owned())),
            Err(_) => Err(startup("the zygote did not answer".to_owned())),
        }
    }

    /// Asks the zygote for an engine process; its reply comes in order on `replies`.
    fn request_spawn(&self) -> Result<OwnedFd, String> {
        use std::os::fd::AsRawFd;
        let (ours, theirs) = socket_pair(libc::SOCK_STREAM).map_err(|error| error.to_string())?;
        send_packet(&*self.control, &ControlRequest::Spawn, Some(theirs.as_raw_fd()))
            .map_err(|error| format!("the zygote is gone ({error})"))?;
        Ok(ours)
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

/// The zygote for engines with this heap cap (fixed when a runtime boots) and dialect (whose
/// packages it preloaded).
fn zygote_for(isolation: &Isolation, memory_limit: usize, dialect: Dialect) -> Result<Arc<Zygote>, EngineError> {
    let mut zygotes = ZYGOTES.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, zygote)) = zygotes.iter().find(|(key, _)| *key == (memory_limit, dialect)) {
        return Ok(Arc::clone(zygote));
    }
    let zygote = Arc::new(Zygote::start(isolation, memory_limit, dialect)?);
    zygotes.push(((memory_limit, dialect), Arc::clone(&zygote)));
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
    limits: OuterLimits,
    /// The settings it was spawned with, which its stops are worded by.
    options: EngineOptions,
    /// Set once the process is gone: every later request fails with it.
    gone: Option<EngineError>,
    /// The candidate's machine, which the mod's file system calls and commands reach through
    /// this side (the engine process itself can open nothing).
    machine: Option<Arc<Machine>>,
}

/// How long each engine asked for lately took to be ready (for `modlearn bench`), bounded.
static READY_TIMES: Mutex<Vec<Duration>> = Mutex::new(Vec::new());

/// The most [`READY_TIMES`] keeps.
const READY_TIMES_KEPT: usize = 4096;

/// Takes the times until ready of the engines started since the last call.
pub(crate) fn take_ready_times() -> Vec<Duration> {
    std::mem::take(&mut *READY_TIMES.lock().unwrap_or_else(std::sync::PoisonError::into_inner))
}

impl WorkerEngine {
    pub(crate) fn spawn(
        isolation: &Isolation,
        options: &EngineOptions,
        machine: Option<Arc<Machine>>,
    ) -> Result<WorkerEngine, EngineError> {
        let asked = Instant::now();
        let mut engine = WorkerEngine::start(isolation, options)?;
        engine.machine = machine;
        let mut times = READY_TIMES.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if times.len() < READY_TIMES_KEPT {
            times.push(asked.elapsed());
        }
        Ok(engine)
    }

    fn start(isolation: &Isolation, options: &EngineOptions) -> Result<WorkerEngine, EngineError> {
        let zygote = zygote_for(isolation, options.memory_limit, options.dialect)?;
        let (pid, socket) = match zygote.spawn() {
            Ok(spawned) => spawned,
            Err(error) => {
                // A broken zygote is replaced on the next attempt.
                forget_zygote(&zygote);
                return Err(error);
            }
        };
        let stream = UnixStream::from(socket);
        let writer = stream.try_clone().map_err(|error| EngineError::Startup(error.to_string()))?;
        let mut engine = WorkerEngine {
            zygote,
            pid,
            reader: BufReader::new(stream),
            writer: BufWriter::new(writer),
            limits: OuterLimits::for_budget(options.step_timeout),
            options: options.clone(),
            gone: None,
            machine: None,
        };
        let configure = EngineRequest::Configure(Box::new(options.clone()));
        if write_frame(&mut engine.writer, &configure).and_then(|()| engine.writer.flush()).is_err() {
            return Err(engine.ended("activate", None));
        }
        engine.reader.get_ref().set_read_timeout(Some(SPAWN_DEADLINE)).map_err(|e| EngineError::Startup(e.to_string()))?;
        match read_frame::<EngineReply>(&mut engine.reader) {
            Ok(Some(EngineReply::Ready(Ok(())))) => {
                // From here on the outer limits watch every reply.
                engine.reader.get_ref().set_read_timeout(None).map_err(|e| EngineError::Startup(e.to_string()))?;
                Ok(engine)
            }
            Ok(Some(EngineReply::Ready(Err(error)))) => Err(error),
            _ => Err(engine.ended("activate", None)),
        }
    }

    pub(crate) fn process_id(&self) -> u32 {
        self.pid as u32
    }

    /// Runs `requests` in one frame; one reply each, in order. Each one's outer deadline
    /// starts when the last frame came (the engine says when a later step starts).
    pub(crate) fn run(&mut self, requests: Vec<Request>) -> Vec<Result<String, EngineError>> {
        let phases: Vec<&'static str> = requests.iter().map(Request::phase).collect();
        let mut replies = Vec::with_capacity(phases.len());
        if self.gone.is_none() && write_frame(&mut self.writer, &EngineRequest::Run(requests)).and_then(|()| self.writer.flush()).is_err() {
            self.ended(phases.first().copied().unwrap_or("timer"), None);
        }
        for phase in phases {
            let reply = match &self.gone {
                Some(gone) => Err(gone.clone()),
                None => self.reply(phase),
            };
            replies.push(reply);
        }
        replies
    }

    /// The next request's reply, watching the process until it comes.
    fn reply(&mut self, phase: &str) -> Result<String, EngineError> {
        let mut step = StepWatch::start(self.pid);
        let mut fresh = FreshDeadlines::default();
        let mut machine_time = Duration::ZERO;
        loop {
            if self.reader.buffer().is_empty() && !readable(self.reader.get_ref(), WATCH_INTERVAL) {
                if let Some(stall) = step.stalled(&self.limits) {
                    self.zygote.kill(self.pid);
                    return Err(self.ended(phase, Some(stall)));
                }
                continue;
            }
            match read_frame::<EngineReply>(&mut self.reader) {
                Ok(Some(EngineReply::Step { index })) => {
                    if fresh.allow(index) {
                        step = StepWatch::start(self.pid);
                    }
                }
                Ok(Some(EngineReply::Done(Err(error @ EngineError::Stopped { .. })))) => {
                    // The engine stopped mod code at a limit and refuses everything after it; end
                    // the process as a kill would have.
                    self.zygote.discard(self.pid);
                    self.gone = Some(error.clone());
                    return Err(error);
                }
                Ok(Some(EngineReply::Done(result))) => return result,
                Ok(Some(EngineReply::Machine(packed))) => {
                    let started = Instant::now();
                    let reply = self.machine_call(&packed, machine_time >= self.limits.hard_wall);
                    let waited = started.elapsed();
                    machine_time += waited;
                    // The engine slept while its machine worked: that wait is neither a stall nor its time.
                    step.waited(waited);
                    if write_frame(&mut self.writer, &EngineRequest::MachineReply(reply)).and_then(|()| self.writer.flush()).is_err() {
                        return Err(self.ended(phase, None));
                    }
                }
                Ok(Some(EngineReply::Ready(_))) | Ok(None) | Err(_) => return Err(self.ended(phase, None)),
            }
        }
    }

    /// Carries out the engine's machine call (a packed call, base64) and answers it the same way.
    fn machine_call(&self, packed: &str, used_up: bool) -> String {
        use base64::Engine as _;
        let codec = base64::engine::general_purpose::STANDARD;
        let unavailable = |reason: &str| pack(&MachineReply::Unavailable { reason: reason.to_owned() }, &[]);
        let reply = match (&self.machine, codec.decode(packed)) {
            (_, _) if used_up => unavailable("the request's time for machine work is used up"),
            (Some(machine), Ok(packed)) => machine.call_packed(&packed),
            (None, _) => unavailable(NO_MACHINE),
            (_, Err(_)) => unavailable("the engine sent a call that is not base64"),
        };
        codec.encode(reply)
    }

    /// The process is gone (or made so): why, as the error every later request gets.
    fn ended(&mut self, phase: &str, stall: Option<Stall>) -> EngineError {
        let exit = self.zygote.exit_of(self.pid);
        let error = if let Some(stall) = stall {
            let why = match stall {
                Stall::Spinning => return self.gone_with(EngineError::at_limit(StopFault::Timeout, phase, &self.options)),
                Stall::Blocked => "blocked and could never go on".to_owned(),
                Stall::Starved => format!("did not finish within {} s of wall time", self.limits.hard_wall.as_secs()),
            };
            EngineError::Stopped {
                fault: StopFault::Timeout,
                phase: phase.to_owned(),
                message: format!("mod code in the {phase} phase {why}; the engine process was killed"),
            }
        } else {
            match exit {
                Some((_, Some(signal))) if signal == libc::SIGXCPU => EngineError::at_limit(StopFault::Timeout, phase, &self.options),
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
        self.gone_with(error)
    }

    fn gone_with(&mut self, error: EngineError) -> EngineError {
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

#[cfg(test)]
mod tests {
    use super::{FreshDeadlines, MAX_FRESH_DEADLINES};

    #[test]
    fn only_later_steps_start_the_deadline_again_and_only_so_often() {
        let mut fresh = FreshDeadlines::default();
        assert!(fresh.allow(0));
        assert!(fresh.allow(2), "a step may be skipped (it started soon after the last frame)");
        assert!(!fresh.allow(2), "the same step twice");
        assert!(!fresh.allow(1), "an earlier step");
        let mut streamed = FreshDeadlines::default();
        let granted = (0..MAX_FRESH_DEADLINES + 10).filter(|&index| streamed.allow(index)).count();
        assert_eq!(granted, MAX_FRESH_DEADLINES);
    }
}
