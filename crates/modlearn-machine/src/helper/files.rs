//! The file system calls a mod makes, made for it inside the sandbox: the kernel resolves every
//! path in the sandbox's own mount namespace, so links, `..` and `/proc/self/root` lead where
//! they lead for the mod's commands too, and nowhere outside the machine.

use std::collections::BTreeMap;
use std::ffi::CString;
use std::fs::{self, File};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{FileExt, MetadataExt, PermissionsExt};

use crate::helper::limits;
use crate::protocol::{DirEntry, FileStat, MachineReply, MachineRequest};

/// The most bytes one whole-file read returns (Node's own limit is 2 GiB; the machine's
/// file systems are far smaller than that anyway).
const MAX_READ: u64 = 32 << 20;
/// The most files a mod may hold open at once.
const MAX_HANDLES: usize = 1024;

/// Files a mod opened, by the handle it was given.
#[derive(Default)]
pub(crate) struct Handles {
    open: BTreeMap<u32, File>,
    next: u32,
}

/// The outcome of a call: a reply, and the payload that goes with it.
pub(crate) type Answered = (MachineReply, Vec<u8>);

fn done() -> Answered {
    (MachineReply::Done, Vec::new())
}

/// `error` as the reply to `syscall`, named as Node names errno values.
pub(crate) fn failed(error: &io::Error, syscall: &str) -> Answered {
    let code = error.raw_os_error().map_or_else(|| "EIO".to_owned(), errno_name);
    (MachineReply::Failed { code, syscall: syscall.to_owned() }, Vec::new())
}

fn failed_code(code: &str, syscall: &str) -> Answered {
    (MachineReply::Failed { code: code.to_owned(), syscall: syscall.to_owned() }, Vec::new())
}

/// The name of an errno value (`ENOENT`), as Node's `error.code` has it.
pub(crate) fn errno_name(errno: i32) -> String {
    let name = match errno {
        libc::EPERM => "EPERM",
        libc::ENOENT => "ENOENT",
        libc::EIO => "EIO",
        libc::E2BIG => "E2BIG",
        libc::ENOEXEC => "ENOEXEC",
        libc::EBADF => "EBADF",
        libc::EAGAIN => "EAGAIN",
        libc::ENOMEM => "ENOMEM",
        libc::EACCES => "EACCES",
        libc::EBUSY => "EBUSY",
        libc::EEXIST => "EEXIST",
        libc::EXDEV => "EXDEV",
        libc::ENOTDIR => "ENOTDIR",
        libc::EISDIR => "EISDIR",
        libc::EINVAL => "EINVAL",
        libc::EMFILE => "EMFILE",
        libc::ENFILE => "ENFILE",
        libc::ETXTBSY => "ETXTBSY",
        libc::EFBIG => "EFBIG",
        libc::ENOSPC => "ENOSPC",
        libc::ESPIPE => "ESPIPE",
        libc::EROFS => "EROFS",
        libc::EMLINK => "EMLINK",
        libc::EPIPE => "EPIPE",
        libc::ENAMETOOLONG => "ENAMETOOLONG",
        libc::ENOTEMPTY => "ENOTEMPTY",
        libc::ELOOP => "ELOOP",
        libc::EDQUOT => "EDQUOT",
        libc::EOPNOTSUPP => "ENOTSUP",
        _ => return format!("E{errno}"),
    };
    name.to_owned()
}

fn c_path(path: &str) -> Result<CString, Answered> {
    CString::new(path).map_err(|_| failed_code("EINVAL", "open"))
}

/// Milliseconds since the epoch, with the fraction Node shows.
fn millis(seconds: i64, nanos: i64) -> f64 {
    seconds as f64 * 1000.0 + nanos as f64 / 1_000_000.0
}

