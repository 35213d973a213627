use std::io::Write;
use std::path::{Path, PathBuf};

/// A file that could not be written, with its path.
#[derive(Debug, thiserror::Error)]
#[error("failed to write `{}`: {source}", path.display())]
pub struct WriteError {
    /// The file.
    pub path: PathBuf,
    /// What went wrong.
    #[source]
    pub source: std::io::Error,
}

/// Writes `contents` to `path` atomically, creating parent directories.
pub fn write_atomic(path: &Path, contents: impl AsRef<[u8]>) -> Result<(), WriteError> {
    let fail = |source| WriteError { path: path.to_path_buf(), source };
    let dir = path.parent().filter(|dir| !dir.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(fail)?;
    let mut builder = tempfile::Builder::new();
    builder.prefix(".modlearn-");
    // A temporary file is created 0600; reports are for others to read too
    // (0644 less the umask, as a plain write would give).
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o644));
    let mut file = builder.tempfile_in(dir).map_err(fail)?;
    // The rename makes the write all-or-nothing for a killed process; no
    // fsync: it would cost more than the evaluation itself.
    file.write_all(contents.as_ref()).map_err(fail)?;
    file.persist(path).map_err(|error| fail(error.error))?;
    Ok(())
}

/// Copies `from` to `to` atomically.
pub fn copy_atomic(from: &Path, to: &Path) -> Result<(), WriteError> {
    let contents = std::fs::read(from).map_err(|source| WriteError { path: from.to_path_buf(), source })?;
    write_atomic(to, contents)
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn written_files_are_readable_by_others() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("report.md");
        super::write_atomic(&path, "# report\n").unwrap();
        // Under the usual umask 022; tempfile's own default would give 0600.
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o644);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "# report\n");
    }
}
