//! Semantic checks on a typed spec: Letta Code's `validate-mod-env.ts` rules, plus modlearn's refusal
//! of paths that escape their directory and of assertions that can never pass.

use std::path::Path;

use modlearn_types::Dialect;

use crate::assertion::{ApprovalPolicy, Assertion, CommandResultType, StringOrList, ToolRunReturns};
use crate::error::{SpecProblem, SpecWarning};
use crate::path::JsonPath;
use crate::resolve::resolve_scenarios;
use crate::types::{ModLearningSpec, ScenarioBase};

#[path = "validate_dialect.rs"]
mod dialect;
#[path = "validate_script.rs"]
mod script;

/// What checking an in-memory spec found; loading a file does the same and adds positions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Validation {
    /// Problems that make the spec unusable; empty when the spec is valid.
    pub problems: Vec<SpecProblem>,
    /// Findings that are probably mistakes but do not stop the spec from being used.
    pub warnings: Vec<SpecWarning>,
}

/// Checks a spec built in memory (for instance by a proposer) with the same rules as
/// [`load_spec`](crate::load_spec).
pub fn validate_spec(spec: &ModLearningSpec) -> Validation {
    let findings = check(spec);
    Validation {
        problems: findings
            .problems
            .into_iter()
            .map(|(path, message)| SpecProblem { path: path.rendered(), line: None, column: None, message })
            .collect(),
        warnings: findings
            .warnings
            .into_iter()
            .map(|(path, message)| SpecWarning {
                path: path.rendered().unwrap_or_else(|| ".".to_owned()),
                line: None,
                column: None,
                message,
            })
            .collect(),
    }
}

#[derive(Default)]
pub(crate) struct Findings {
    pub(crate) problems: Vec<(JsonPath, String)>,
    pub(crate) warnings: Vec<(JsonPath, String)>,
}

