//! The environment's built-in tools, run on the candidate's machine: Bash runs its command in a
//! real shell there (traced like every command), Read, Write and Edit are file system calls
//! there. The agent, the mod and the judge see one set of files. Results are worded as each
//! host words them.

use modlearn_engine::VIRTUAL_EPOCH_MS;
use modlearn_machine::Machine;
use modlearn_machine::protocol::{Call, MachineReply, MachineRequest, RunRequest};
use modlearn_types::Dialect;
use serde_json::{Value, json};

use super::{EnvTool, ToolCall, ToolKind};

/// How long a Bash call may run, at most (Letta's own limit is two minutes; a judge waits less).
const BASH_DEADLINE_MS: u64 = 30_000;

/// Where the session's tools act: the machine, the working directory they resolve relative
/// paths against, and the environment Bash runs with.
pub struct SessionMachine<'m> {
    /// The candidate's machine.
    pub machine: &'m Machine,
    /// The ctx's working directory.
    pub cwd: String,
    /// The environment of the agent's commands.
    pub env: Vec<(String, String)>,
}

impl SessionMachine<'_> {
    fn call(&self, request: MachineRequest, payload: &[u8]) -> (MachineReply, Vec<u8>) {
        self.machine.call(&Call { at: VIRTUAL_EPOCH_MS, request }, payload)
    }

    /// `path` as the kernel gets it: relative to the working directory.
    fn absolute(&self, path: &str) -> String {
        if path.starts_with('/') { path.to_owned() } else { format!("{}/{path}", self.cwd.trim_end_matches('/')) }
    }

    fn read(&self, path: &str) -> Result<String, String> {
        match self.call(MachineRequest::ReadFile { path: self.absolute(path) }, &[]) {
            (MachineReply::Bytes { .. }, bytes) => Ok(String::from_utf8_lossy(&bytes).into_owned()),
            (reply, _) => Err(why(&reply)),
        }
    }

    fn exists(&self, path: &str) -> bool {
        matches!(self.call(MachineRequest::Stat { path: self.absolute(path), follow: true }, &[]).0, MachineReply::Stat(_))
    }

    /// Writes `text`, making the directories above it first, as the hosts' Write tools do.
    fn write(&self, path: &str, text: &str) -> Result<(), String> {
        let absolute = self.absolute(path);
        let mut dir = String::new();
        let parts: Vec<&str> = absolute.split('/').filter(|part| !part.is_empty()).collect();
        for part in parts.iter().take(parts.len().saturating_sub(1)) {
            dir.push('/');
            dir.push_str(part);
            self.call(MachineRequest::Mkdir { path: dir.clone(), mode: 0o755 }, &[]);
        }
        let flags = libc::O_WRONLY | libc::O_CREAT | libc::O_TRUNC;
        match self.call(MachineRequest::WriteFile { path: absolute, flags, mode: 0o644 }, text.as_bytes()).0 {
            MachineReply::Done => Ok(()),
            reply => Err(why(&reply)),
        }
    }

    /// Runs `command` in bash in the working directory: its combined output and whether it failed.
    fn bash(&self, command: &str, timeout_ms: Option<u64>, via: &str) -> (bool, String) {
        let deadline_ms = timeout_ms.unwrap_or(BASH_DEADLINE_MS).clamp(1, BASH_DEADLINE_MS);
        let request = RunRequest {
            argv: vec!["/bin/bash".to_owned(), "-c".to_owned(), command.to_owned()],
            cwd: self.cwd.clone(),
            env: self.env.clone(),
            deadline_ms,
            via: via.to_owned(),
            line: command.to_owned(),
        };
        match self.call(MachineRequest::Run(request), &[]) {
            (MachineReply::Ran(outcome), output) => {
                let failed = outcome.exit_code != Some(0);
                let mut text = String::from_utf8_lossy(&output).into_owned();
                if failed && text.ends_with('\n') {
                    text.pop();
                }
                if outcome.timed_out {
                    text.push_str(&format!("\nCommand timed out after {deadline_ms} ms"));
                } else if let Some(signal) = &outcome.signal {
                    text.push_str(&format!("\nCommand was killed by {signal}"));
                } else if let Some(code) = outcome.exit_code.filter(|code| *code != 0) {
                    text.push_str(&format!("\nExit code {code}"));
                }
                (failed, text)
            }
            (reply, _) => (true, why(&reply)),
        }
    }
}

