//! The exec trace: every process a command starts is traced (ptrace, seized, so group stops and
//! signals behave as without a tracer), and every program the kernel starts is recorded when it
//! stops at `PTRACE_EVENT_EXEC`, before it ran an instruction of its own: its arguments are then
//! what the kernel copied, and no thread of the caller can change them any more. The tracer stops
//! only at forks, execs, signals and exits, never at other system calls.

use std::collections::BTreeSet;
use std::io;

use modlearn_types::ProgramRun;

use crate::helper::identity;
use crate::stubs::SCRIPTED_DIR;

// Not every libc build names these (linux/ptrace.h).
const PTRACE_EVENT_FORK: i32 = 1;
const PTRACE_EVENT_VFORK: i32 = 2;
const PTRACE_EVENT_CLONE: i32 = 3;
const PTRACE_EVENT_EXEC: i32 = 4;
const PTRACE_EVENT_STOP: i32 = 128;
const PTRACE_O_TRACEFORK: libc::c_long = 1 << PTRACE_EVENT_FORK;
const PTRACE_O_TRACEVFORK: libc::c_long = 1 << PTRACE_EVENT_VFORK;
const PTRACE_O_TRACECLONE: libc::c_long = 1 << PTRACE_EVENT_CLONE;
const PTRACE_O_TRACEEXEC: libc::c_long = 1 << PTRACE_EVENT_EXEC;
const PTRACE_O_EXITKILL: libc::c_long = 1 << 20;

/// The longest argument list a record keeps, in bytes.
const ARGV_LIMIT: usize = 16 << 10;
/// The most programs one command's record keeps.
pub(crate) const PROGRAMS_LIMIT: usize = 512;

/// The processes of one command and what they ran.
#[derive(Default)]
pub(crate) struct Trace {
    /// Thread ids being traced that have not been seen to end.
    pub(crate) live: BTreeSet<i32>,
    /// Programs started, in order.
    pub(crate) programs: Vec<ProgramRun>,
    /// Programs past [`PROGRAMS_LIMIT`], counted.
    pub(crate) programs_dropped: usize,
    /// The first process's wait status, once it ended.
    pub(crate) root_status: Option<i32>,
    /// The most processes and threads seen alive at once.
    pub(crate) peak: usize,
}

