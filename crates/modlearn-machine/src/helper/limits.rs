//! What a machine may hold at once, and how the helper looks. The kernel enforces what it can
//! (processes, file size, open files: resource limits on every command); the helper looks at the
//! rest while a command runs (memory, files made) and stops the command past a cap, and refuses
//! a mod's own calls that would make files past it.

use std::sync::OnceLock;

/// Processes and threads the machine may have alive at once (the helper among them). The kernel
/// counts them per user namespace, so each machine has its own count.
pub(crate) const PROCESS_LIMIT: u64 = 256;
/// Resident memory a command's processes may hold together.
pub(crate) const MEMORY_LIMIT: u64 = 2 << 30;
/// The largest file a command may write.
pub(crate) const FILE_SIZE_LIMIT: u64 = 256 << 20;
/// Files, directories and links the machine's writable file systems may hold together. Each
/// costs the host kernel memory that no size limit of an in-memory file system counts.
pub(crate) const INODE_LIMIT: u64 = 100_000;

/// The writable file systems, by a path on each; set once the machine is built.
static WRITABLE: OnceLock<Vec<String>> = OnceLock::new();

/// Records the writable file systems' paths (one per mount).
pub(crate) fn set_writable(paths: Vec<String>) {
    let _ = WRITABLE.set(paths);
}

/// Files, directories and links on the writable file systems now.
pub(crate) fn inodes_used() -> u64 {
    let Some(paths) = WRITABLE.get() else { return 0 };
    paths
        .iter()
        .filter_map(|path| {
            let path = std::ffi::CString::new(path.as_str()).ok()?;
            // SAFETY: statvfs writes into a zeroed struct of its own type; path is a C string.
            let mut stats: libc::statvfs = unsafe { std::mem::zeroed() };
            (unsafe { libc::statvfs(path.as_ptr(), &mut stats) } == 0).then(|| stats.f_files.saturating_sub(stats.f_ffree))
        })
        .sum()
}

/// Whether the machine holds as many files as it may: what would make one more fails with
/// `ENOSPC`, as on a file system out of inodes.
pub(crate) fn inodes_full() -> bool {
    inodes_used() >= INODE_LIMIT
}

/// Resident memory of every process in the sandbox but the helper, in bytes. /proc lists
/// processes (not their threads), so memory a process's threads share counts once.
pub(crate) fn resident() -> u64 {
    let Ok(entries) = std::fs::read_dir("/proc") else { return 0 };
    let pages: u64 = entries
        .filter_map(Result::ok)
        .filter_map(|entry| entry.file_name().to_str().and_then(|name| name.parse::<u32>().ok()))
        .filter(|pid| *pid != std::process::id())
        .filter_map(|pid| std::fs::read_to_string(format!("/proc/{pid}/statm")).ok())
        .filter_map(|statm| statm.split_whitespace().nth(1).and_then(|pages| pages.parse::<u64>().ok()))
        .sum();
    pages * 4096
}

/// Sends SIGKILL to every process in the machine but the helper (the PID namespace's init,
/// which `kill(-1)` spares), traced or not.
pub(crate) fn signal_everything_else() {
    // SAFETY: kill(-1) signals every process this one may signal in its PID namespace, never
    // itself.
    unsafe { libc::kill(-1, libc::SIGKILL) };
}

/// Kills every process in the machine but the helper and reaps them, waiting (a moment at most)
/// until none is left: between commands nothing of the machine runs.
pub(crate) fn kill_everything_else() {
    let me = std::process::id();
    for _ in 0..500 {
        signal_everything_else();
        // SAFETY: waitpid with WNOHANG reaps without blocking.
        while unsafe { libc::waitpid(-1, std::ptr::null_mut(), libc::WNOHANG | libc::__WALL) } > 0 {}
        let others = std::fs::read_dir("/proc")
            .into_iter()
            .flatten()
            .filter_map(Result::ok)
            .any(|entry| entry.file_name().to_str().and_then(|name| name.parse::<u32>().ok()).is_some_and(|pid| pid != me));
        if !others {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}
