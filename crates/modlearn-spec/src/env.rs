//! Simulated agent environments (`envs/<name>/env.json`): the tools a scripted session offers
//! besides the candidate's own, the capability profile and the ctx values every mod callback
//! sees. Loaded like specs: every problem is reported with its JSON path and line.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use modlearn_types::Dialect;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::{SpecProblem, SpecWarning};
use crate::lenient::{Collector, invalid_type, read_object};
use crate::locate::SourceMap;
use crate::path::JsonPath;

/// The environment of a scripted Letta scenario that names none.
pub const DEFAULT_ENV: &str = "coding-agent";

/// The environment a scripted scenario of `dialect` runs in when it names none: that host's
/// headless coding agent.
pub fn default_env_name(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Letta => DEFAULT_ENV,
        Dialect::Pi => "pi-agent",
        Dialect::Dsh => "dsh-agent",
    }
}

/// A simulated agent environment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Env {
    /// The environment's name: its folder under `envs/`.
    pub name: String,
    /// What the environment stands for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Whose agent this is: the host that names the tools' arguments (`file_path` for Letta and
    /// DSH, `path` for Pi) and words their results. A spec runs only in environments of its
    /// own dialect; `letta` when unset.
    #[serde(default, skip_serializing_if = "Dialect::is_letta")]
    pub dialect: Dialect,
    /// Capability profile the candidate is loaded under; `headless` when unset.
    #[serde(default)]
    pub profile: Profile,
    /// ctx values that replace the defaults (Letta's learning-harness ctx), key by key.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub context: Map<String, Value>,
    /// How the session settles permission decisions nobody can answer.
    #[serde(default)]
    pub permissions: EnvPermissions,
    /// The built-in tools the simulated agent has, besides the candidate's registered tools.
    #[serde(default)]
    pub tools: Vec<EnvTool>,
    /// `process.env` of mods, over modlearn's defaults (`HOME`, `USER`, `PATH`, `MEMORY_DIR`,
    /// `LETTA_AGENT_ID` for Letta only, ...). The host's own environment never reaches a mod.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub process_env: BTreeMap<String, String>,
    /// The workspace (ctx `cwd`) as a git repository on the candidate's machine; a repository
    /// on `main` with one commit of a README when unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repository: Option<EnvRepository>,
}

/// The git repository the workspace is: a branch, commits and files, made by the machine's own
/// git before anything runs (every commit dated at the start of the virtual clock).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct EnvRepository {
    /// The branch checked out; `main` when unset.
    #[serde(default = "default_branch")]
    pub branch: String,
    /// Commits, oldest first, each adding or replacing the files it lists; one commit of a
    /// README when empty.
    #[serde(default)]
    pub commits: Vec<EnvCommit>,
    /// Files present in the workspace but never committed, by path relative to it.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub untracked: BTreeMap<String, String>,
}

fn default_branch() -> String {
    "main".to_owned()
}

/// One commit of the workspace's history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct EnvCommit {
    /// The commit message.
    pub message: String,
    /// Files it adds or replaces, by path relative to the workspace.
    #[serde(default)]
    pub files: BTreeMap<String, String>,
}

/// Which parts of the mod API a host surface offers (Letta's capability matrices).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Profile {
    /// Letta's engine default (also its learning harness): everything on.
    Engine,
    /// The terminal UI: everything on.
    Tui,
    /// `letta -p`: commands and panels off.
    #[default]
    Headless,
    /// The listener (desktop): lifecycle, compact and llm events and panels off.
    Listener,
    /// Agent-scoped listener mods: as `listener`, and providers off.
    ListenerAgent,
    /// Only providers.
    ProvidersOnly,
}

impl Profile {
    /// The name the engine knows the profile by.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Engine => "engine",
            Self::Tui => "tui",
            Self::Headless => "headless",
            Self::Listener => "listener",
            Self::ListenerAgent => "listener-agent",
            Self::ProvidersOnly => "providers-only",
        }
    }
}

/// Permission settings of a headless session.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct EnvPermissions {
    /// What an `ask` decision of the mods' overlays becomes, since a headless session has nobody
    /// to ask: `deny` (the default) or `allow` (as `--yolo` would). `alwaysAsk` is never allowed.
    #[serde(default)]
    pub on_ask: AskResolution,
}

