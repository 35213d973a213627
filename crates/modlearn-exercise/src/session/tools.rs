//! The environment's simulated tools. Bash records the command and answers with the call's output
//! or the environment's default; Read, Write and Edit work on an in-memory copy of the scenario
//! directory, mounted at the session's cwd. Nothing touches the host machine.

use std::collections::BTreeMap;

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

fn failed(message: String) -> Executed {
    Executed { status: "error", output: format!("Error: {message}"), effect: Value::Null }
}

/// Runs an environment tool with the effective `args`.
pub(super) fn execute(tool: &EnvTool, call: &ToolCall, args: &Value, dir: &mut ScenarioDir) -> Executed {
    let text = |key: &str| args.get(key).and_then(Value::as_str);
    let needs = |key: &str| format!("{} needs a string `{key}`", tool.name);
    match tool.kind {
        ToolKind::Bash => {
            let Some(command) = text("command") else { return failed(needs("command")) };
            let status = if call.status.as_deref() == Some("error") { "error" } else { "success" };
            let output = call.output.clone().unwrap_or_else(|| tool.default_output.clone());
            Executed { status, output, effect: json!({ "command": command, "executed": false }) }
        }
        ToolKind::Read => {
            let Some(path) = text("file_path") else { return failed(needs("file_path")) };
            let key = match dir.resolve(path) {
                Ok(key) => key,
                Err(why) => return failed(why),
            };
            let Some(contents) = dir.files.get(&key) else { return failed(format!("file not found: {path}")) };
            let offset = args.get("offset").and_then(Value::as_u64).unwrap_or(1).max(1) as usize;
            let limit = args.get("limit").and_then(Value::as_u64).map_or(usize::MAX, |limit| limit as usize);
            let lines: Vec<&str> = contents.lines().skip(offset - 1).take(limit).collect();
            Executed { status: "success", output: lines.join("\n"), effect: json!({ "read": key }) }
        }
        ToolKind::Write => {
            let (Some(path), Some(content)) = (text("file_path"), text("content")) else {
                return failed(format!("{} needs string `file_path` and `content`", tool.name));
            };
            match dir.resolve(path) {
                Ok(key) => {
                    let created = dir.files.insert(key.clone(), content.to_owned()).is_none();
                    let verb = if created { "Created" } else { "Overwrote" };
                    Executed { status: "success", output: format!("{verb} {path}"), effect: json!({ "wrote": key }) }
                }
                Err(why) => failed(why),
            }
        }
        ToolKind::Edit => edit(tool, args, dir),
    }
}

fn edit(tool: &EnvTool, args: &Value, dir: &mut ScenarioDir) -> Executed {
    let text = |key: &str| args.get(key).and_then(Value::as_str);
    let (Some(path), Some(old), Some(new)) = (text("file_path"), text("old_string"), text("new_string")) else {
        return failed(format!("{} needs string `file_path`, `old_string` and `new_string`", tool.name));
    };
    let key = match dir.resolve(path) {
        Ok(key) => key,
        Err(why) => return failed(why),
    };
    let Some(contents) = dir.files.get_mut(&key) else { return failed(format!("file not found: {path}")) };
    let count = if old.is_empty() { 0 } else { contents.matches(old).count() };
    let replace_all = args.get("replace_all").and_then(Value::as_bool).unwrap_or(false);
    if count == 0 {
        return failed(format!("`old_string` was not found in {path}"));
    }
    if count > 1 && !replace_all {
        return failed(format!("`old_string` occurs {count} times in {path}; give more context or set `replace_all`"));
    }
    *contents = contents.replace(old, new);
    Executed { status: "success", output: format!("Edited {path} ({count} replacement(s))"), effect: json!({ "edited": key }) }
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