/// A failed call, as a tool's error text.
fn why(reply: &MachineReply) -> String {
    match reply {
        MachineReply::Failed { code, syscall } => format!("{code}: {}", describe(code, syscall)),
        MachineReply::Unavailable { reason } => format!("the machine is unavailable: {reason}"),
        other => format!("unexpected reply from the machine: {other:?}"),
    }
}

fn describe(code: &str, syscall: &str) -> String {
    let text = match code {
        "ENOENT" => "no such file or directory",
        "EACCES" => "permission denied",
        "EISDIR" => "illegal operation on a directory",
        "ENOTDIR" => "not a directory",
        "EROFS" => "read-only file system",
        "ENOSPC" => "no space left on device",
        other => other,
    };
    format!("{text}, {syscall}")
}

/// A finished tool execution: `success` or `error`, and the output text.
pub(super) struct Executed {
    pub(super) status: &'static str,
    pub(super) output: String,
    /// What the tool did, for the trace (`{"command": ...}`, `{"wrote": ...}`).
    pub(super) effect: Value,
}

fn failed(dialect: Dialect, message: String) -> Executed {
    // Letta and DSH prefix a failed tool's text with `Error: `; Pi hands the model the bare message.
    let output = if dialect == Dialect::Pi { message } else { format!("Error: {message}") };
    Executed { status: "error", output, effect: Value::Null }
}

/// How a host names the file tools' arguments (Pi's `path`/`oldText`/`newText`, DSH's and
/// Letta's `file_path`/`old_string`/`new_string`).
struct Names {
    path: &'static str,
    old: &'static str,
    new: &'static str,
    replace_all: Option<&'static str>,
}

fn names(dialect: Dialect) -> Names {
    match dialect {
        Dialect::Pi => Names { path: "path", old: "oldText", new: "newText", replace_all: None },
        Dialect::Letta | Dialect::Dsh => {
            Names { path: "file_path", old: "old_string", new: "new_string", replace_all: Some("replace_all") }
        }
    }
}

