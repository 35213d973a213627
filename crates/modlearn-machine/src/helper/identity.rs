//! What a program is, told from the file the kernel ran rather than from its name: a program
//! under `/usr` is the machine's own (that file system is read-only, so its names cannot lie);
//! any other file (a copy in `/tmp`, a program held only in memory) is compared byte for byte
//! with the machine's programs of the same size, and is the one it equals, or none.

use std::collections::HashMap;
use std::fs::File;
use std::io::Read;
use std::os::unix::fs::MetadataExt;
use std::path::PathBuf;
use std::sync::OnceLock;

use modlearn_types::ProgramOrigin;

/// Where the machine's programs are, first place first (a copy is named after the first equal).
const PROGRAM_DIRS: &[&str] = &["/usr/local/bin", "/usr/bin", "/usr/sbin", "/usr/lib/git-core", "/usr/libexec"];
/// The largest file compared; a larger one is none of the machine's programs as far as the
/// record goes.
const COMPARED_LIMIT: u64 = 256 << 20;

/// The origin of the program process `pid` just started from `path` (its `/proc/PID/exe`).
pub(crate) fn origin(pid: i32, path: &str) -> ProgramOrigin {
    let exe = format!("/proc/{pid}/exe");
    let Ok(running) = std::fs::metadata(&exe) else { return ProgramOrigin::Made };
    if path.starts_with("/usr/")
        && let Ok(named) = std::fs::metadata(path)
        && (named.dev(), named.ino()) == (running.dev(), running.ino())
    {
        return ProgramOrigin::System;
    }
    if running.len() > COMPARED_LIMIT {
        return ProgramOrigin::Made;
    }
    let Ok(bytes) = read(&exe, running.len()) else { return ProgramOrigin::Made };
    let equal = programs_of_size(running.len())
        .iter()
        .find(|program| read(&program.to_string_lossy(), running.len()).is_ok_and(|theirs| theirs == bytes));
    match equal {
        Some(program) => ProgramOrigin::CopyOf { program: program.to_string_lossy().into_owned() },
        None => ProgramOrigin::Made,
    }
}

fn read(path: &str, size: u64) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::with_capacity(size as usize);
    File::open(path)?.take(COMPARED_LIMIT).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// The machine's programs of `size` bytes, in [`PROGRAM_DIRS`] order.
fn programs_of_size(size: u64) -> &'static [PathBuf] {
    static BY_SIZE: OnceLock<HashMap<u64, Vec<PathBuf>>> = OnceLock::new();
    let by_size = BY_SIZE.get_or_init(|| {
        let mut by_size: HashMap<u64, Vec<PathBuf>> = HashMap::new();
        for dir in PROGRAM_DIRS {
            let Ok(entries) = std::fs::read_dir(dir) else { continue };
            let mut paths: Vec<PathBuf> = entries.filter_map(Result::ok).map(|entry| entry.path()).collect();
            paths.sort();
            for path in paths {
                if let Ok(metadata) = std::fs::metadata(&path)
                    && metadata.is_file()
                    && metadata.mode() & 0o111 != 0
                {
                    by_size.entry(metadata.len()).or_default().push(path);
                }
            }
        }
        by_size
    });
    by_size.get(&size).map_or(&[], Vec::as_slice)
}