/// What an `ask` permission decision becomes in a headless session.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum AskResolution {
    /// The call is blocked.
    #[default]
    Deny,
    /// The call runs.
    Allow,
}

/// One built-in tool of the environment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct EnvTool {
    /// The name the agent calls it by (and `tool_start`'s `toolName`).
    pub name: String,
    /// What it does when called.
    pub kind: EnvToolKind,
    /// Description shown to a model-driven agent.
    pub description: String,
    /// JSON Schema of its arguments (`type: "object"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameters: Option<Map<String, Value>>,
    /// What a `bash` tool tells the agent when the script step gives no `output` (the command
    /// still runs on the machine); the command's own output when unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_output: Option<String>,
    /// Programs a `bash` tool's machine scripts, first match first: a call of the program with
    /// these arguments prints the answer (whoever runs it: the mod, a script, the agent); other
    /// calls run the machine's own program of that name, if it has one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<EnvCommand>,
}

/// One scripted answer of a program on the machine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct EnvCommand {
    /// The program and its arguments, compared word by word (`npm test`), or, when `regex` is
    /// true, a (Perl-compatible) regular expression over the program's name and arguments
    /// joined by spaces, which must begin with the program's name (`^git describe\b`).
    pub pattern: String,
    /// Whether `pattern` is a regular expression.
    #[serde(default)]
    pub regex: bool,
    /// What the command prints.
    #[serde(default)]
    pub stdout: String,
    /// What it prints on standard error.
    #[serde(default)]
    pub stderr: String,
    /// Its exit status; 0 when unset.
    #[serde(default)]
    pub exit_code: i32,
}

impl EnvCommand {
    /// The program the answer scripts, and what its arguments are matched with (the words after
    /// the name, or the whole regular expression); `None` when the pattern names no program.
    pub fn program(&self) -> Option<(String, String)> {
        if self.regex {
            let rest = self.pattern.strip_prefix('^').unwrap_or(&self.pattern);
            let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || "_+-".contains(*c) || *c == '.').collect();
            let after = &rest[name.len()..];
            let bounded = after.is_empty() || [" ", "\\s", "\\b", "$", "("].iter().any(|next| after.starts_with(next));
            (!name.is_empty() && bounded && !name.ends_with('.')).then(|| (name, self.pattern.clone()))
        } else {
            let mut words = self.pattern.split_whitespace();
            let name = words.next()?;
            let valid = name.chars().all(|c| c.is_ascii_alphanumeric() || "._+-".contains(c)) && name != "." && name != "..";
            valid.then(|| (name.to_owned(), words.collect::<Vec<_>>().join(" ")))
        }
    }
}

/// What an environment tool does, on the candidate's machine (never on the host).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum EnvToolKind {
    /// Runs the effective `command` in bash; the agent gets its output, or the step's `output`.
    Bash,
    /// Reads `file_path` (optionally `offset`/`limit` lines).
    Read,
    /// Writes `content` to `file_path`, making the directories above it.
    Write,
    /// Replaces `old_string` by `new_string` (once, or every time with `replace_all`).
    Edit,
}

/// An environment file that loaded without problems.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadedEnv {
    /// The file, or `<built-in coding-agent>`.
    pub path: PathBuf,
    /// The environment.
    pub env: Env,
    /// Unknown fields and other findings that do not stop it from being used.
    pub warnings: Vec<SpecWarning>,
}

