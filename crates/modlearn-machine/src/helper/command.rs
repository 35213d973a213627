//! Runs one command inside the sandbox: a traced process tree with its input fed and its
//! output captured, waited for whole (what it leaves in the background too), and killed whole
//! at its deadline or past a process or memory cap. Commands run one at a time, so the helper's
//! waits see only theirs.

use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::time::{Duration, Instant};

use crate::helper::limits::{self, FILE_SIZE_LIMIT, INODE_LIMIT, MEMORY_LIMIT, PROCESS_LIMIT};
use crate::helper::seccomp::Filters;
use crate::helper::trace::{self, Trace};
use crate::plan::SHM;
use crate::protocol::{RunOutcome, RunRequest};

/// Output kept per stream; the rest is read and dropped.
const OUTPUT_LIMIT: usize = 16 << 20;
/// How long a stopped command's pipes may stay open before the helper stops waiting for them.
const STOPPED_GRACE: Duration = Duration::from_secs(2);
/// How often memory and files are looked at while a command runs.
const LOOK_EVERY: Duration = Duration::from_millis(25);
/// The `PATH` a command whose environment has none searches, as libuv's does.
const DEFAULT_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as RawFd; 2];
    // SAFETY: fds is a valid array of two descriptors.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: pipe2 succeeded: both descriptors are ours.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

fn set_nonblocking(fd: RawFd) {
    // SAFETY: fcntl on a descriptor this process owns.
    unsafe { libc::fcntl(fd, libc::F_SETFL, libc::fcntl(fd, libc::F_GETFL) | libc::O_NONBLOCK) };
}

/// The process's signal mask with SIGCHLD blocked, and a descriptor that reads SIGCHLDs; made
/// once, when the helper starts.
pub(crate) fn child_signals() -> io::Result<OwnedFd> {
    // SAFETY: sigset operations on a local set; signalfd returns a new descriptor or -1.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGCHLD);
        libc::sigprocmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
        let fd = libc::signalfd(-1, &set, libc::SFD_CLOEXEC | libc::SFD_NONBLOCK);
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(OwnedFd::from_raw_fd(fd))
    }
}

/// What the child reports through the exec-error pipe when it cannot start the program.
const SPAWN_FAILED: u8 = 1;

/// Runs `request` with `stdin` as its input. `signals` is [`child_signals`]'s descriptor.
pub(crate) fn run(request: &RunRequest, stdin: &[u8], signals: &OwnedFd, filters: &Filters) -> (RunOutcome, Vec<u8>) {
    match start(request, filters) {
        Ok(started) => watch(started, request, stdin, signals),
        Err(error) => {
            let outcome = RunOutcome {
                spawn_error: Some(crate::helper::files::errno_name(error.raw_os_error().unwrap_or(libc::EIO))),
                ..RunOutcome::default()
            };
            (outcome, Vec::new())
        }
    }
}

struct Started {
    pid: i32,
    stdin: Option<OwnedFd>,
    stdout: OwnedFd,
    stderr: OwnedFd,
    /// Reads one errno when the child could not exec; end of file when it did.
    exec_error: OwnedFd,
}

/// Everything the child needs, made before the fork (so the child allocates nothing).
struct ChildPlan {
    argv: Vec<CString>,
    envp: Vec<CString>,
    /// The program itself when it names a path, else each `PATH` entry joined with it.
    candidates: Vec<CString>,
    cwd: CString,
}

fn child_plan(request: &RunRequest) -> io::Result<ChildPlan> {
    let invalid = |_| io::Error::from_raw_os_error(libc::EINVAL);
    let program = request.argv.first().ok_or_else(|| io::Error::from_raw_os_error(libc::ENOENT))?;
    let argv = request.argv.iter().map(|arg| CString::new(arg.as_str())).collect::<Result<Vec<_>, _>>().map_err(invalid)?;
    let envp =
        request.env.iter().map(|(name, value)| CString::new(format!("{name}={value}"))).collect::<Result<Vec<_>, _>>().map_err(invalid)?;
    let candidates = if program.contains('/') {
        vec![CString::new(program.as_str()).map_err(invalid)?]
    } else {
        let path = request.env.iter().find(|(name, _)| name == "PATH").map_or(DEFAULT_PATH, |(_, value)| value.as_str());
        path.split(':')
            .map(|dir| CString::new(if dir.is_empty() { program.clone() } else { format!("{}/{program}", dir.trim_end_matches('/')) }))
            .collect::<Result<Vec<_>, _>>()
            .map_err(invalid)?
    };
    Ok(ChildPlan { argv, envp, candidates, cwd: CString::new(request.cwd.as_str()).map_err(invalid)? })
}