pub(crate) fn file_stat(metadata: &fs::Metadata) -> FileStat {
    let birth = metadata
        .created()
        .ok()
        .and_then(|time| time.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or_else(|| millis(metadata.ctime(), metadata.ctime_nsec()), |since| since.as_secs_f64() * 1000.0);
    FileStat {
        dev: metadata.dev(),
        ino: metadata.ino(),
        mode: metadata.mode(),
        nlink: metadata.nlink(),
        uid: metadata.uid(),
        gid: metadata.gid(),
        rdev: metadata.rdev(),
        size: metadata.size(),
        blksize: metadata.blksize(),
        blocks: metadata.blocks(),
        atime_ms: millis(metadata.atime(), metadata.atime_nsec()),
        mtime_ms: millis(metadata.mtime(), metadata.mtime_nsec()),
        ctime_ms: millis(metadata.ctime(), metadata.ctime_nsec()),
        birthtime_ms: birth,
    }
}

/// The kind of a directory entry or file, as [`DirEntry::kind`] names it.
pub(crate) fn kind_name(file_type: fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if file_type.is_symlink() {
        "symlink"
    } else if file_type.is_dir() {
        "dir"
    } else if file_type.is_file() {
        "file"
    } else if file_type.is_fifo() {
        "fifo"
    } else if file_type.is_socket() {
        "socket"
    } else if file_type.is_char_device() {
        "char"
    } else {
        "block"
    }
}

/// Sets a path's access and modification times (`at`, the virtual clock, for files the mod
/// writes: a stat shows the time the mod's own clock showed when it wrote).
pub(crate) fn set_times(path: &str, atime_ms: f64, mtime_ms: f64, follow: bool) -> io::Result<()> {
    let path = CString::new(path).map_err(|_| io::Error::from_raw_os_error(libc::EINVAL))?;
    let spec = |ms: f64| {
        let nanos = (ms * 1_000_000.0).round() as i128;
        libc::timespec { tv_sec: nanos.div_euclid(1_000_000_000) as i64, tv_nsec: nanos.rem_euclid(1_000_000_000) as i64 }
    };
    let times = [spec(atime_ms), spec(mtime_ms)];
    let flags = if follow { 0 } else { libc::AT_SYMLINK_NOFOLLOW };
    // SAFETY: path is a valid C string and times an array of two timespecs.
    if unsafe { libc::utimensat(libc::AT_FDCWD, path.as_ptr(), times.as_ptr(), flags) } == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Opens as `open(2)` with `flags` and `mode` does (close-on-exec added: no command the machine
/// runs inherits a mod's open file), except that it never waits: a FIFO or socket, which would
/// keep the helper waiting for a peer that nothing runs to be, answers `EAGAIN`.
fn open_with(path: &str, flags: i32, mode: u32) -> io::Result<File> {
    use std::os::fd::{AsRawFd, FromRawFd};
    use std::os::unix::fs::FileTypeExt;
    let path = CString::new(path).map_err(|_| io::Error::from_raw_os_error(libc::EINVAL))?;
    if flags & libc::O_CREAT != 0 && limits::inodes_full() {
        return Err(io::Error::from_raw_os_error(libc::ENOSPC));
    }
    // SAFETY: path is a valid C string; open takes the mode as a variadic unsigned int.
    let fd = unsafe { libc::open(path.as_ptr(), flags | libc::O_CLOEXEC | libc::O_NONBLOCK, mode as libc::c_uint) };
    if fd < 0 {
        let error = io::Error::last_os_error();
        // A FIFO opened for writing with no reader.
        return Err(if error.raw_os_error() == Some(libc::ENXIO) { io::Error::from_raw_os_error(libc::EAGAIN) } else { error });
    }
    // SAFETY: open succeeded, so fd is a descriptor this process owns.
    let file = unsafe { File::from_raw_fd(fd) };
    let file_type = file.metadata()?.file_type();
    if file_type.is_fifo() || file_type.is_socket() {
        return Err(io::Error::from_raw_os_error(libc::EAGAIN));
    }
    if flags & libc::O_NONBLOCK == 0 {
        // SAFETY: fcntl on the descriptor just opened.
        unsafe { libc::fcntl(file.as_raw_fd(), libc::F_SETFL, libc::fcntl(file.as_raw_fd(), libc::F_GETFL) & !libc::O_NONBLOCK) };
    }
    Ok(file)
}

/// `ENOSPC` when the machine holds all the files it may (before a call that makes one).
fn room_for_one(syscall: &str) -> Result<(), Answered> {
    if limits::inodes_full() { Err(failed(&io::Error::from_raw_os_error(libc::ENOSPC), syscall)) } else { Ok(()) }
}

fn read_all(mut file: File) -> Result<Vec<u8>, Answered> {
    let metadata = file.metadata().map_err(|error| failed(&error, "fstat"))?;
    if metadata.is_dir() {
        return Err(failed_code("EISDIR", "read"));
    }
    let mut bytes = Vec::new();
    (&mut file).take(MAX_READ + 1).read_to_end(&mut bytes).map_err(|error| failed(&error, "read"))?;
    if bytes.len() as u64 > MAX_READ {
        return Err(failed_code("ERR_FS_FILE_TOO_LARGE", "read"));
    }
    Ok(bytes)
}

/// Carries out one file system call (every request but `Run`). `at` is the virtual time the
/// times of what the mod writes are set to.
pub(crate) fn call(request: &MachineRequest, payload: &[u8], handles: &mut Handles, at: f64) -> Answered {
    let stamp = |path: &str| {
        let _ = set_times(path, at, at, false);
    };
    match request {
        MachineRequest::Stat { path, follow } => {
            let metadata = if *follow { fs::metadata(path) } else { fs::symlink_metadata(path) };
            match metadata {
                Ok(metadata) => (MachineReply::Stat(Box::new(file_stat(&metadata))), Vec::new()),
                Err(error) => failed(&error, if *follow { "stat" } else { "lstat" }),
            }
        }
        MachineRequest::ReadFile { path } => {
            match open_with(path, libc::O_RDONLY, 0).map_err(|error| failed(&error, "open")).and_then(read_all) {
                Ok(bytes) => (MachineReply::Bytes { count: bytes.len() as u64 }, bytes),
                Err(answer) => answer,
            }
        }
        MachineRequest::WriteFile { path, flags, mode } => {
            let mut file = match open_with(path, *flags, *mode) {
                Ok(file) => file,
                Err(error) => return failed(&error, "open"),
            };
            if let Err(error) = file.write_all(payload) {
                return failed(&error, "write");
            }
            drop(file);
            stamp(path);
            done()
        }
        MachineRequest::Readdir { path } => match fs::read_dir(path) {
            Ok(entries) => {
                let mut listed = Vec::new();
                for entry in entries {
                    match entry.and_then(|entry| Ok((entry.file_name(), entry.file_type()?))) {
                        Ok((name, file_type)) => listed.push(DirEntry {
                            name: String::from_utf8_lossy(name.as_bytes()).into_owned(),
                            kind: kind_name(file_type).to_owned(),
                        }),
                        Err(error) => return failed(&error, "scandir"),
                    }
                }
                // The order a directory lists in is the file system's; a tmpfs lists newest first,
                // so sorting gives every run (and every host) the same order.
                listed.sort_by(|a, b| a.name.cmp(&b.name));
                (MachineReply::Entries { entries: listed }, Vec::new())
            }
            Err(error) => failed(&error, "scandir"),
        },
        MachineRequest::Mkdir { path, mode } => {
            use std::os::unix::fs::DirBuilderExt;
            if let Err(answer) = room_for_one("mkdir") {
                return answer;
            }
            match fs::DirBuilder::new().mode(*mode).create(path) {
                Ok(()) => {
                    stamp(path);
                    done()
                }
                Err(error) => failed(&error, "mkdir"),
            }
        }
        MachineRequest::Rmdir { path } => fs::remove_dir(path).map_or_else(|error| failed(&error, "rmdir"), |()| done()),
        MachineRequest::Unlink { path } => fs::remove_file(path).map_or_else(|error| failed(&error, "unlink"), |()| done()),
        MachineRequest::RemoveTree { path } => remove_tree(path),
        MachineRequest::Rename { from, to } => fs::rename(from, to).map_or_else(|error| failed(&error, "rename"), |()| done()),
        MachineRequest::Symlink { .. } if let Err(answer) = room_for_one("symlink") => answer,
        MachineRequest::Link { existing, path } => fs::hard_link(existing, path).map_or_else(|error| failed(&error, "link"), |()| done()),
        MachineRequest::Symlink { target, path } => match std::os::unix::fs::symlink(target, path) {
            Ok(()) => {
                stamp(path);
                done()
            }
            Err(error) => failed(&error, "symlink"),
        },
        MachineRequest::Readlink { path } => match fs::read_link(path) {
            Ok(target) => (MachineReply::Path { path: String::from_utf8_lossy(target.as_os_str().as_bytes()).into_owned() }, Vec::new()),
            Err(error) => failed(&error, "readlink"),
        },
        MachineRequest::Realpath { path } => match fs::canonicalize(path) {
            Ok(real) => (MachineReply::Path { path: String::from_utf8_lossy(real.as_os_str().as_bytes()).into_owned() }, Vec::new()),
            Err(error) => failed(&error, "realpath"),
        },
        MachineRequest::Chmod { path, mode } => {
            fs::set_permissions(path, fs::Permissions::from_mode(*mode)).map_or_else(|error| failed(&error, "chmod"), |()| done())
        }
        MachineRequest::Utimes { path, atime_ms, mtime_ms, follow } => {
            set_times(path, *atime_ms, *mtime_ms, *follow).map_or_else(|error| failed(&error, "utime"), |()| done())
        }
        MachineRequest::Truncate { path, length } => match open_with(path, libc::O_WRONLY, 0).and_then(|file| file.set_len(*length)) {
            Ok(()) => {
                stamp(path);
                done()
            }
            Err(error) => failed(&error, "open"),
        },
        MachineRequest::Access { path, mode } => {
            let path = match c_path(path) {
                Ok(path) => path,
                Err(answer) => return answer,
            };
            // SAFETY: path is a valid C string.
            if unsafe { libc::access(path.as_ptr(), *mode as i32) } == 0 { done() } else { failed(&io::Error::last_os_error(), "access") }
        }
        MachineRequest::CopyFile { from, to, exclusive } => copy_file(from, to, *exclusive, &stamp),
        MachineRequest::Open { path, flags, mode } => {
            if handles.open.len() >= MAX_HANDLES {
                return failed_code("EMFILE", "open");
            }
            match open_with(path, *flags, *mode) {
                Ok(file) => {
                    handles.next = handles.next.wrapping_add(1).max(1);
                    let handle = handles.next;
                    handles.open.insert(handle, file);
                    (MachineReply::Handle { handle }, Vec::new())
                }
                Err(error) => failed(&error, "open"),
            }
        }
        MachineRequest::Read { handle, length, position } => {
            let Some(file) = handles.open.get_mut(handle) else { return failed_code("EBADF", "read") };
            let mut bytes = vec![0u8; (*length).min(MAX_READ) as usize];
            let read = match position {
                Some(position) => file.read_at(&mut bytes, *position),
                None => file.read(&mut bytes),
            };
            match read {
                Ok(count) => {
                    bytes.truncate(count);
                    (MachineReply::Bytes { count: count as u64 }, bytes)
                }
                Err(error) => failed(&error, "read"),
            }
        }
        MachineRequest::Write { handle, position } => {
            let Some(file) = handles.open.get_mut(handle) else { return failed_code("EBADF", "write") };
            let written = match position {
                Some(position) => file.write_at(payload, *position),
                None => file.write(payload),
            };
            match written {
                Ok(count) => (MachineReply::Bytes { count: count as u64 }, Vec::new()),
                Err(error) => failed(&error, "write"),
            }
        }
        MachineRequest::Close { handle } => match handles.open.remove(handle) {
            Some(_) => done(),
            None => failed_code("EBADF", "close"),
        },
        MachineRequest::Fstat { handle } => match handles.open.get(handle).map(File::metadata) {
            Some(Ok(metadata)) => (MachineReply::Stat(Box::new(file_stat(&metadata))), Vec::new()),
            Some(Err(error)) => failed(&error, "fstat"),
            None => failed_code("EBADF", "fstat"),
        },
        MachineRequest::Ftruncate { handle, length } => match handles.open.get(handle).map(|file| file.set_len(*length)) {
            Some(Ok(())) => done(),
            Some(Err(error)) => failed(&error, "ftruncate"),
            None => failed_code("EBADF", "ftruncate"),
        },
        MachineRequest::Run(_) => failed_code("EINVAL", "spawn"),
    }
}

/// Removes a file, link or whole directory (never through a link), as `rm -r` does.
fn remove_tree(path: &str) -> Answered {
    match fs::symlink_metadata(path) {
        Ok(metadata) if metadata.is_dir() => fs::remove_dir_all(path).map_or_else(|error| failed(&error, "rm"), |()| done()),
        Ok(_) => fs::remove_file(path).map_or_else(|error| failed(&error, "rm"), |()| done()),
        Err(error) => failed(&error, "lstat"),
    }
}

fn copy_file(from: &str, to: &str, exclusive: bool, stamp: &dyn Fn(&str)) -> Answered {
    let mut source = match open_with(from, libc::O_RDONLY, 0) {
        Ok(file) => file,
        Err(error) => return failed(&error, "copyfile"),
    };
    let metadata = match source.metadata() {
        Ok(metadata) if metadata.is_dir() => return failed_code("EISDIR", "copyfile"),
        Ok(metadata) => metadata,
        Err(error) => return failed(&error, "copyfile"),
    };
    let flags = libc::O_WRONLY | libc::O_CREAT | libc::O_TRUNC | if exclusive { libc::O_EXCL } else { 0 };
    let mut target = match open_with(to, flags, metadata.mode() & 0o7777) {
        Ok(file) => file,
        Err(error) => return failed(&error, "copyfile"),
    };
    let copied = source.seek(SeekFrom::Start(0)).and_then(|_| io::copy(&mut source, &mut target));
    if let Err(error) = copied.and_then(|_| target.set_permissions(fs::Permissions::from_mode(metadata.mode() & 0o7777))) {
        return failed(&error, "copyfile");
    }
    drop(target);
    stamp(to);
    done()
}