pub(crate) fn check(spec: &ModLearningSpec) -> Findings {
    let mut findings = Findings::default();
    let root = JsonPath::root();
    findings.non_blank(&spec.name, root.key("name"));
    findings.non_blank(&spec.objective, root.key("objective"));
    if let Some(slug) = &spec.slug {
        findings.non_blank(slug, root.key("slug"));
        if !slug.trim().is_empty() && !is_kebab_case(slug) {
            findings.warn(root.key("slug"), format!("`{slug}` is not kebab-case (lowercase letters and digits joined by single hyphens)"));
        }
    }
    if let Some(target_mod_name) = &spec.target_mod_name {
        findings.check_file_name(target_mod_name, root.key("targetModName"));
    }
    let requirements = root.key("requirements");
    if spec.requirements.is_empty() {
        findings.problem(requirements.clone(), "must not be empty");
    }
    for (index, requirement) in spec.requirements.iter().enumerate() {
        findings.non_blank(requirement, requirements.index(index));
    }
    for (index, example) in spec.examples.iter().enumerate() {
        findings.non_blank(&example.input, root.key("examples").index(index).key("input"));
    }

    let evaluation = &spec.evaluation;
    let evaluation_path = root.key("evaluation");
    findings.check_base(&evaluation.base(), &evaluation_path);
    // An empty list is no list: Letta runs the evaluation itself as one scenario, and so does
    // modlearn (`resolve_scenarios`).
    match evaluation.scenarios.as_ref().filter(|scenarios| !scenarios.is_empty()) {
        Some(scenarios) => {
            let scenarios_path = evaluation_path.key("scenarios");
            if scenarios.len() < 2 {
                findings.warn(scenarios_path.clone(), FEW_SCENARIOS);
            }
            for (index, scenario) in scenarios.iter().enumerate() {
                let path = scenarios_path.index(index);
                findings.check_base(&scenario.base(), &path);
                // Reports, history and proposers name scenarios: two of one name could not be told apart.
                let name = scenario.name.as_deref().map(str::trim).filter(|name| !name.is_empty());
                if let Some(name) = name
                    && let Some(first) = scenarios[..index].iter().position(|other| other.name.as_deref().map(str::trim) == Some(name))
                {
                    // Letta runs such a file (each scenario has its numbered directory), so it loads.
                    findings.warn(
                        path.key("name"),
                        format!("duplicate scenario name `{name}`: `evaluation.scenarios[{first}]` has it too, so reports and proposers cannot tell them apart"),
                    );
                }
                // `covers` names requirements by their 1-based number, as proposers see them.
                let count = spec.requirements.len();
                for (slot, number) in scenario.covers.iter().flatten().enumerate() {
                    if *number == 0 || *number as usize > count {
                        let message = format!("requirement {number} does not exist: the spec has {count} requirement(s), numbered from 1");
                        findings.problem(path.key("covers").index(slot), message);
                    }
                }
                let prompt = scenario.prompt.as_deref().or(evaluation.prompt.as_deref());
                let has_assertions = !evaluation.assertions.is_empty() || !scenario.assertions.is_empty();
                let has_script = scenario.script.is_some() || evaluation.script.is_some();
                if !has_text(prompt) && !has_assertions && !has_script {
                    findings.problem(path, NEEDS_CHECKS);
                }
            }
        }
        None => {
            if !has_text(evaluation.prompt.as_deref()) && evaluation.assertions.is_empty() && evaluation.script.is_none() {
                findings.problem(evaluation_path.clone(), NEEDS_CHECKS);
            }
            findings.warn(evaluation_path.clone(), FEW_SCENARIOS);
        }
    }

    let mut assertion_lists = vec![(evaluation_path.key("assertions"), &evaluation.assertions)];
    for (index, scenario) in evaluation.scenarios.iter().flatten().enumerate() {
        assertion_lists.push((evaluation_path.key("scenarios").index(index).key("assertions"), &scenario.assertions));
    }
    for (path, assertions) in assertion_lists {
        for (index, assertion) in assertions.iter().enumerate() {
            if let Some(why) = dialect::unmapped(spec.dialect, assertion) {
                findings.problem(path.index(index).key("type"), why);
            }
        }
    }

    if spec.dialect != Dialect::Pi {
        let scenarios = evaluation.scenarios.iter().flatten().enumerate();
        let levels = scenarios.map(|(index, scenario)| (evaluation_path.key("scenarios").index(index), scenario.ui.is_some()));
        for (path, _) in std::iter::once((evaluation_path.clone(), evaluation.ui.is_some())).chain(levels).filter(|(_, set)| *set) {
            findings.problem(path.key("ui"), dialect::no_dialogs(spec.dialect));
        }
    }

    let configured = evaluation.scenarios.as_ref().is_some_and(|scenarios| !scenarios.is_empty());
    for scenario in resolve_scenarios(spec) {
        if scenario.prompt_to_run().is_some() && scenario.required_result_markers.is_empty() && scenario.required_trace_markers.is_empty() {
            let path = if configured { evaluation_path.key("scenarios").index(scenario.index) } else { evaluation_path.clone() };
            findings.warn(path, "runs a prompt but requires no result or trace markers");
        }
        if scenario.script.is_some() && scenario.max_score() == 0 {
            let path = if configured { evaluation_path.key("scenarios").index(scenario.index) } else { evaluation_path.clone() };
            findings.warn(path, "runs a script but checks nothing: add markers or assertions");
        }
    }
    findings
}

const NEEDS_CHECKS: &str = "needs a prompt, a script or assertions";

const BLANK_NAME: &str = "blank: the scenario is named by its number (`scenario-1`, ...), as in Letta";
const FEW_SCENARIOS: &str = "fewer than 2 scenarios; a negative control catches over-eager mods";

impl Findings {
    pub(crate) fn problem(&mut self, path: JsonPath, message: impl Into<String>) {
        self.problems.push((path, message.into()));
    }

    fn warn(&mut self, path: JsonPath, message: impl Into<String>) {
        self.warnings.push((path, message.into()));
    }

    pub(crate) fn non_blank(&mut self, value: &str, path: JsonPath) {
        if value.trim().is_empty() {
            self.problem(path, "must not be empty");
        }
    }