/// Why the environments of a spec could not be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EnvError {
    /// A scenario names an environment that no `envs/` folder holds.
    #[error("spec `{}`: {json_path}: no environment `{name}` (looked for {})", spec.display(), list(searched))]
    Missing {
        /// The spec file.
        spec: PathBuf,
        /// Where the name is, e.g. `evaluation.scenarios[1].env`.
        json_path: String,
        /// The name.
        name: String,
        /// The files looked for, in order.
        searched: Vec<PathBuf>,
    },
    /// A scenario runs in an environment of another host than the spec's.
    #[error(
        "spec `{}`: {json_path}: environment `{name}` is a `{}` agent's, but the spec's dialect is `{}`: name a `{}` environment (`{}` is the built-in one)",
        spec.display(), env_dialect.as_str(), spec_dialect.as_str(), spec_dialect.as_str(), default_env_name(*spec_dialect)
    )]
    WrongDialect {
        /// The spec file.
        spec: PathBuf,
        /// Where the name is, e.g. `evaluation.scenarios[1].env` (or the script, for the default).
        json_path: String,
        /// The environment.
        name: String,
        /// The environment's dialect.
        env_dialect: Dialect,
        /// The spec's dialect.
        spec_dialect: Dialect,
    },
    /// An environment file is unreadable or invalid.
    #[error("{}", render(path, problems))]
    Invalid {
        /// The file.
        path: PathBuf,
        /// Every problem, in source order.
        problems: Vec<SpecProblem>,
    },
}

fn list(paths: &[PathBuf]) -> String {
    let names: Vec<String> = paths.iter().map(|path| format!("`{}`", path.display())).collect();
    names.join(", ")
}

