//! Integration tests of `modlearn-spec`, one binary for faster builds.

mod bad_specs;
mod envs;
mod letta_envs;
mod resolve;
mod schema;

use std::path::{Path, PathBuf};

/// Writes `contents` to `name` in a fresh temporary directory, so tests load real files.
fn write_spec(name: &str, contents: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join(name);
    std::fs::write(&path, contents).expect("spec written");
    (dir, path)
}

/// `path` relative to this crate, which is where cargo runs tests from.
fn crate_relative(path: &Path) -> PathBuf {
    path.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap_or(path).to_path_buf()
}