    /// The shared scenario fields, on the evaluation or on one scenario.
    fn check_base(&mut self, base: &ScenarioBase<'_>, path: &JsonPath) {
        if let Some(name) = base.name
            && name.trim().is_empty()
        {
            self.warn(path.key("name"), BLANK_NAME);
        }
        if let Some(prompt) = base.prompt {
            self.non_blank(prompt, path.key("prompt"));
        }
        if base.timeout_ms == Some(0) {
            self.problem(path.key("timeoutMs"), "must be positive");
        }
        if base.max_turns == Some(0) {
            self.problem(path.key("maxTurns"), "must be positive");
        }
        for key in base.memory_files.keys() {
            if let Some(message) = memory_file_problem(key) {
                self.problem(path.key("memoryFiles").key(key.clone()), message);
            }
        }
        for (index, assertion) in base.assertions.iter().enumerate() {
            self.check_assertion(assertion, &path.key("assertions").index(index));
        }
        if let Some(script) = base.script {
            if base.prompt.is_some() {
                self.problem(path.key("script"), "a scenario has a prompt or a script, not both: the script replaces the model");
            }
            script::check_script(self, script, &path.key("script"));
        }
        if let Some(env) = base.env {
            script::check_env_name(self, env, &path.key("env"));
        }
        for (index, rule) in base.ui.into_iter().flatten().enumerate() {
            if let Some(why) = rule.mismatch() {
                self.problem(path.key("ui").index(index).key("answer"), why);
            }
        }
        let marker_lists = [
            ("requiredResultMarkers", base.required_result_markers),
            ("requiredTraceMarkers", base.required_trace_markers),
            ("forbiddenResultMarkers", base.forbidden_result_markers),
            ("forbiddenTraceMarkers", base.forbidden_trace_markers),
        ];
        for (field, markers) in marker_lists {
            for (index, marker) in markers.iter().enumerate() {
                // Every text contains the empty string, so such a marker always or never passes.
                if marker.is_empty() {
                    self.problem(path.key(field).index(index), "must not be empty");
                }
            }
        }
    }

    fn check_assertion(&mut self, assertion: &Assertion, path: &JsonPath) {
        self.check_written_text(assertion, path);
        match assertion {
            Assertion::ModLoads(assertion) => {
                if assertion.expected_loaded_count == Some(0) {
                    // As in Letta, which runs the file: the check also wants a mod loaded.
                    self.warn(path.key("expectedLoadedCount"), "0 can never pass: mod_loads also wants at least one mod loaded");
                }
            }
            Assertion::TurnStartInjectsMessage(assertion) => {
                if let Some(role) = &assertion.role {
                    self.non_blank(role, path.key("role"));
                }
                self.check_turn_input(assertion.input.as_deref(), path);
            }
            Assertion::ToolStartRewritesArgs(assertion) => {
                self.non_blank(&assertion.tool_name, path.key("toolName"));
                if assertion.expect_args.is_empty() {
                    self.problem(path.key("expectArgs"), "must not be empty");
                }
            }
            Assertion::ToolStartPreservesArgs(assertion) => {
                self.non_blank(&assertion.tool_name, path.key("toolName"));
            }
            Assertion::AsksApproval(assertion) => {
                self.non_blank(&assertion.tool_name, path.key("toolName"));
            }
            Assertion::NoPendingPlugin(_) | Assertion::DeclaresWhatItUses(_) => {}
            Assertion::KeepsFiles(assertion) => {
                for (index, item) in assertion.paths.iter().flat_map(|paths| paths.items()).enumerate() {
                    self.non_blank(item, path.key("paths").index(index));
                }
            }
            Assertion::PostExecuteDecides(assertion) => {
                self.non_blank(&assertion.tool_name, path.key("toolName"));
                self.check_not_contains(assertion.not_contains.as_ref(), path);
            }
            Assertion::ToolStartBlocks(assertion) => {
                self.non_blank(&assertion.tool_name, path.key("toolName"));
            }
            Assertion::ToolEndRewritesResult(assertion) => {
                self.non_blank(&assertion.tool_name, path.key("toolName"));
                self.check_not_contains(assertion.not_contains.as_ref(), path);
            }
            Assertion::TurnStartCancels(assertion) => {
                self.check_turn_input(assertion.input.as_deref(), path);
            }
            Assertion::TurnEndContinues(assertion) => {
                if let Some(stop_reason) = &assertion.stop_reason {
                    self.non_blank(stop_reason, path.key("stopReason"));
                }
            }
            Assertion::ToolRegistered(assertion) => {
                self.check_tool_name(&assertion.tool_name, path);
                if let (Some(requires), Some(policy)) = (assertion.requires_approval, assertion.approval_policy)
                    && requires != (policy != ApprovalPolicy::Auto)
                {
                    // Letta derives requiresApproval from the policy: only `auto` runs unasked.
                    self.problem(
                        path.key("requiresApproval"),
                        format!("contradicts approvalPolicy `{}`: requiresApproval is true for every policy but `auto`", policy.as_str()),
                    );
                }
            }
            Assertion::ToolRunReturns(assertion) => {
                self.check_tool_name(&assertion.tool_name, path);
                self.check_not_contains(assertion.not_contains.as_ref(), path);
                if let Some(equals) = &assertion.equals {
                    self.check_equals_agrees(equals, assertion, path);
                }
            }
            Assertion::PermissionDecides(assertion) => {
                self.non_blank(&assertion.tool_name, path.key("toolName"));
            }
            Assertion::CommandRegistered(assertion) => {
                self.check_command_id(&assertion.command, path);
            }
            Assertion::CommandRuns(assertion) => {
                self.check_command_id(&assertion.command, path);
                if assertion.result_type == Some(CommandResultType::Handled) && assertion.contains.is_some() {
                    self.problem(path.key("contains"), "a `handled` result has no text, so `contains` can never pass");
                }
            }
            Assertion::WritesFile(assertion) => {
                self.non_blank(&assertion.path, path.key("path"));
                if assertion.path.contains('\0') {
                    self.problem(path.key("path"), "must not contain a NUL character");
                }
                self.check_not_contains(assertion.not_contains.as_ref(), path);
            }
            Assertion::RunsCommand(assertion) => {
                self.non_blank(&assertion.pattern, path.key("pattern"));
                if assertion.regex == Some(true)
                    && let Err(error) = regex::Regex::new(&assertion.pattern)
                {
                    // The regex crate's message spans lines (the pattern, a caret, the reason): keep the reason.
                    let reason = error.to_string().lines().last().unwrap_or_default().trim_start_matches("error: ").to_owned();
                    self.problem(path.key("pattern"), format!("is not a valid regular expression: {reason}"));
                }
            }
            Assertion::DisposesCleanly(_)
            | Assertion::ReloadIdempotent(_)
            | Assertion::RunsUnderProfile(_)
            | Assertion::Deterministic(_)
            | Assertion::IsolatedConversations(_) => self.check_lifecycle(assertion, path),
        }
    }

