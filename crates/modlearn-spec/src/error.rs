//! What loading reports: every problem and warning, each with its JSON path and source position.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;

/// One reason a spec cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SpecProblem {
    /// JSON path of the offending value, such as `evaluation.scenarios[2].assertions[0].toolName`;
    /// `None` for the file as a whole (unreadable, empty, malformed).
    pub path: Option<String>,
    /// 1-based line of the value (or of its key, or of the object missing a field), when known.
    pub line: Option<usize>,
    /// 1-based column, in characters, alongside `line`.
    pub column: Option<usize>,
    /// What is wrong, without the path: `missing field`, ``invalid type: integer `3`, expected a
    /// string``.
    pub message: String,
}

/// Something that does not stop a spec from loading but is probably a mistake.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SpecWarning {
    /// JSON path of the value concerned.
    pub path: String,
    /// 1-based line of the value (or of its key), when known.
    pub line: Option<usize>,
    /// 1-based column, in characters, alongside `line`.
    pub column: Option<usize>,
    /// What looks wrong, such as `unknown field`.
    pub message: String,
}

/// A spec file that could not be loaded, with every problem found in it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", render(path, problems))]
pub struct SpecError {
    /// The spec file, as it was given.
    pub path: PathBuf,
    /// Every problem, in source order; never empty.
    pub problems: Vec<SpecProblem>,
    /// Warnings found alongside the problems; an unknown field often explains a missing one.
    pub warnings: Vec<SpecWarning>,
}

impl fmt::Display for SpecProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_located(f, self.path.as_deref(), &self.message, self.line, self.column)
    }
}

impl fmt::Display for SpecWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_located(f, Some(&self.path), &self.message, self.line, self.column)
    }
}

fn write_located(f: &mut fmt::Formatter<'_>, path: Option<&str>, message: &str, line: Option<usize>, column: Option<usize>) -> fmt::Result {
    if let Some(path) = path {
        write!(f, "{path}: ")?;
    }
    f.write_str(message)?;
    match (line, column) {
        (Some(line), Some(column)) => write!(f, " at line {line} column {column}"),
        (Some(line), None) => write!(f, " at line {line}"),
        _ => Ok(()),
    }
}

fn render(path: &Path, problems: &[SpecProblem]) -> String {
    let mut rendered = format!("invalid spec `{}`", path.display());
    for problem in problems {
        rendered.push_str(&format!("\n  - {problem}"));
    }
    rendered
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_one_problem_per_line() {
        let error = SpecError {
            path: PathBuf::from("specs/x.json"),
            problems: vec![
                SpecProblem {
                    path: Some("evaluation.scenarios[2].assertions[0].toolName".into()),
                    line: Some(40),
                    column: Some(11),
                    message: "missing field".into(),
                },
                SpecProblem { path: None, line: None, column: None, message: "file is empty".into() },
            ],
            warnings: Vec::new(),
        };
        assert_eq!(
            error.to_string(),
            "invalid spec `specs/x.json`\n  \
             - evaluation.scenarios[2].assertions[0].toolName: missing field at line 40 column 11\n  \
             - file is empty"
        );
    }
}