fn start(request: &RunRequest, filters: &Filters) -> io::Result<Started> {
    let plan = child_plan(request)?;
    let (stdin_read, stdin_write) = pipe()?;
    let (stdout_read, stdout_write) = pipe()?;
    let (stderr_read, stderr_write) = pipe()?;
    let (go_read, go_write) = pipe()?;
    let (ready_read, ready_write) = pipe()?;
    let (error_read, error_write) = pipe()?;
    // SAFETY: the helper is single-threaded, so the child may run ordinary code until it execs;
    // it only uses what was made before the fork.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        return Err(io::Error::last_os_error());
    }
    if pid == 0 {
        // SAFETY: in the child, on descriptors and memory made before the fork.
        unsafe {
            child(
                &plan,
                filters,
                [stdin_read.as_raw_fd(), stdout_write.as_raw_fd(), stderr_write.as_raw_fd()],
                [&ready_write, &go_read],
                &error_write,
            )
        };
    }
    drop((stdin_read, stdout_write, stderr_write, go_read, ready_write, error_write));
    // The child may be traced once it made itself dumpable again (the helper is not, and a fork
    // inherits that): it says so by closing its end.
    let mut byte = 0u8;
    // SAFETY: reads at most one byte into a valid buffer.
    unsafe { libc::read(ready_read.as_raw_fd(), (&mut byte as *mut u8).cast(), 1) };
    drop(ready_read);
    let seized = trace::seize(pid);
    // The child waits for this byte: it execs only once it is traced.
    // SAFETY: writes one byte from a valid buffer.
    unsafe { libc::write(go_write.as_raw_fd(), [1u8].as_ptr().cast(), 1) };
    drop(go_write);
    if let Err(error) = seized {
        // SAFETY: kill and waitpid on the child just made.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
            libc::waitpid(pid, std::ptr::null_mut(), libc::__WALL);
        }
        return Err(error);
    }
    for fd in [&stdin_write, &stdout_read, &stderr_read] {
        set_nonblocking(fd.as_raw_fd());
    }
    Ok(Started { pid, stdin: Some(stdin_write), stdout: stdout_read, stderr: stderr_read, exec_error: error_read })
}

/// The child's side: its own process group, the pipes as stdio, default signals, limits, the
/// working directory, the seccomp filters once it is traced, then the program as `execvp` finds
/// it. Never returns.
unsafe fn child(plan: &ChildPlan, filters: &Filters, stdio: [RawFd; 3], [ready, go]: [&OwnedFd; 2], exec_error: &OwnedFd) -> ! {
    // SAFETY (whole body): plain system calls on this process's own descriptors and memory.
    unsafe {
        let fail = |errno: i32| -> ! {
            let report = [SPAWN_FAILED, errno as u8];
            libc::write(exec_error.as_raw_fd(), report.as_ptr().cast(), 2);
            libc::_exit(127)
        };
        libc::setpgid(0, 0);
        for (target, fd) in stdio.iter().enumerate() {
            libc::dup2(*fd, target as i32);
        }
        // Every descriptor of the helper's (its socket above all) is closed before this process
        // can be traced or read by anyone: only the three pipes to the helper stay, till the exec.
        close_all_but([ready.as_raw_fd(), go.as_raw_fd(), exec_error.as_raw_fd()]);
        libc::prctl(libc::PR_SET_DUMPABLE, 1, 0, 0, 0);
        libc::close(ready.as_raw_fd());
        let mut empty: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut empty);
        libc::sigprocmask(libc::SIG_SETMASK, &empty, std::ptr::null_mut());
        // Rust ignores SIGPIPE; a program run here must die of it as anywhere else.
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        let limits = [
            (libc::RLIMIT_CORE, 0),
            (libc::RLIMIT_FSIZE, FILE_SIZE_LIMIT),
            (libc::RLIMIT_NOFILE, 1024),
            (libc::RLIMIT_NPROC, PROCESS_LIMIT),
        ];
        for (resource, limit) in limits {
            let limit = libc::rlimit { rlim_cur: limit, rlim_max: limit };
            if libc::setrlimit(resource, &limit) != 0 {
                fail(*libc::__errno_location());
            }
        }
        let mut byte = 0u8;
        if libc::read(go.as_raw_fd(), (&mut byte as *mut u8).cast(), 1) != 1 {
            fail(libc::EIO);
        }
        libc::close(go.as_raw_fd());
        if !filters.install() {
            fail(*libc::__errno_location());
        }
        if libc::chdir(plan.cwd.as_ptr()) != 0 {
            fail(*libc::__errno_location());
        }
        let mut argv: Vec<*const libc::c_char> = plan.argv.iter().map(|arg| arg.as_ptr()).collect();
        argv.push(std::ptr::null());
        let mut envp: Vec<*const libc::c_char> = plan.envp.iter().map(|var| var.as_ptr()).collect();
        envp.push(std::ptr::null());
        let mut denied = false;
        for candidate in &plan.candidates {
            libc::execve(candidate.as_ptr(), argv.as_ptr(), envp.as_ptr());
            match *libc::__errno_location() {
                libc::EACCES => denied = true,
                // A script without a `#!` line runs in sh, as execvp runs it.
                libc::ENOEXEC => {
                    let mut script: Vec<*const libc::c_char> = vec![c"/bin/sh".as_ptr(), candidate.as_ptr()];
                    script.extend_from_slice(&argv[1..]);
                    libc::execve(c"/bin/sh".as_ptr(), script.as_ptr(), envp.as_ptr());
                    fail(*libc::__errno_location())
                }
                libc::ENOENT | libc::ENOTDIR | libc::ELOOP | libc::ENAMETOOLONG => {}
                errno => fail(errno),
            }
        }
        fail(if denied { libc::EACCES } else { libc::ENOENT })
    }
}

