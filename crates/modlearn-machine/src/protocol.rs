//! What a candidate's engine (and the harness's own session tools) ask of the machine, and what
//! they get back: system calls on files, and commands. The same JSON goes from the engine's
//! JavaScript (`js/machine.js`) through the engine to [`crate::Machine`], and from there to the
//! helper inside the sandbox. A message is a header (JSON) and a payload (bytes: a file's data, a
//! command's input or output), framed as [`write_message`] writes them.

use std::io::{self, Read, Write};

use modlearn_types::ProgramRun;
use serde::{Deserialize, Serialize};

/// One request, with the engine's virtual time (what the machine stamps on files the mod
/// writes, and the time commands see).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Call {
    /// Virtual time, ms since the epoch.
    pub at: f64,
    /// What to do.
    pub request: MachineRequest,
}

/// A system call on the machine's files, or a command. Paths are absolute paths inside the
/// machine (the engine joins a relative one to its working directory, as the kernel would);
/// the kernel inside the sandbox resolves them, symbolic links and `..` included.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "camelCase", rename_all_fields = "camelCase")]
// The fields are the system calls' own arguments.
#[allow(missing_docs)]
pub enum MachineRequest {
    /// `stat`, or `lstat` when `follow` is false.
    Stat { path: String, follow: bool },
    /// A whole file's bytes (the reply's payload).
    ReadFile { path: String },
    /// Opens with `flags` (Linux `O_*` bits), writes the payload, closes.
    WriteFile { path: String, flags: i32, mode: u32 },
    /// A directory's entries with their kinds.
    Readdir { path: String },
    /// One directory.
    Mkdir { path: String, mode: u32 },
    /// `rmdir`.
    Rmdir { path: String },
    /// `unlink`.
    Unlink { path: String },
    /// A file, link or directory and everything under it (links are removed, never followed).
    RemoveTree { path: String },
    /// `rename`.
    Rename { from: String, to: String },
    /// `link` (a hard link).
    Link { existing: String, path: String },
    /// `symlink`.
    Symlink { target: String, path: String },
    /// `readlink`.
    Readlink { path: String },
    /// The path with every link resolved.
    Realpath { path: String },
    /// `chmod`.
    Chmod { path: String, mode: u32 },
    /// `utimensat`, through a last link or not.
    Utimes { path: String, atime_ms: f64, mtime_ms: f64, follow: bool },
    /// `truncate`.
    Truncate { path: String, length: u64 },
    /// `access` with `mode` (`F_OK`, `R_OK`, `W_OK`, `X_OK` bits).
    Access { path: String, mode: u32 },
    /// Copies a file's bytes and mode; with `exclusive` the target must not exist.
    CopyFile { from: String, to: String, exclusive: bool },
    /// Opens a file; the reply's handle names it until [`MachineRequest::Close`].
    Open { path: String, flags: i32, mode: u32 },
    /// Up to `length` bytes from a handle, at `position` or where it stands.
    Read { handle: u32, length: u64, position: Option<u64> },
    /// Writes the payload to a handle, at `position` or where it stands.
    Write { handle: u32, position: Option<u64> },
    /// Closes a handle.
    Close { handle: u32 },
    /// `fstat`.
    Fstat { handle: u32 },
    /// `ftruncate`.
    Ftruncate { handle: u32, length: u64 },
    /// Runs a command; the payload is its standard input.
    Run(RunRequest),
}

/// A command to run: a program and its arguments (a shell line is `["/bin/sh", "-c", line]`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunRequest {
    /// The program (looked up on the environment's `PATH` when it has no slash) and its arguments.
    pub argv: Vec<String>,
    /// Working directory.
    pub cwd: String,
    /// The whole environment the program gets (the machine adds only what fixes its clock).
    pub env: Vec<(String, String)>,
    /// Wall-clock milliseconds the command may take before its processes are killed.
    pub deadline_ms: u64,
    /// How it was started (`execSync`, `spawn`, the Bash tool), for the record.
    pub via: String,
    /// The command as its caller wrote it, for the record.
    pub line: String,
}

/// What a request got.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "reply", rename_all = "camelCase", rename_all_fields = "camelCase")]
#[allow(missing_docs)]
pub enum MachineReply {
    /// Done, nothing to say.
    Done,
    /// `stat`'s answer.
    Stat(Box<FileStat>),
    /// A directory's entries.
    Entries { entries: Vec<DirEntry> },
    /// A path (`readlink`, `realpath`).
    Path { path: String },
    /// An open file.
    Handle { handle: u32 },
    /// Bytes written, or read (then the payload holds them).
    Bytes { count: u64 },
    /// A command ended (or could not start); the payload is its output, stdout then stderr.
    Ran(Box<RunOutcome>),
    /// The system call failed with `code` (`ENOENT`, ...).
    Failed { code: String, syscall: String },
    /// There is no machine: the sandbox cannot start here, and why.
    Unavailable { reason: String },
}

/// `stat`'s fields, as Node's `Stats` has them (times in ms since the epoch).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct FileStat {
    pub dev: u64,
    pub ino: u64,
    pub mode: u32,
    pub nlink: u64,
    pub uid: u32,
    pub gid: u32,
    pub rdev: u64,
    pub size: u64,
    pub blksize: u64,
    pub blocks: u64,
    pub atime_ms: f64,
    pub mtime_ms: f64,
    pub ctime_ms: f64,
    pub birthtime_ms: f64,
}

/// A directory entry and its kind (`file`, `dir`, `symlink`, `fifo`, `socket`, `char`, `block`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[allow(missing_docs)]
pub struct DirEntry {
    pub name: String,
    pub kind: String,
}

