//! The seed of an engine's virtual world: what `node:fs`, `process.env` and
//! `node:child_process` find (see `js/world.js`).

use std::collections::BTreeMap;

use modlearn_types::DialogAnswer;
use serde::{Deserialize, Serialize};

/// Files, environment and scripted commands of the virtual machine a mod runs on.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorldSeed {
    /// File texts by path; relative paths are under the working directory (ctx `cwd`).
    pub files: BTreeMap<String, String>,
    /// Environment variables, over the defaults (`HOME`, `USER`, `PATH`, ...). The host's own
    /// environment never reaches a mod.
    pub env: BTreeMap<String, String>,
    /// Scripted answers of `node:child_process`, first match wins.
    pub commands: Vec<ScriptedCommand>,
    /// What any other command prints (exit 0), like the environment's Bash tool's
    /// `defaultOutput`; `None`: the program is not found (exit 127).
    pub default_output: Option<String>,
    /// How the person at the keyboard answers dialogs; `None`: nobody is there (headless).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dialogs: Option<Vec<DialogAnswer>>,
}

/// One scripted command answer.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScriptedCommand {
    /// The command line (trimmed, compared exactly), or a regular expression when `regex`.
    pub pattern: String,
    /// Whether `pattern` is a regular expression (JavaScript syntax).
    pub regex: bool,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
    /// Exit code.
    pub exit_code: i32,
}
