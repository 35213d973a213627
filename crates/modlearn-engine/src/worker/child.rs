//! One engine process, forked from the zygote: it gives up everything it
//! will not need (other descriptors, the terminal, core dumps, file and
//! address-space room, new privileges, and through seccomp the system calls
//! that open files, connect or start programs), arms the booted runtime,
//! waits for its settings and serves one engine's requests until modlearn
//! closes the socket.

use std::cell::{Cell, RefCell};
use std::io::{BufReader, BufWriter, Write};
use std::os::fd::{AsRawFd, FromRawFd, IntoRawFd, OwnedFd};
use std::os::unix::net::UnixStream;
use std::rc::Rc;
use std::time::{Duration, Instant};

use modlearn_types::Dialect;

use crate::batch;
use crate::engine::{EngineError, EngineOptions};
use crate::local::{Booted, LocalEngine};
use crate::machine_link::Transport;
use crate::worker::channel::{read_frame, write_frame};
use crate::worker::messages::{EngineReply, EngineRequest};
use crate::worker::seal;

/// How long after modlearn was last told anything a step may start before modlearn is told (so
/// that its outer deadline starts again): far below the outer limits' slack (see
/// `client::OuterLimits`).
const FRESH_DEADLINE_AFTER: Duration = Duration::from_millis(20);

/// The descriptor the engine socket is moved to; every other one is closed.
const ENGINE_FD: i32 = 3;

pub(crate) fn serve_engine(booted: Booted, memory_limit: usize, dialect: Dialect, socket: OwnedFd, control: OwnedFd) -> ! {
    drop(control);
    let socket = keep_only(socket);
    let stream = UnixStream::from(socket);
    let writer = BufWriter::new(stream.try_clone().unwrap_or_else(|_| std::process::exit(4)));
    let mut reader = BufReader::new(stream);
    // All that does not depend on the candidate's settings happens before they come, while
    // this process may still be a spare nobody waits for: the seal, the system-call filter
    // (threads may still start; processes, files and sockets no longer), the watchdog, and a
    // first configuration whose copy-on-write faults the real one then no longer pays.
    let spare = EngineOptions { memory_limit, dialect, ..EngineOptions::default() };
    let armed = seal::seal_process(memory_limit)
        .map_err(|error| EngineError::Startup(format!("could not seal the engine process: {error}")))
        .and_then(|()| {
            seal::forbid_host_syscalls().map_err(|error| EngineError::Startup(format!("could not install the system-call filter: {error}")))
        })
        .and_then(|()| LocalEngine::from_booted(booted, spare));
    let options = match read_frame::<EngineRequest>(&mut reader) {
        Ok(Some(EngineRequest::Configure(options))) => *options,
        _ => std::process::exit(0),
    };
    let ready = armed.and_then(|mut engine| engine.configure(options).map(|()| engine));
    let reader = Rc::new(RefCell::new(reader));
    let writer = Rc::new(RefCell::new(writer));
    let mut engine = match ready {
        Ok(engine) => engine,
        Err(error) => {
            let mut writer = writer.borrow_mut();
            let _ = write_frame(&mut *writer, &EngineReply::Ready(Err(error))).and_then(|()| writer.flush());
            std::process::exit(5);
        }
    };
    engine.set_machine(machine_transport(Rc::clone(&reader), Rc::clone(&writer)));
    {
        let mut writer = writer.borrow_mut();
        if write_frame(&mut *writer, &EngineReply::Ready(Ok(()))).and_then(|()| writer.flush()).is_err() {
            std::process::exit(0);
        }
    }
    // Each reply goes out as soon as it is ready: modlearn must always know which request is
    // running (mod code can run in any, and a process killed in one fails that one and those
    // after it, not one before). Its outer deadline starts again at each frame it gets, so a
    // step that starts soon after the last frame needs no frame of its own: the outer limits
    // leave far more slack than this, and most requests are done long before.
    let told = Cell::new(Instant::now());
    let send = |reply: &EngineReply| {
        let mut writer = writer.borrow_mut();
        told.set(Instant::now());
        write_frame(&mut *writer, reply).and_then(|()| writer.flush()).is_ok()
    };
    loop {
        let Ok(Some(request)) = read_frame::<EngineRequest>(&mut *reader.borrow_mut()) else { break };
        told.set(Instant::now());
        let requests = match request {
            EngineRequest::Run(requests) => requests,
            EngineRequest::Configure(_) | EngineRequest::MachineReply(_) => {
                let refused = Err(EngineError::Host("an engine is configured once, when it starts".to_owned()));
                if send(&EngineReply::Done(refused)) {
                    continue;
                }
                break;
            }
        };
        let mut sent = true;
        let mut progress = |index: usize| {
            if told.get().elapsed() >= FRESH_DEADLINE_AFTER {
                sent &= send(&EngineReply::Step { index });
            }
        };
        batch::run_in_order(
            requests,
            |request| engine.run(request, &mut progress),
            |result| {
                // modlearn takes replies in order: one that did not go out must not let the next
                // be taken for it. Gone, this process fails the request that was running.
                if !send(&EngineReply::Done(result)) {
                    std::process::exit(0);
                }
            },
        );
        if !sent {
            break;
        }
    }
    // Exit without running destructors: the runtime's teardown is work nobody waits for.
    std::process::exit(0);
}

/// A mod's machine calls, over the engine's socket: modlearn carries them out and answers
/// before the step goes on.
fn machine_transport(reader: Rc<RefCell<BufReader<UnixStream>>>, writer: Rc<RefCell<BufWriter<UnixStream>>>) -> Transport {
    use base64::Engine as _;
    let codec = base64::engine::general_purpose::STANDARD;
    Box::new(move |packed: &[u8]| {
        let sent = {
            let mut writer = writer.borrow_mut();
            write_frame(&mut *writer, &EngineReply::Machine(codec.encode(packed))).and_then(|()| writer.flush())
        };
        if sent.is_err() {
            std::process::exit(0);
        }
        match read_frame::<EngineRequest>(&mut *reader.borrow_mut()) {
            Ok(Some(EngineRequest::MachineReply(reply))) => codec.decode(reply).unwrap_or_default(),
            // modlearn is gone, or out of step with this process: nothing can go on.
            _ => std::process::exit(0),
        }
    })
}

/// Moves `socket` to [`ENGINE_FD`], points stdio at /dev/null and closes every other descriptor.
fn keep_only(socket: OwnedFd) -> OwnedFd {
    let raw = socket.into_raw_fd();
    // SAFETY: plain descriptor calls on descriptors this process owns; failures leave them as they were.
    unsafe {
        if raw != ENGINE_FD {
            libc::dup2(raw, ENGINE_FD);
            libc::close(raw);
        }
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDWR | libc::O_CLOEXEC);
        if null >= 0 {
            for fd in 0..=2 {
                if fd != 2 || std::env::var_os("MODLEARN_WORKER_STDERR").is_none() {
                    libc::dup2(null, fd);
                }
            }
            if null > 2 {
                libc::close(null);
            }
        }
        libc::syscall(libc::SYS_close_range, ENGINE_FD as libc::c_uint + 1, libc::c_uint::MAX, 0 as libc::c_uint);
        let fd = OwnedFd::from_raw_fd(ENGINE_FD);
        debug_assert_eq!(fd.as_raw_fd(), ENGINE_FD);
        fd
    }
}
