//! The environment's simulated tools. Bash records the command and answers with the call's output
//! or the environment's default; Read, Write and Edit work on an in-memory copy of the scenario
//! directory, mounted at the session's cwd. Nothing touches the host machine.

use std::collections::BTreeMap;

use modlearn_types::Dialect;
use serde_json::{Value, json};

use super::{EnvTool, ToolCall, ToolKind};

/// The scenario directory: seeded from `memoryFiles`, confined to its root.
#[derive(Clone, Debug, Default)]
pub struct ScenarioDir {
    root: String,
    files: BTreeMap<String, String>,
}

impl ScenarioDir {
    /// A directory mounted at `root` (an absolute path such as `/workspace`) holding `files`.
    pub fn new(root: &str, files: &[(String, String)]) -> ScenarioDir {
        let root = root.trim_end_matches('/').to_owned();
        let mut dir = ScenarioDir { root, files: BTreeMap::new() };
        for (path, contents) in files {
            if let Ok(key) = dir.resolve(path) {
                dir.files.insert(key, contents.clone());
            }
        }
        dir
    }

    /// Where the directory is mounted.
    pub fn root(&self) -> &str {
        &self.root
    }

    /// The files, by path relative to the root.
    pub fn files(&self) -> Vec<(String, String)> {
        self.files.iter().map(|(path, contents)| (path.clone(), contents.clone())).collect()
    }

    /// The path relative to the root, or why it is outside: relative paths resolve against the
    /// root, absolute ones must lie inside it, and `..` may not climb out.
    pub fn resolve(&self, path: &str) -> Result<String, String> {
        let relative = if path.starts_with('/') {
            match path.strip_prefix(&self.root).filter(|rest| rest.is_empty() || rest.starts_with('/')) {
                Some(rest) => rest.trim_start_matches('/'),
                None => return Err(format!("`{path}` is outside the scenario directory {}", self.root)),
            }
        } else {
            path
        };
        let mut parts: Vec<&str> = Vec::new();
        for part in relative.split('/') {
            match part {
                "" | "." => {}
                ".." => {
                    if parts.pop().is_none() {
                        return Err(format!("`{path}` climbs out of the scenario directory {}", self.root));
                    }
                }
                part => parts.push(part),
            }
        }
        if parts.is_empty() {
            return Err(format!("`{path}` names the scenario directory itself, not a file"));
        }
        Ok(parts.join("/"))
    }
}

/// A finished tool execution: `success` or `error`, and the output text.
pub(super) struct Executed {
    pub(super) status: &'static str,
    pub(super) output: String,
    /// What the simulation did, for the trace (`{"command": ...}`, `{"wrote": ...}`).
    pub(super) effect: Value,
}

fn failed(dialect: Dialect, message: String) -> Executed {
    // Letta and DSH prefix a failed tool's text with `Error: `; Pi hands the model the bare message.
    let output = if dialect == Dialect::Pi { message } else { format!("Error: {message}") };
    Executed { status: "error", output, effect: Value::Null }
}

/// How a host names the file tools' arguments (Pi 0.58.3's `path`/`oldText`/`newText`, DSH's and
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

/// Runs an environment tool with the effective `args`, as the environment's host words it.
pub(super) fn execute(tool: &EnvTool, call: &ToolCall, args: &Value, dir: &mut ScenarioDir, dialect: Dialect) -> Executed {
    let text = |key: &str| args.get(key).and_then(Value::as_str);
    let needs = |key: &str| format!("{} needs a string `{key}`", tool.name);
    let names = names(dialect);
    match tool.kind {
        ToolKind::Bash => {
            let Some(command) = text("command") else { return failed(dialect, needs("command")) };
            let status = if call.status.as_deref() == Some("error") { "error" } else { "success" };
            let output = call.output.clone().unwrap_or_else(|| tool.default_output.clone());
            Executed { status, output, effect: json!({ "command": command, "executed": false }) }
        }
        ToolKind::Read => {
            let Some(path) = text(names.path) else { return failed(dialect, needs(names.path)) };
            let key = match dir.resolve(path) {
                Ok(key) => key,
                Err(why) => return failed(dialect, why),
            };
            let Some(contents) = dir.files.get(&key) else { return failed(dialect, format!("file not found: {path}")) };
            let offset = args.get("offset").and_then(Value::as_u64).unwrap_or(1).max(1) as usize;
            let limit = args.get("limit").and_then(Value::as_u64).map_or(usize::MAX, |limit| limit as usize);
            let lines: Vec<&str> = contents.lines().skip(offset - 1).take(limit).collect();
            Executed { status: "success", output: lines.join("\n"), effect: json!({ "read": key }) }
        }
        ToolKind::Write => {
            let (Some(path), Some(content)) = (text(names.path), text("content")) else {
                return failed(dialect, format!("{} needs string `{}` and `content`", tool.name, names.path));
            };
            match dir.resolve(path) {
                Ok(key) => {
                    let created = dir.files.insert(key.clone(), content.to_owned()).is_none();
                    let output = match dialect {
                        Dialect::Letta => format!("{} {path}", if created { "Created" } else { "Overwrote" }),
                        Dialect::Pi => format!("Successfully wrote {} bytes to {path}", content.chars().count()),
                        Dialect::Dsh => format!(
                            "<path>{path}</path>\n<type>file</type>\n<content>\n{} file\n</content>",
                            if created { "Created" } else { "Updated" }
                        ),
                    };
                    Executed { status: "success", output, effect: json!({ "wrote": key }) }
                }
                Err(why) => failed(dialect, why),
            }
        }
        ToolKind::Edit => edit(tool, args, dir, dialect, &names),
    }
}

fn edit(tool: &EnvTool, args: &Value, dir: &mut ScenarioDir, dialect: Dialect, names: &Names) -> Executed {
    let text = |key: &str| args.get(key).and_then(Value::as_str);
    let (Some(path), Some(old), Some(new)) = (text(names.path), text(names.old), text(names.new)) else {
        return failed(dialect, format!("{} needs string `{}`, `{}` and `{}`", tool.name, names.path, names.old, names.new));
    };
    let key = match dir.resolve(path) {
        Ok(key) => key,
        Err(why) => return failed(dialect, why),
    };
    let Some(contents) = dir.files.get_mut(&key) else { return failed(dialect, format!("file not found: {path}")) };
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
    *contents = contents.replace(old, new);
    let output = match dialect {
        Dialect::Letta => format!("Edited {path} ({count} replacement(s))"),
        Dialect::Pi => format!("Successfully replaced text in {path}."),
        Dialect::Dsh if replace_all => format!("The file {path} has been updated. All occurrences were successfully replaced."),
        Dialect::Dsh => format!("The file {path} has been updated successfully."),
    };
    Executed { status: "success", output, effect: json!({ "edited": key }) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_inside_the_scenario_directory() {
        let dir = ScenarioDir::new("/workspace/", &[]);
        assert_eq!(dir.resolve("notes/a.md").unwrap(), "notes/a.md");
        assert_eq!(dir.resolve("/workspace/./notes/../b.md").unwrap(), "b.md");
        assert!(dir.resolve("../etc/passwd").unwrap_err().contains("climbs out"));
        assert!(dir.resolve("/etc/passwd").unwrap_err().contains("outside"));
        assert!(dir.resolve("/workspaces/x").unwrap_err().contains("outside"));
        assert!(dir.resolve("/workspace").unwrap_err().contains("itself"));
    }
}