    fn check_turn_input(&mut self, input: Option<&[serde_json::Value]>, path: &JsonPath) {
        for (index, item) in input.into_iter().flatten().enumerate() {
            // The engine rolls back a turn_start input that is not all objects.
            if !item.is_object() {
                self.problem(path.key("input").index(index), "must be an object");
            }
        }
    }

    /// An empty `notContains` substring is in every text, so the assertion could never pass.
    fn check_not_contains(&mut self, not_contains: Option<&StringOrList>, path: &JsonPath) {
        let Some(not_contains) = not_contains else {
            return;
        };
        let field = path.key("notContains");
        match not_contains {
            StringOrList::One(item) if item.is_empty() => {
                self.problem(field, "must not be empty: every text contains the empty string");
            }
            StringOrList::One(_) => {}
            StringOrList::Many(items) | StringOrList::Text { items, .. } => {
                for (index, item) in items.iter().enumerate() {
                    if item.is_empty() {
                        self.problem(field.index(index), "must not be empty: every text contains the empty string");
                    }
                }
            }
        }
    }

    /// A `contains`-style field written as something other than text: Letta searches for its
    /// JavaScript text, which is rarely what was meant.
    fn check_written_text(&mut self, assertion: &Assertion, path: &JsonPath) {
        let Ok(serde_json::Value::Object(fields)) = serde_json::to_value(assertion) else {
            return;
        };
        for (key, value) in fields.iter().filter(|(key, _)| key.ends_with("ontains")) {
            let Ok(StringOrList::Text { items, .. }) = serde_json::from_value::<StringOrList>(value.clone()) else {
                continue;
            };
            let texts = items.iter().map(|item| format!("{item:?}")).collect::<Vec<_>>().join(", ");
            self.warn(path.key(key), format!("is not text: as Letta does, modlearn searches for {texts}"));
        }
    }

