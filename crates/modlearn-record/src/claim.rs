//! A run directory has one writer: [`claim_run_dir`] takes an exclusive
//! lock on it for as long as the claim lives, and refuses, before any work,
//! a directory that is not the caller's to write: a file, a non-empty
//! directory that is not a run this command may continue, or one another
//! modlearn process is writing.

use std::fs::{File, OpenOptions};
use std::io;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};

/// The lock file inside a claimed run directory.
pub const LOCK_FILE: &str = ".modlearn.lock";

/// What the caller may find in the directory and still write there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Continuing {
    /// A new run: the directory must be absent or empty.
    Nothing,
    /// A resumed `modlearn run`: the directory must hold its `run.json` and no `report.json`.
    Run,
}

/// Why a run directory cannot be claimed.
#[derive(Debug, thiserror::Error)]
pub enum ClaimError {
    /// The path exists and is not a directory.
    #[error("run directory `{}` is not a directory", .0.display())]
    NotADirectory(PathBuf),
    /// Another modlearn process holds the lock.
    #[error("run directory `{}` is being written by another modlearn process", .0.display())]
    Busy(PathBuf),
    /// A new run was asked for in a directory that holds files.
    #[error("run directory `{}` is not empty", .0.display())]
    NotEmpty(PathBuf),
    /// A resume was asked for in a directory that holds no run to continue.
    #[error("run directory `{}` holds no unfinished run to continue", .0.display())]
    NothingToContinue(PathBuf),
    /// The directory or its lock could not be made.
    #[error("cannot use run directory `{}`: {source}", path.display())]
    Io {
        /// The directory.
        path: PathBuf,
        /// What failed.
        source: io::Error,
    },
}

/// A claimed run directory; the lock is released when this is dropped.
#[derive(Debug)]
pub struct RunDirClaim {
    _lock: File,
}

/// Claims `dir` for one writer (see the module docs).
pub fn claim_run_dir(dir: &Path, continuing: Continuing) -> Result<RunDirClaim, ClaimError> {
    let io_error = |source| ClaimError::Io { path: dir.to_path_buf(), source };
    match std::fs::symlink_metadata(dir) {
        Ok(metadata) if !metadata.is_dir() => return Err(ClaimError::NotADirectory(dir.to_path_buf())),
        Ok(_) => {}
        Err(error) if error.kind() == io::ErrorKind::NotFound => std::fs::create_dir_all(dir).map_err(io_error)?,
        Err(error) => return Err(io_error(error)),
    }
    let lock = OpenOptions::new().create(true).truncate(false).write(true).open(dir.join(LOCK_FILE)).map_err(io_error)?;
    // SAFETY: flock on a descriptor this function owns.
    if unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
        let error = io::Error::last_os_error();
        if error.kind() == io::ErrorKind::WouldBlock {
            return Err(ClaimError::Busy(dir.to_path_buf()));
        }
        return Err(io_error(error));
    }
    let mut others = std::fs::read_dir(dir).map_err(io_error)?.filter_map(Result::ok).filter(|entry| entry.file_name() != LOCK_FILE);
    match continuing {
        Continuing::Nothing if others.next().is_some() => return Err(ClaimError::NotEmpty(dir.to_path_buf())),
        Continuing::Run if !dir.join("run.json").is_file() || dir.join("report.json").exists() => {
            return Err(ClaimError::NothingToContinue(dir.to_path_buf()));
        }
        _ => {}
    }
    Ok(RunDirClaim { _lock: lock })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_writer_is_refused_until_the_first_is_done() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path().join("run");
        let first = claim_run_dir(&dir, Continuing::Nothing).unwrap();
        assert!(matches!(claim_run_dir(&dir, Continuing::Nothing), Err(ClaimError::Busy(_))));
        drop(first);
        // Released, and still empty but for the lock: a new run may start there.
        claim_run_dir(&dir, Continuing::Nothing).unwrap();
    }

    #[test]
    fn files_and_foreign_directories_are_refused() {
        let temp = tempfile::tempdir().unwrap();
        let file = temp.path().join("file");
        std::fs::write(&file, "x").unwrap();
        assert!(matches!(claim_run_dir(&file, Continuing::Nothing), Err(ClaimError::NotADirectory(_))));
        let full = temp.path().join("full");
        std::fs::create_dir(&full).unwrap();
        std::fs::write(full.join("report.md"), "mine").unwrap();
        assert!(matches!(claim_run_dir(&full, Continuing::Nothing), Err(ClaimError::NotEmpty(_))));
        assert!(matches!(claim_run_dir(&full, Continuing::Run), Err(ClaimError::NothingToContinue(_))));
        std::fs::write(full.join("run.json"), "{}").unwrap();
        claim_run_dir(&full, Continuing::Run).unwrap();
        assert_eq!(std::fs::read_to_string(full.join("report.md")).unwrap(), "mine");
    }
}