fn render(path: &Path, problems: &[SpecProblem]) -> String {
    let mut rendered = format!("invalid env `{}`", path.display());
    for problem in problems {
        rendered.push_str(&format!("\n  - {problem}"));
    }
    rendered
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Reads and checks the environment file at `path`.
pub fn load_env(path: &Path) -> Result<LoadedEnv, EnvError> {
    match crate::load::read_bounded(path) {
        Ok(source) => parse_env(&source, path),
        Err(error) => Err(EnvError::Invalid {
            path: path.to_owned(),
            problems: vec![SpecProblem { path: None, line: None, column: None, message: format!("failed to read file: {error}") }],
        }),
    }
}

/// Parses and checks environment text; `path` names it in errors, and its folder's name is the
/// name the environment must have.
pub fn parse_env(source: &str, path: &Path) -> Result<LoadedEnv, EnvError> {
    let fail = |message: &str, position: Option<(usize, usize)>| EnvError::Invalid {
        path: path.to_owned(),
        problems: vec![SpecProblem { path: None, line: position.map(|p| p.0), column: position.map(|p| p.1), message: message.to_owned() }],
    };
    let raw = match crate::load::parse_json(source) {
        Ok(raw) => raw,
        Err((message, position)) => return Err(fail(&message, Some(position))),
    };
    let mut collector = Collector::default();
    let root = JsonPath::root();
    let env = match raw {
        Value::Object(mut object) => {
            let tools = object.shift_remove("tools");
            let env: Option<Env> = read_object(object, &root, &["tools"], &mut collector);
            let tools = read_tools(tools, &root.key("tools"), &mut collector);
            env.map(|mut env| {
                env.tools = tools;
                env
            })
        }
        other => {
            collector.problem(root.clone(), invalid_type(&other, "an object"));
            None
        }
    };
    let mut problems = collector.problems;
    let mut warnings: Vec<(JsonPath, String)> =
        collector.unknown_fields.iter().map(|field| (field.path.clone(), field.message())).collect();
    if let Some(env) = &env {
        let folder = path.parent().and_then(Path::file_name).map(|name| name.to_string_lossy().into_owned());
        let unparsed: Vec<JsonPath> = problems.iter().map(|(path, _)| path.clone()).collect();
        for (json_path, message) in check(env, folder.as_deref()) {
            if !unparsed.iter().any(|unparsed| unparsed.is_related(&json_path)) {
                problems.push((json_path, message));
            }
        }
        if env.context.contains_key("args") || env.context.contains_key("toolCallId") {
            warnings.push((root.key("context"), "`args` and `toolCallId` are set per call and ignored here".to_owned()));
        }
    }
    let map = SourceMap::new(source);
    let locate = |path: &JsonPath| map.locate(path).map_or((None, None), |(line, column)| (Some(line), Some(column)));
    let mut problems: Vec<SpecProblem> = problems
        .into_iter()
        .map(|(path, message)| {
            let (line, column) = locate(&path);
            SpecProblem { path: path.rendered(), line, column, message }
        })
        .collect();
    problems.sort_by_key(|problem| (problem.line.unwrap_or(usize::MAX), problem.column.unwrap_or(usize::MAX)));
    let warnings = warnings
        .into_iter()
        .map(|(path, message)| {
            let (line, column) = locate(&path);
            SpecWarning { path: path.rendered().unwrap_or_else(|| ".".to_owned()), line, column, message }
        })
        .collect();
    match env {
        Some(env) if problems.is_empty() => Ok(LoadedEnv { path: path.to_owned(), env, warnings }),
        _ => Err(EnvError::Invalid { path: path.to_owned(), problems }),
    }
}

fn read_tools(value: Option<Value>, path: &JsonPath, collector: &mut Collector) -> Vec<EnvTool> {
    match value {
        None => Vec::new(),
        Some(Value::Array(items)) => items
            .into_iter()
            .enumerate()
            .filter_map(|(index, item)| match item {
                Value::Object(object) => read_object(object, &path.index(index), &[], collector),
                other => {
                    collector.problem(path.index(index), invalid_type(&other, "an object"));
                    None
                }
            })
            .collect(),
        Some(other) => {
            collector.problem(path.clone(), invalid_type(&other, "an array"));
            Vec::new()
        }
    }
}

/// Semantic checks: the name matches the folder, tool names are valid and distinct, settings fit
/// the tool kind.
fn check(env: &Env, folder: Option<&str>) -> Vec<(JsonPath, String)> {
    let root = JsonPath::root();
    let mut problems = Vec::new();
    if env.name.trim().is_empty() {
        problems.push((root.key("name"), "must not be empty".to_owned()));
    } else if let Some(folder) = folder.filter(|folder| *folder != env.name) {
        problems.push((root.key("name"), format!("`{}` differs from its folder's name `{folder}`", env.name)));
    }
    for key in ["sessionId", "cwd", "permissionMode"] {
        if let Some(value) = env.context.get(key).filter(|value| !value.is_string() && !value.is_null()) {
            problems.push((root.key("context").key(key), invalid_type(value, "a string or null")));
        }
    }
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for (index, tool) in env.tools.iter().enumerate() {
        let path = root.key("tools").index(index);
        let valid = (1..=64).contains(&tool.name.len()) && tool.name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        if !valid {
            problems.push((path.key("name"), format!("`{}` is not a valid tool name (1-64 letters, digits, `_` or `-`)", tool.name)));
        } else if let Some(first) = seen.insert(&tool.name, index) {
            problems.push((path.key("name"), format!("`{}` is already the name of tools[{first}]", tool.name)));
        }
        if tool.description.trim().is_empty() {
            problems.push((path.key("description"), "must not be empty".to_owned()));
        }
        if let Some(kind) = tool.parameters.as_ref().and_then(|parameters| parameters.get("type"))
            && kind != "object"
        {
            problems.push((path.key("parameters").key("type"), format!("must be \"object\", not {kind}")));
        }
        if tool.default_output.is_some() && tool.kind != EnvToolKind::Bash {
            problems.push((path.key("defaultOutput"), "only `bash` tools have a default output".to_owned()));
        }
        if !tool.commands.is_empty() && tool.kind != EnvToolKind::Bash {
            problems.push((path.key("commands"), "only `bash` tools have scripted commands".to_owned()));
        }
        for (at, command) in tool.commands.iter().enumerate() {
            let path = path.key("commands").index(at);
            if command.pattern.trim().is_empty() {
                problems.push((path.key("pattern"), "must not be empty".to_owned()));
            } else if command.regex
                && let Err(error) = regex::Regex::new(&command.pattern)
            {
                // The regex crate's message spans lines (the pattern, a caret, the reason): keep the reason.
                let reason = error.to_string().lines().last().unwrap_or_default().trim().to_owned();
                problems.push((path.key("pattern"), format!("is not a valid regular expression: {reason}")));
            } else if command.program().is_none() {
                let example = if command.regex { "`^git describe\\b`" } else { "`npm test`" };
                problems.push((
                    path.key("pattern"),
                    format!(
                        "must begin with the name of the program it scripts (as {example}): the machine puts a script of that name on PATH"
                    ),
                ));
            }
        }
    }
    if let Some(repository) = &env.repository {
        problems.extend(check_repository(repository, &root.key("repository")));
    }
    for name in env.process_env.keys() {
        if name.is_empty() || name.contains('=') || name.contains('\0') {
            problems.push((root.key("processEnv").key(name), "is not a valid environment variable name".to_owned()));
        }
    }
    problems
}

/// A branch name git takes (`git check-ref-format --branch`, in brief), and file paths that stay
/// inside the workspace and out of `.git`.
fn check_repository(repository: &EnvRepository, path: &JsonPath) -> Vec<(JsonPath, String)> {
    let mut problems = Vec::new();
    let branch = &repository.branch;
    let valid_branch = !branch.is_empty()
        && branch.chars().all(|c| c.is_ascii_alphanumeric() || "._/-".contains(c))
        && !branch.starts_with(['-', '/', '.'])
        && !branch.ends_with(['/', '.'])
        && !branch.ends_with(".lock")
        && !branch.contains("..")
        && !branch.contains("//")
        && !branch.contains("/.");
    if !valid_branch {
        problems.push((path.key("branch"), format!("`{branch}` is not a branch name git takes")));
    }
    let check_file = |problems: &mut Vec<(JsonPath, String)>, at: JsonPath, file: &str| {
        let parts: Vec<&str> = file.split('/').collect();
        if file.is_empty() || file.starts_with('/') || parts.iter().any(|part| part.is_empty() || *part == "." || *part == "..") {
            problems.push((at, format!("`{file}` is not a plain path relative to the workspace")));
        } else if parts[0] == ".git" {
            problems.push((at, format!("`{file}` is inside `.git`, which the machine's git makes")));
        }
    };
    for (index, commit) in repository.commits.iter().enumerate() {
        let at = path.key("commits").index(index);
        if commit.message.trim().is_empty() {
            problems.push((at.key("message"), "must not be empty".to_owned()));
        }
        for file in commit.files.keys() {
            check_file(&mut problems, at.key("files").key(file), file);
        }
    }
    for file in repository.untracked.keys() {
        check_file(&mut problems, path.key("untracked").key(file), file);
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_default_is_valid() {
        let loaded = parse_env(crate::env_lookup::BUILTIN_DEFAULT, Path::new("envs/coding-agent/env.json")).unwrap();
        assert_eq!(loaded.env.name, DEFAULT_ENV);
        assert_eq!(loaded.env.profile, Profile::Headless);
        assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
        let kinds: Vec<_> = loaded.env.tools.iter().map(|tool| tool.kind).collect();
        assert_eq!(kinds, [EnvToolKind::Bash, EnvToolKind::Read, EnvToolKind::Write, EnvToolKind::Edit]);
    }
}

#[cfg(test)]
mod machine_tests {
    use super::*;

    fn command(pattern: &str, regex: bool) -> EnvCommand {
        EnvCommand { pattern: pattern.to_owned(), regex, stdout: String::new(), stderr: String::new(), exit_code: 0 }
    }

    #[test]
    fn a_scripted_command_names_its_program() {
        assert_eq!(command("npm  test -- -w", false).program(), Some(("npm".into(), "test -- -w".into())));
        assert_eq!(command("uv", false).program(), Some(("uv".into(), String::new())));
        assert_eq!(command(r"^git describe\b", true).program(), Some(("git".into(), r"^git describe\b".into())));
        assert_eq!(command(r"git(\s|$)", true).program(), Some(("git".into(), r"git(\s|$)".into())));
        assert_eq!(command(r"^(git|hg) status", true).program(), None);
        assert_eq!(command(r".*test", true).program(), None);
        assert_eq!(command("./run.sh x", false).program(), None);
    }

    #[test]
    fn a_repository_names_a_branch_git_takes_and_stays_in_the_workspace() {
        let mut repository = EnvRepository { branch: "release/2.0".into(), commits: Vec::new(), untracked: BTreeMap::new() };
        assert!(check_repository(&repository, &JsonPath::root()).is_empty());
        repository.branch = "bad..name".into();
        repository.untracked.insert("../escape".into(), String::new());
        repository.untracked.insert(".git/config".into(), String::new());
        let problems: Vec<String> = check_repository(&repository, &JsonPath::root()).into_iter().map(|(_, message)| message).collect();
        assert_eq!(problems.len(), 3, "{problems:?}");
    }
}