    /// `equals` fixes the whole text, so `contains`/`notContains` must agree with it.
    fn check_equals_agrees(&mut self, equals: &str, assertion: &ToolRunReturns, path: &JsonPath) {
        let contains = assertion.contains.as_ref().map(StringOrList::items).unwrap_or_default();
        for item in contains.into_iter().filter(|item| !equals.contains(item)) {
            self.problem(path.key("contains"), format!("`{item}` is not in `equals`, so the assertion can never pass"));
        }
        let not_contains = assertion.not_contains.as_ref().map(StringOrList::items).unwrap_or_default();
        for item in not_contains.into_iter().filter(|item| !item.is_empty() && equals.contains(item)) {
            self.problem(path.key("notContains"), format!("`{item}` is in `equals`, so the assertion can never pass"));
        }
    }

    /// A name Letta would refuse to register can never be found.
    fn check_tool_name(&mut self, name: &str, path: &JsonPath) {
        let valid = (1..=64).contains(&name.len()) && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        if !valid {
            self.problem(path.key("toolName"), format!("`{name}` is not a valid mod tool name (1-64 letters, digits, `_` or `-`)"));
        }
    }

    /// An id Letta would refuse to register can never be found.
    fn check_command_id(&mut self, id: &str, path: &JsonPath) {
        let mut bytes = id.bytes();
        let valid = bytes.next().is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
            && bytes.all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        if !valid {
            let why = if id.starts_with('/') { "is written without the leading `/`" } else { "must match /^[a-z0-9][a-z0-9-]*$/" };
            self.problem(path.key("command"), format!("`{id}`: a command id {why}"));
        }
    }

    fn check_file_name(&mut self, name: &str, path: JsonPath) {
        if name.trim().is_empty() {
            self.problem(path, "must not be empty");
        } else if name.contains('\0') {
            self.problem(path, "must not contain a NUL character");
        } else if name.contains(['/', '\\']) || name == "." || name == ".." || Path::new(name).is_absolute() {
            self.problem(path, format!("must be a plain file name, not a path like `{name}`"));
        }
    }
}

/// Why a `memoryFiles` key cannot be written inside the memory directory, if it cannot.
fn memory_file_problem(key: &str) -> Option<&'static str> {
    let components: Vec<&str> = key.split(['/', '\\']).collect();
    if key.is_empty() {
        Some("file path must not be empty")
    } else if key.contains('\0') {
        Some("must not contain a NUL character")
    } else if key.starts_with(['/', '\\']) || has_drive_prefix(key) || Path::new(key).is_absolute() {
        Some("must be a relative path, not an absolute one")
    } else if components.contains(&"..") {
        Some("must not contain a `..` component")
    } else if components.iter().all(|component| component.is_empty() || *component == ".") {
        Some("must name a file")
    } else {
        None
    }
}

fn has_drive_prefix(key: &str) -> bool {
    let bytes = key.as_bytes();
    bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':'
}

fn has_text(value: Option<&str>) -> bool {
    value.is_some_and(|value| !value.trim().is_empty())
}

/// Letta Code's `^[a-z0-9]+(?:-[a-z0-9]+)*$`.
fn is_kebab_case(value: &str) -> bool {
    value.split('-').all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kebab_case_matches_letta_pattern() {
        for good in ["uv-pip-install", "a", "a1-b2"] {
            assert!(is_kebab_case(good), "{good}");
        }
        for bad in ["", "-a", "a-", "a--b", "A", "a_b", "a b"] {
            assert!(!is_kebab_case(bad), "{bad}");
        }
    }

    #[test]
    fn memory_file_keys_stay_inside() {
        assert_eq!(memory_file_problem("reference/notes.md"), None);
        assert_eq!(memory_file_problem("./a.md"), None);
        assert_eq!(memory_file_problem("a..b.md"), None);
        assert!(memory_file_problem("../x").is_some());
        assert!(memory_file_problem("a/../../x").is_some());
        assert!(memory_file_problem("a\\..\\x").is_some());
        assert!(memory_file_problem("/etc/passwd").is_some());
        assert!(memory_file_problem("C:\\x").is_some());
        assert!(memory_file_problem("").is_some());
        assert!(memory_file_problem("./").is_some());
    }
}
