use std::path::{Path, PathBuf};

/// Where a run's files go. One candidate: everything at the top of the run
/// directory. Several: each candidate under `candidates/NNN/`, with the
/// run-level report, history and guide at the top (Letta's layout).
#[derive(Clone, Debug)]
pub struct RunLayout {
    root: PathBuf,
    nested: bool,
}

impl RunLayout {
    /// The layout for `candidate_count` candidates under `root`.
    pub fn new(root: impl Into<PathBuf>, candidate_count: usize) -> RunLayout {
        RunLayout { root: root.into(), nested: candidate_count > 1 }
    }

    /// The run directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Candidate `index`'s directory, relative to the run directory (`""` when flat).
    pub fn candidate_relative(&self, index: usize) -> String {
        if self.nested { format!("candidates/{:03}", index + 1) } else { String::new() }
    }

    /// Candidate `index`'s directory.
    pub fn candidate_dir(&self, index: usize) -> PathBuf {
        self.root.join(self.candidate_relative(index))
    }

    /// A run-level file.
    pub fn file(&self, name: &str) -> PathBuf {
        self.root.join(name)
    }
}