/// Closes every descriptor from 3 up but `keep` (really closed, not marked close-on-exec).
unsafe fn close_all_but(mut keep: [RawFd; 3]) {
    keep.sort_unstable();
    let mut from: libc::c_uint = 3;
    for fd in keep {
        let fd = fd as libc::c_uint;
        if fd > from {
            // SAFETY: close_range on this process's own descriptors.
            unsafe { libc::syscall(libc::SYS_close_range, from, fd - 1, 0 as libc::c_uint) };
        }
        from = from.max(fd + 1);
    }
    // SAFETY: as above.
    unsafe { libc::syscall(libc::SYS_close_range, from, libc::c_uint::MAX, 0 as libc::c_uint) };
}

/// Reads what is there without blocking; false at end of file.
fn drain(fd: &OwnedFd, into: &mut Vec<u8>, cut: &mut bool) -> bool {
    let mut buffer = [0u8; 65536];
    loop {
        // SAFETY: reads into a valid buffer of its length.
        let read = unsafe { libc::read(fd.as_raw_fd(), buffer.as_mut_ptr().cast(), buffer.len()) };
        if read == 0 {
            return false;
        }
        if read < 0 {
            let error = io::Error::last_os_error();
            return matches!(error.raw_os_error(), Some(libc::EAGAIN) | Some(libc::EINTR));
        }
        let read = read as usize;
        let room = OUTPUT_LIMIT.saturating_sub(into.len());
        into.extend_from_slice(&buffer[..read.min(room)]);
        *cut |= read > room;
    }
}

