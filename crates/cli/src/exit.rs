//! Exit codes, one meaning each.

use std::process::ExitCode;

/// Success: the selected candidate passes, the spec is valid.
pub const SUCCESS: u8 = 0;
/// The run completed but no candidate passes (or a check failed).
pub const FAILURE: u8 = 1;
/// Bad input: a usage error, an invalid spec, a missing file.
pub const USAGE: u8 = 2;
/// Nothing could be judged: no candidate had code to evaluate (the model's API unreachable or
/// failing every request, answers without code); for `compare` and `merge`, a job whose
/// proposals could not be obtained. Not the same as "judged, and none passes" (1).
pub const NOT_JUDGED: u8 = 3;

/// A user-facing error: a message, optional hints, and its exit code.
#[derive(Debug)]
pub struct CliError {
    /// One line saying what is wrong, naming the file or flag.
    pub message: String,
    /// Further lines (e.g. every problem in a spec).
    pub details: Vec<String>,
    /// What the user can do about it.
    pub hints: Vec<String>,
    /// The exit code.
    pub code: u8,
}

impl CliError {
    /// A bad-input error (exit 2).
    pub fn usage(message: impl Into<String>) -> CliError {
        CliError { message: message.into(), details: Vec::new(), hints: Vec::new(), code: USAGE }
    }

    /// Adds a hint line.
    pub fn hint(mut self, hint: impl Into<String>) -> CliError {
        self.hints.push(hint.into());
        self
    }

    /// Prints the error in the `error:` / `hint:` form and returns its exit code.
    pub fn report(&self) -> ExitCode {
        let mut text = format!("error: {}\n", self.message);
        for detail in &self.details {
            text.push_str(detail);
            text.push('\n');
        }
        if !self.hints.is_empty() {
            text.push('\n');
            for hint in &self.hints {
                text.push_str(&format!("hint: {hint}\n"));
            }
        }
        eprint!("{text}");
        ExitCode::from(self.code)
    }
}

impl From<modlearn_spec::SpecError> for CliError {
    fn from(error: modlearn_spec::SpecError) -> CliError {
        let rendered = error.to_string();
        let mut lines = rendered.lines();
        let message = lines.next().unwrap_or("invalid spec").to_owned();
        let unreadable = error.problems.iter().any(|problem| problem.path.is_none() && problem.message.starts_with("failed to read"));
        let hint = if unreadable {
            "check the spec's path; specs/ holds the project's own specs"
        } else {
            "`modlearn schema` prints the spec format; skills/writing-specs/SKILL.md explains it"
        };
        CliError { message, details: lines.map(str::to_owned).collect(), hints: vec![hint.to_owned()], code: USAGE }
    }
}

impl From<modlearn_spec::EnvError> for CliError {
    fn from(error: modlearn_spec::EnvError) -> CliError {
        let rendered = error.to_string();
        let mut lines = rendered.lines();
        let message = lines.next().unwrap_or("invalid environment").to_owned();
        let hint = "envs/README.md describes environments; `envs/coding-agent/env.json` is the default";
        CliError { message, details: lines.map(str::to_owned).collect(), hints: vec![hint.to_owned()], code: USAGE }
    }
}

impl From<modlearn_record::WriteError> for CliError {
    fn from(error: modlearn_record::WriteError) -> CliError {
        CliError { message: error.to_string(), details: Vec::new(), hints: Vec::new(), code: FAILURE }
    }
}