/// How a command ended.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunOutcome {
    /// Exit code, when it exited.
    pub exit_code: Option<i32>,
    /// The signal that ended it (`SIGKILL`, ...), when one did.
    pub signal: Option<String>,
    /// Why it never started (`ENOENT`, `EACCES`): the program was not found or not runnable.
    pub spawn_error: Option<String>,
    /// Killed at its deadline.
    pub timed_out: bool,
    /// Bytes of the payload that are standard output; the rest is standard error.
    pub stdout_bytes: u64,
    /// Output past the capture's cap was dropped.
    pub output_cut: bool,
    /// Every program that ran, in order (kept by the machine's record; not sent to the engine).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub programs: Vec<ProgramRun>,
    /// Why the trace may not show everything it did (the record's; not sent to the engine).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub incomplete: Option<String>,
}

/// The largest header either side accepts (a command's argv and environment, a snapshot of
/// the tree at its cap of paths).
pub const MAX_HEADER: usize = 64 << 20;
/// The largest payload either side accepts (a file's bytes, a command's output).
pub const MAX_PAYLOAD: usize = 64 << 20;

/// Writes a header and payload as one message: each as a little-endian `u32` length and bytes.
pub fn write_message<T: Serialize>(stream: &mut impl Write, header: &T, payload: &[u8]) -> io::Result<()> {
    let header = serde_json::to_vec(header).map_err(io::Error::other)?;
    if header.len() > MAX_HEADER || payload.len() > MAX_PAYLOAD {
        return Err(io::Error::other(format!("a message of {} + {} bytes is over the machine's bounds", header.len(), payload.len())));
    }
    let mut message = Vec::with_capacity(header.len() + payload.len() + 8);
    message.extend_from_slice(&(header.len() as u32).to_le_bytes());
    message.extend_from_slice(&header);
    message.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    message.extend_from_slice(payload);
    stream.write_all(&message)?;
    stream.flush()
}

/// Reads one message; `Ok(None)` at a clean end of stream.
pub fn read_message<T: for<'de> Deserialize<'de>>(stream: &mut impl Read) -> io::Result<Option<(T, Vec<u8>)>> {
    let mut length = [0u8; 4];
    match stream.read_exact(&mut length) {
        Ok(()) => {}
        Err(error) if error.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(error) => return Err(error),
    }
    let header = read_bounded(stream, u32::from_le_bytes(length) as usize, MAX_HEADER)?;
    stream.read_exact(&mut length)?;
    let payload = read_bounded(stream, u32::from_le_bytes(length) as usize, MAX_PAYLOAD)?;
    let header = serde_json::from_slice(&header).map_err(io::Error::other)?;
    Ok(Some((header, payload)))
}

fn read_bounded(stream: &mut impl Read, length: usize, bound: usize) -> io::Result<Vec<u8>> {
    if length > bound {
        return Err(io::Error::other(format!("a message part of {length} bytes is over the bound of {bound}")));
    }
    let mut bytes = vec![0u8; length];
    stream.read_exact(&mut bytes)?;
    Ok(bytes)
}

/// A header and payload as one buffer (the engine's op hands JavaScript one): the header's
/// length as a little-endian `u32`, the header, then the payload.
pub fn pack<T: Serialize>(header: &T, payload: &[u8]) -> Vec<u8> {
    let header = serde_json::to_vec(header).unwrap_or_else(|_| b"null".to_vec());
    let mut packed = Vec::with_capacity(header.len() + payload.len() + 4);
    packed.extend_from_slice(&(header.len() as u32).to_le_bytes());
    packed.extend_from_slice(&header);
    packed.extend_from_slice(payload);
    packed
}

/// Splits a [`pack`]ed buffer into its header and payload.
pub fn unpack<T: for<'de> Deserialize<'de>>(packed: &[u8]) -> Result<(T, &[u8]), String> {
    let length = packed.get(..4).ok_or("a machine message shorter than its length")?;
    let length = u32::from_le_bytes(length.try_into().map_err(|_| "a machine message's length")?) as usize;
    let header = packed.get(4..4 + length).ok_or("a machine message shorter than its header")?;
    let header = serde_json::from_slice(header).map_err(|error| format!("a machine message's header: {error}"))?;
    Ok((header, &packed[4 + length..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_round_trip_and_refuse_what_is_too_large() {
        let call = Call { at: 1.5, request: MachineRequest::Stat { path: "/workspace".into(), follow: false } };
        let mut bytes = Vec::new();
        write_message(&mut bytes, &call, b"data").unwrap();
        let (read, payload): (Call, Vec<u8>) = read_message(&mut bytes.as_slice()).unwrap().unwrap();
        assert_eq!((read, payload.as_slice()), (call.clone(), b"data".as_slice()));
        assert!(read_message::<Call>(&mut [].as_slice()).unwrap().is_none());
        let huge = (MAX_HEADER as u32 + 1).to_le_bytes();
        assert!(read_message::<Call>(&mut huge.as_slice()).is_err());
        let packed = pack(&call, b"xyz");
        let (unpacked, payload): (Call, &[u8]) = unpack(&packed).unwrap();
        assert_eq!((unpacked, payload), (call, b"xyz".as_slice()));
        assert!(unpack::<Call>(&packed[..6]).is_err());
    }

    #[test]
    fn requests_are_tagged_as_the_engine_writes_them() {
        let request: MachineRequest = serde_json::from_str(r#"{"op":"copyFile","from":"/a","to":"/b","exclusive":true}"#).unwrap();
        assert_eq!(request, MachineRequest::CopyFile { from: "/a".into(), to: "/b".into(), exclusive: true });
        let reply = serde_json::to_value(MachineReply::Failed { code: "ENOENT".into(), syscall: "open".into() }).unwrap();
        assert_eq!(reply, serde_json::json!({ "reply": "failed", "code": "ENOENT", "syscall": "open" }));
    }
}
