//! The template process: boots one engine runtime (deno_core's bootstrap and
//! the host modules, the 15-20 ms an engine costs to start) while it is
//! still single-threaded, then forks a copy-on-write child per engine. The
//! children share the booted pages; each is ready in about a millisecond.
//!
//! The zygote reaps its children and reports how each ended, and kills an
//! engine on request (it alone knows whether the pid is still its child).
//! When modlearn goes away (its end of the control socket closes), the
//! zygote kills every engine left and exits.

use std::collections::BTreeSet;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd};

use modlearn_types::Dialect;

use crate::local::Booted;
use crate::worker::channel::{receive_packet, send_packet};
use crate::worker::child::serve_engine;
use crate::worker::messages::{ControlReply, ControlRequest};

/// Runs the zygote on `control` (its stdin) until modlearn closes it. Never returns.
pub(crate) fn run(control: OwnedFd, memory_limit: usize, dialect: Dialect) -> ! {
    let mut booted = match Booted::for_dialect(memory_limit, dialect) {
        Ok(booted) => Some(booted),
        Err(error) => {
            let _ = send_packet(&control, &ControlReply::SpawnFailed { message: error.to_string() }, None);
            std::process::exit(3);
        }
    };
    // Collect once now: a child then starts far from its next collection, which would write to
    // (and so copy) nearly every page of the heap it shares with this template.
    if let Some(booted) = booted.as_mut() {
        booted.collect_garbage();
    }
    if thread_count() != Some(1) {
        // fork() copies only the calling thread: a template with others could hand children held locks.
        let message = "the engine template started threads of its own; it cannot be forked safely".to_owned();
        let _ = send_packet(&control, &ControlReply::SpawnFailed { message }, None);
        std::process::exit(3);
    }
    let mut children = BTreeSet::new();
    loop {
        reap(&control, &mut children);
        // Poll briefly while children run, so their exits are reported promptly.
        let timeout = if children.is_empty() { -1 } else { 20 };
        if !readable(control.as_fd(), timeout) {
            continue;
        }
        let request = match receive_packet::<ControlRequest>(&control) {
            Ok(Some((request, fd))) => (request, fd),
            Ok(None) | Err(_) => break,
        };
        match request {
            (ControlRequest::Spawn, Some(engine_socket)) => {
                // SAFETY: the zygote is single-threaded (checked above), so the child may run anything.
                match unsafe { libc::fork() } {
                    0 => {
                        let booted = booted.take().expect("the template runtime is kept for every fork");
                        serve_engine(booted, memory_limit, dialect, engine_socket, control);
                    }
                    -1 => {
                        let message = format!("fork failed: {}", std::io::Error::last_os_error());
                        let _ = send_packet(&control, &ControlReply::SpawnFailed { message }, None);
                    }
                    pid => {
                        drop(engine_socket);
                        children.insert(pid);
                        if send_packet(&control, &ControlReply::Spawned { pid }, None).is_err() {
                            break;
                        }
                    }
                }
            }
            (ControlRequest::Spawn, None) => {
                let message = "a spawn request came without its engine socket".to_owned();
                let _ = send_packet(&control, &ControlReply::SpawnFailed { message }, None);
            }
            (ControlRequest::Kill { pid }, _) => {
                if children.contains(&pid) {
                    // SAFETY: pid is an unreaped child of this process, so it cannot have been reused.
                    unsafe { libc::kill(pid, libc::SIGKILL) };
                }
            }
        }
    }
    for pid in &children {
        // SAFETY: as above, every pid in the set is an unreaped child.
        unsafe { libc::kill(*pid, libc::SIGKILL) };
    }
    std::process::exit(0);
}

/// Reaps every child that ended and reports it.
fn reap(control: &OwnedFd, children: &mut BTreeSet<i32>) {
    loop {
        let mut status = 0;
        // SAFETY: status is a valid out pointer.
        let pid = unsafe { libc::waitpid(-1, &mut status, libc::WNOHANG) };
        if pid <= 0 {
            return;
        }
        children.remove(&pid);
        let (code, signal) =
            if libc::WIFSIGNALED(status) { (None, Some(libc::WTERMSIG(status))) } else { (Some(libc::WEXITSTATUS(status)), None) };
        let _ = send_packet(control, &ControlReply::Exited { pid, code, signal }, None);
    }
}

fn readable(fd: BorrowedFd<'_>, timeout_ms: i32) -> bool {
    let mut poll = libc::pollfd { fd: fd.as_raw_fd(), events: libc::POLLIN, revents: 0 };
    // SAFETY: poll is a valid array of one pollfd.
    let ready = unsafe { libc::poll(&mut poll, 1, timeout_ms) };
    ready > 0
}

fn thread_count() -> Option<usize> {
    std::fs::read_dir("/proc/self/task").ok().map(|entries| entries.count())
}