fn watch(started: Started, request: &RunRequest, input: &[u8], signals: &OwnedFd) -> (RunOutcome, Vec<u8>) {
    let Started { pid, mut stdin, stdout, stderr, exec_error } = started;
    let deadline = Instant::now() + Duration::from_millis(request.deadline_ms);
    let mut trace = Trace::default();
    trace.live.insert(pid);
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let mut cut = false;
    let (mut stdout_open, mut stderr_open) = (true, true);
    let mut written = 0usize;
    let mut stopped: Option<String> = None;
    let mut timed_out = false;
    let mut last_look = Instant::now();
    let mut stopped_at: Option<Instant> = None;
    if input.is_empty() {
        stdin = None;
    }
    loop {
        trace.drain(pid);
        // A command is over when every process it started is: what it leaves in the background
        // runs to its end too (or to the deadline), so its effects never race the record.
        if trace.root_status.is_some() && !stdout_open && !stderr_open && {
            trace.prune();
            trace.live.is_empty()
        } {
            break;
        }
        // Stopped, and something still holds a pipe: everything was killed, so nothing will write.
        if stopped_at.is_some_and(|at| at.elapsed() >= STOPPED_GRACE) {
            break;
        }
        if stopped.is_none() {
            let why = if Instant::now() >= deadline {
                timed_out = trace.root_status.is_none();
                Some(if timed_out {
                    format!("it was stopped at its deadline ({} ms)", request.deadline_ms)
                } else {
                    format!("what it left running was stopped at its deadline ({} ms)", request.deadline_ms)
                })
            } else if trace.live.len() as u64 > PROCESS_LIMIT {
                Some(format!("it started more than {PROCESS_LIMIT} processes and threads at once; the machine stopped them"))
            } else if last_look.elapsed() >= LOOK_EVERY {
                last_look = Instant::now();
                if limits::resident() > MEMORY_LIMIT {
                    Some(format!("its processes held more than {} MiB of memory; the machine stopped them", MEMORY_LIMIT >> 20))
                } else if limits::inodes_used() > INODE_LIMIT {
                    Some(format!("it made more than {INODE_LIMIT} files and directories; the machine stopped it"))
                } else {
                    None
                }
            } else {
                None
            };
            if let Some(why) = why {
                stopped = Some(why);
                stopped_at = Some(Instant::now());
                limits::signal_everything_else();
                stdin = None;
            }
        } else {
            // Killed processes may hold the pipes a moment longer; their ends close as they die.
            limits::signal_everything_else();
        }
        let mut polls = vec![libc::pollfd { fd: signals.as_raw_fd(), events: libc::POLLIN, revents: 0 }];
        if stdout_open {
            polls.push(libc::pollfd { fd: stdout.as_raw_fd(), events: libc::POLLIN, revents: 0 });
        }
        if stderr_open {
            polls.push(libc::pollfd { fd: stderr.as_raw_fd(), events: libc::POLLIN, revents: 0 });
        }
        if let Some(fd) = &stdin {
            polls.push(libc::pollfd { fd: fd.as_raw_fd(), events: libc::POLLOUT, revents: 0 });
        }
        let wait = deadline.saturating_duration_since(Instant::now()).min(LOOK_EVERY).max(Duration::from_millis(1));
        // SAFETY: polls is a valid array of its length.
        unsafe { libc::poll(polls.as_mut_ptr(), polls.len() as libc::nfds_t, wait.as_millis() as i32) };
        drain_signals(signals);
        if stdout_open {
            stdout_open = drain(&stdout, &mut out, &mut cut);
        }
        if stderr_open {
            stderr_open = drain(&stderr, &mut err, &mut cut);
        }
        if let Some(fd) = &stdin {
            // SAFETY: writes from a valid slice of the input.
            let wrote = unsafe { libc::write(fd.as_raw_fd(), input[written..].as_ptr().cast(), input.len() - written) };
            if wrote > 0 {
                written += wrote as usize;
            }
            let broken = wrote < 0 && !matches!(io::Error::last_os_error().raw_os_error(), Some(libc::EAGAIN) | Some(libc::EINTR));
            if written >= input.len() || broken {
                stdin = None;
            }
        }
    }
    trace.drain(pid);
    trace.prune();
    let incomplete = stopped;
    // What was killed ends after the SIGKILL; a moment is all that takes.
    for _ in 0..400 {
        if trace.live.is_empty() {
            break;
        }
        limits::signal_everything_else();
        trace.drain(pid);
        trace.prune();
        std::thread::sleep(Duration::from_millis(5));
    }
    // Nothing outlives its command, traced or not.
    limits::kill_everything_else();
    remove_clock_leftovers();
    let mut incomplete = incomplete;
    if trace.programs_dropped > 0 {
        incomplete.get_or_insert(format!("it started {} more programs than the record keeps", trace.programs_dropped));
    }
    let spawn_error = read_exec_error(&exec_error);
    let status = trace.root_status.unwrap_or(0);
    let (exit_code, signal) =
        if libc::WIFSIGNALED(status) { (None, Some(signal_name(libc::WTERMSIG(status)))) } else { (Some(libc::WEXITSTATUS(status)), None) };
    let stdout_bytes = out.len() as u64;
    out.extend_from_slice(&err);
    let outcome = RunOutcome {
        exit_code: if spawn_error.is_some() { None } else { exit_code },
        signal: if spawn_error.is_some() { None } else { signal },
        spawn_error,
        timed_out,
        stdout_bytes,
        output_cut: cut,
        programs: trace.programs,
        incomplete,
    };
    (outcome, out)
}

/// libfaketime (the commands' clock) leaves a semaphore and a shared memory segment in
/// `/dev/shm` for each process tree it starts in; faketime's own wrapper removes them after its
/// program, and so does the machine after each command.
fn remove_clock_leftovers() {
    let Ok(entries) = std::fs::read_dir(SHM) else { return };
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with("faketime_shm_") || name.starts_with("sem.faketime_sem_") {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

fn drain_signals(signals: &OwnedFd) {
    let mut info = [0u8; 128];
    // SAFETY: reads signalfd records into a valid buffer until none is left.
    while unsafe { libc::read(signals.as_raw_fd(), info.as_mut_ptr().cast(), info.len()) } > 0 {}
}

/// The errno the child reported when it could not start the program, if it did.
fn read_exec_error(fd: &OwnedFd) -> Option<String> {
    let mut report = [0u8; 2];
    // SAFETY: reads at most two bytes into a valid buffer; the writer is gone by now.
    let read = unsafe { libc::read(fd.as_raw_fd(), report.as_mut_ptr().cast(), 2) };
    (read == 2 && report[0] == SPAWN_FAILED).then(|| crate::helper::files::errno_name(i32::from(report[1])))
}

/// `SIGKILL` for 9, as Node names signals.
pub(crate) fn signal_name(signal: i32) -> String {
    let name = match signal {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGUSR1 => "SIGUSR1",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGUSR2 => "SIGUSR2",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGALRM => "SIGALRM",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        libc::SIGSYS => "SIGSYS",
        _ => return format!("SIG{signal}"),
    };
    name.to_owned()
}
