//! The helper: modlearn's own binary, started by bubblewrap as the sandbox's PID 1. It builds
//! the machine's tree, then carries out the mod's file system calls and commands one at a time,
//! traces every program that runs, and takes the tree's snapshots. Nothing a command runs can
//! signal it (a namespace's init takes no signal it did not ask for from inside), read its
//! memory or trace it (it is not dumpable).

mod command;
mod files;
mod identity;
mod limits;
mod seccomp;
mod setup;
mod trace;

use std::io::{BufReader, BufWriter, Read};
use std::os::fd::FromRawFd;
use std::os::unix::net::UnixStream;

use crate::plan::{HOME, SHM, is_nested_workspace};
use crate::protocol::{MachineReply, MachineRequest, read_message, write_message};
use crate::sandbox::{EXECUTABLE_FD, SOCKET_FD};
use crate::tree;
use crate::wire::{HELPER_ARGUMENT, HelperReply, HelperRequest};

/// When this process was started as a machine's helper, serves it and never returns; otherwise
/// returns at once. Call it first thing in `main`, before anything starts a thread.
pub fn serve_if_helper() {
    if std::env::args().nth(1).as_deref() != Some(HELPER_ARGUMENT) {
        return;
    }
    std::process::exit(serve());
}

fn serve() -> i32 {
    // SAFETY: process-wide settings of this single-threaded process, before anything else runs.
    unsafe {
        libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0);
        libc::close(EXECUTABLE_FD);
        libc::umask(0o022);
        if std::env::var_os("MODLEARN_MACHINE_STDERR").is_none() {
            let null = libc::open(c"/dev/null".as_ptr(), libc::O_WRONLY);
            if null >= 0 {
                libc::dup2(null, 2);
                libc::close(null);
            }
        }
    }
    // SAFETY: modlearn hands the socket over on this descriptor, and nothing else uses it.
    let stream = unsafe { UnixStream::from_raw_fd(SOCKET_FD) };
    let Ok(writer) = stream.try_clone() else { return 3 };
    let mut reader = BufReader::new(stream);
    let mut writer = BufWriter::new(writer);
    let signals = match command::child_signals() {
        Ok(signals) => signals,
        Err(error) => {
            let _ = write_message(&mut writer, &HelperReply::SetupFailed(format!("no signal descriptor: {error}")), &[]);
            return 3;
        }
    };
    let filters = match seccomp::Filters::new() {
        Ok(filters) => filters,
        Err(error) => {
            let _ = write_message(&mut writer, &HelperReply::SetupFailed(format!("no system call filter: {error}")), &[]);
            return 3;
        }
    };
    let setup = match read_message::<HelperRequest>(&mut reader) {
        Ok(Some((HelperRequest::Setup(setup), _))) => setup,
        _ => return 2,
    };
    let workspace = setup.plan.workspace.path.clone();
    let mut roots = vec![HOME, "/tmp", SHM];
    if !is_nested_workspace(&workspace) {
        roots.insert(0, workspace.as_str());
    }
    limits::set_writable(roots.iter().map(|root| (*root).to_owned()).collect());
    let ready = match setup::build(&setup.plan, setup.epoch_ms) {
        Ok(()) => HelperReply::Ready(tree::walk(&roots)),
        Err(why) => HelperReply::SetupFailed(why),
    };
    if write_message(&mut writer, &ready, &[]).is_err() {
        return 0;
    }
    let mut handles = files::Handles::default();
    while let Ok(Some((request, payload))) = read_message::<HelperRequest>(&mut reader) {
        let (reply, payload) = match request {
            HelperRequest::Call(call) => {
                let (reply, payload) = match &call.request {
                    MachineRequest::Run(run) => {
                        let (outcome, output) = command::run(run, &payload, &signals, &filters);
                        (MachineReply::Ran(Box::new(outcome)), output)
                    }
                    request => files::call(request, &payload, &mut handles, call.at),
                };
                (HelperReply::Reply(reply), payload)
            }
            HelperRequest::Snapshot => {
                // Nothing runs while the tree is walked, so nothing changes between two walks.
                limits::kill_everything_else();
                (HelperReply::Snapshot(tree::walk(&roots)), Vec::new())
            }
            HelperRequest::Read { paths, each, total } => read_starts(&paths, each, total),
            HelperRequest::Setup(_) => break,
        };
        if write_message(&mut writer, &reply, &payload).is_err() {
            break;
        }
    }
    0
}

/// The start of each regular file of `paths`: at most `each` bytes of one, `total` of all.
fn read_starts(paths: &[String], each: usize, total: usize) -> (HelperReply, Vec<u8>) {
    use std::os::unix::fs::OpenOptionsExt;
    let mut bytes = Vec::new();
    let mut lengths = Vec::with_capacity(paths.len());
    let mut sizes = Vec::with_capacity(paths.len());
    for path in paths {
        let opened = std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK).open(path);
        let file = opened.ok().filter(|file| file.metadata().is_ok_and(|metadata| metadata.is_file()));
        let Some(file) = file else {
            lengths.push(None);
            sizes.push(0);
            continue;
        };
        sizes.push(file.metadata().map_or(0, |metadata| metadata.len()));
        let room = each.min(total.saturating_sub(bytes.len()));
        let before = bytes.len();
        let _ = file.take(room as u64).read_to_end(&mut bytes);
        lengths.push(Some(bytes.len() - before));
    }
    (HelperReply::Read { lengths, sizes }, bytes)
}