/// Starts tracing `pid` (stopped or blocked before its exec), and every process it starts.
pub(crate) fn seize(pid: i32) -> io::Result<()> {
    let options = PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL;
    // SAFETY: PTRACE_SEIZE takes a pid, no address and the options; nothing is dereferenced.
    if unsafe { libc::ptrace(libc::PTRACE_SEIZE, pid, std::ptr::null_mut::<libc::c_void>(), options) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

fn resume(pid: i32, signal: i32) {
    // SAFETY: PTRACE_CONT takes a pid and the signal to deliver as its data.
    unsafe { libc::ptrace(libc::PTRACE_CONT, pid, std::ptr::null_mut::<libc::c_void>(), signal as libc::c_long) };
}

fn event_message(pid: i32) -> Option<i32> {
    let mut message: libc::c_ulong = 0;
    // SAFETY: PTRACE_GETEVENTMSG writes one unsigned long to the given address.
    let status = unsafe { libc::ptrace(libc::PTRACE_GETEVENTMSG, pid, std::ptr::null_mut::<libc::c_void>(), &mut message) };
    (status == 0).then_some(message as i32)
}

impl Trace {
    /// Handles every wait status that is ready, without blocking. `root` is the command's first
    /// process.
    pub(crate) fn drain(&mut self, root: i32) {
        loop {
            let mut status = 0;
            // SAFETY: waitpid writes the status into a valid int.
            let pid = unsafe { libc::waitpid(-1, &mut status, libc::WNOHANG | libc::__WALL) };
            if pid <= 0 {
                return;
            }
            self.handle(pid, status, root);
        }
    }

    fn handle(&mut self, pid: i32, status: i32, root: i32) {
        if libc::WIFEXITED(status) || libc::WIFSIGNALED(status) {
            self.live.remove(&pid);
            if pid == root {
                self.root_status = Some(status);
            }
            return;
        }
        if !libc::WIFSTOPPED(status) {
            return;
        }
        self.note_alive(pid);
        let signal = libc::WSTOPSIG(status);
        match status >> 16 {
            0 => resume(pid, signal),
            PTRACE_EVENT_FORK | PTRACE_EVENT_VFORK | PTRACE_EVENT_CLONE => {
                if let Some(child) = event_message(pid) {
                    self.note_alive(child);
                }
                resume(pid, 0);
            }
            PTRACE_EVENT_EXEC => {
                // A thread other than the leader that execs takes the leader's id.
                if let Some(former) = event_message(pid).filter(|former| *former != pid) {
                    self.live.remove(&former);
                }
                self.record_program(pid);
                resume(pid, 0);
            }
            PTRACE_EVENT_STOP => {
                if matches!(signal, libc::SIGSTOP | libc::SIGTSTP | libc::SIGTTIN | libc::SIGTTOU) {
                    // A group stop: the process stays stopped, as it would untraced.
                    // SAFETY: PTRACE_LISTEN takes a pid only.
                    unsafe { libc::ptrace(libc::PTRACE_LISTEN, pid, std::ptr::null_mut::<libc::c_void>(), 0 as libc::c_long) };
                } else {
                    // A new process's first stop (it was attached as it was born).
                    resume(pid, 0);
                }
            }
            _ => resume(pid, 0),
        }
    }

    fn note_alive(&mut self, pid: i32) {
        self.live.insert(pid);
        self.peak = self.peak.max(self.live.len());
    }

    fn record_program(&mut self, pid: i32) {
        if self.programs.len() >= PROGRAMS_LIMIT {
            self.programs_dropped += 1;
            return;
        }
        let path = std::fs::read_link(format!("/proc/{pid}/exe"))
            .map(|path| path.to_string_lossy().into_owned())
            .unwrap_or_else(|_| "?".to_owned());
        let (argv, cut) = read_argv(pid);
        let origin = identity::origin(pid, &path);
        // A scripted program runs as its script, `sh /usr/local/bin/NAME ARGS`: the machine's own
        // shell, handed a script that is there (the directory is read-only, so it is the
        // environment's).
        let scripted = argv
            .get(1)
            .filter(|script| std::path::Path::new(script.as_str()).is_file())
            .and_then(|script| script.strip_prefix(SCRIPTED_DIR)?.strip_prefix('/'))
            .filter(|name| {
                let shell = path == "/usr/bin/dash" || path == "/usr/bin/bash";
                shell && origin.is_system() && !name.is_empty() && !name.contains('/')
            })
            .map(str::to_owned);
        let steering = steering_environment(pid);
        self.programs.push(ProgramRun { path, argv, scripted, origin, steering, cut });
    }

    /// Forgets threads that ended without a report (as an exec by another thread leaves them).
    pub(crate) fn prune(&mut self) {
        self.live.retain(|pid| std::path::Path::new(&format!("/proc/{pid}")).exists());
    }
}

/// Environment variables that give git configuration (an alias among them: `GIT_CONFIG_COUNT=1
/// GIT_CONFIG_KEY_0=alias.r GIT_CONFIG_VALUE_0=reset git r --hard` is `git reset --hard`), or
/// move where git finds its commands.
const STEERING: &[&str] =
    &["GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_CONFIG", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_EXEC_PATH"];
/// The most of a process's environment read for them.
const ENVIRON_LIMIT: u64 = 1 << 20;

/// Which of [`STEERING`] process `pid` started with; all of them when its environment cannot
/// be read whole, since then it cannot be told.
fn steering_environment(pid: i32) -> Vec<String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    let read = std::fs::File::open(format!("/proc/{pid}/environ")).and_then(|file| file.take(ENVIRON_LIMIT + 1).read_to_end(&mut bytes));
    if read.is_err() || bytes.len() as u64 > ENVIRON_LIMIT {
        return STEERING.iter().map(|name| (*name).to_owned()).collect();
    }
    let names: Vec<&[u8]> = bytes.split(|byte| *byte == 0).filter_map(|entry| entry.split(|byte| *byte == b'=').next()).collect();
    STEERING.iter().filter(|name| names.contains(&name.as_bytes())).map(|name| (*name).to_owned()).collect()
}

/// A process's arguments as the kernel keeps them, cut at [`ARGV_LIMIT`].
fn read_argv(pid: i32) -> (Vec<String>, bool) {
    use std::io::Read;
    let mut bytes = Vec::new();
    let read =
        std::fs::File::open(format!("/proc/{pid}/cmdline")).and_then(|file| file.take(ARGV_LIMIT as u64 + 1).read_to_end(&mut bytes));
    if read.is_err() {
        return (Vec::new(), true);
    }
    let cut = bytes.len() > ARGV_LIMIT;
    bytes.truncate(ARGV_LIMIT);
    if bytes.last() == Some(&0) {
        bytes.pop();
    }
    let argv = bytes.split(|byte| *byte == 0).map(|arg| String::from_utf8_lossy(arg).into_owned()).collect();
    (argv, cut)
}
