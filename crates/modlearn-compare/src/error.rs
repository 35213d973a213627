//! The errors a comparison can end with.

use modlearn_record::WriteError;

/// What went wrong, and whether it was the user's input (exit 2) or the
/// machine's (a failed write, exit 1).
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    /// Bad input: flags, specs, shard directories that do not belong together.
    #[error("{message}")]
    Usage {
        /// One line naming the flag, file or directory.
        message: String,
        /// What the user can do about it.
        hints: Vec<String>,
    },
    /// A file could not be written.
    #[error(transparent)]
    Write(#[from] WriteError),
}

impl CompareError {
    /// A bad-input error.
    pub fn usage(message: impl Into<String>) -> CompareError {
        CompareError::Usage { message: message.into(), hints: Vec::new() }
    }

    /// Adds a hint (bad-input errors only).
    pub fn hint(mut self, hint: impl Into<String>) -> CompareError {
        if let CompareError::Usage { hints, .. } = &mut self {
            hints.push(hint.into());
        }
        self
    }
}