/// Runs an environment tool with the effective `args` on the machine, as the environment's host
/// words it. A script step's `output` (and `status`) fix what the agent is told; the command
/// still runs.
pub(super) fn execute(tool: &EnvTool, call: &ToolCall, args: &Value, on: &SessionMachine<'_>, dialect: Dialect) -> Executed {
    let text = |key: &str| args.get(key).and_then(Value::as_str);
    let needs = |key: &str| format!("{} needs a string `{key}`", tool.name);
    let names = names(dialect);
    match tool.kind {
        ToolKind::Bash => {
            let Some(command) = text("command") else { return failed(dialect, needs("command")) };
            let timeout = args.get("timeout").and_then(Value::as_u64);
            let (failed_run, ran) = on.bash(command, timeout, &format!("{} tool", tool.name));
            let scripted = call.output.clone().or_else(|| (!tool.default_output.is_empty()).then(|| tool.default_output.clone()));
            let status = match call.status.as_deref() {
                Some("error") => "error",
                Some(_) => "success",
                None if scripted.is_some() => "success",
                None if failed_run => "error",
                None => "success",
            };
            let effect = json!({ "command": command, "executed": true, "output": ran });
            Executed { status, output: scripted.unwrap_or(ran), effect }
        }
        ToolKind::Read => {
            let Some(path) = text(names.path) else { return failed(dialect, needs(names.path)) };
            let contents = match on.read(path) {
                Ok(contents) => contents,
                Err(why) if why.starts_with("ENOENT") => return failed(dialect, format!("file not found: {path}")),
                Err(why) => return failed(dialect, why),
            };
            let offset = args.get("offset").and_then(Value::as_u64).unwrap_or(1).max(1) as usize;
            let limit = args.get("limit").and_then(Value::as_u64).map_or(usize::MAX, |limit| limit as usize);
            let lines: Vec<&str> = contents.lines().skip(offset - 1).take(limit).collect();
            Executed { status: "success", output: lines.join("\n"), effect: json!({ "read": on.absolute(path) }) }
        }
        ToolKind::Write => {
            let (Some(path), Some(content)) = (text(names.path), text("content")) else {
                return failed(dialect, format!("{} needs string `{}` and `content`", tool.name, names.path));
            };
            let created = !on.exists(path);
            if let Err(why) = on.write(path, content) {
                return failed(dialect, why);
            }
            let output = match dialect {
                Dialect::Letta => format!("{} {path}", if created { "Created" } else { "Overwrote" }),
                Dialect::Pi => format!("Successfully wrote {} bytes to {path}", content.chars().count()),
                Dialect::Dsh => {
                    format!(
                        "<path>{path}</path>\n<type>file</type>\n<content>\n{} file\n</content>",
                        if created { "Created" } else { "Updated" }
                    )
                }
            };
            Executed { status: "success", output, effect: json!({ "wrote": on.absolute(path) }) }
        }
        ToolKind::Edit => edit(tool, args, on, dialect, &names),
    }
}

fn edit(tool: &EnvTool, args: &Value, on: &SessionMachine<'_>, dialect: Dialect, names: &Names) -> Executed {
    let text = |key: &str| args.get(key).and_then(Value::as_str);
    let (Some(path), Some(old), Some(new)) = (text(names.path), text(names.old), text(names.new)) else {
        return failed(dialect, format!("{} needs string `{}`, `{}` and `{}`", tool.name, names.path, names.old, names.new));
    };
    let contents = match on.read(path) {
        Ok(contents) => contents,
        Err(why) if why.starts_with("ENOENT") => return failed(dialect, format!("file not found: {path}")),
        Err(why) => return failed(dialect, why),
    };
    let count = if old.is_empty() { 0 } else { contents.matches(old).count() };
    let replace_all = names.replace_all.and_then(|key| args.get(key)).and_then(Value::as_bool).unwrap_or(false);
    if count == 0 {
        return failed(
            dialect,
            match dialect {
                Dialect::Letta => format!("`old_string` was not found in {path}"),
                Dialect::Pi => format!(
                    "Could not find the exact text in {path}. The old text must match exactly including all whitespace and newlines."
                ),
                Dialect::Dsh => format!("old_string was not found in \"{path}\""),
            },
        );
    }
    if count > 1 && !replace_all {
        return failed(
            dialect,
            match dialect {
                Dialect::Letta => format!("`old_string` occurs {count} times in {path}; give more context or set `replace_all`"),
                Dialect::Pi => format!(
                    "Found {count} occurrences of the text in {path}. The text must be unique. Please provide more context to make it unique."
                ),
                Dialect::Dsh => {
                    format!("old_string matched {count} times in \"{path}\"; provide a more specific old_string or set replace_all to true")
                }
            },
        );
    }
    if let Err(why) = on.write(path, &contents.replace(old, new)) {
        return failed(dialect, why);
    }
    let output = match dialect {
        Dialect::Letta => format!("Edited {path} ({count} replacement(s))"),
        Dialect::Pi => format!("Successfully replaced text in {path}."),
        Dialect::Dsh if replace_all => format!("The file {path} has been updated. All occurrences were successfully replaced."),
        Dialect::Dsh => format!("The file {path} has been updated successfully."),
    };
    Executed { status: "success", output, effect: json!({ "edited": on.absolute(path) }) }
}
