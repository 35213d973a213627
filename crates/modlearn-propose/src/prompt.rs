//! The generation prompt, in Letta Code's structure: target and objective,
//! hard rules, the mod API guide (the `writing-mods` skill), requirements,
//! hints, examples, the evaluation summary, and the candidate's assigned
//! diversity hint. From round 2 on it carries concrete evidence of what
//! failed before, within a size budget. Hidden scenarios never appear.

use std::fmt::Write;

use modlearn_spec::{Assertion, Dialect, ModLearningSpec, ResolvedScenario};
use modlearn_types::Attempt;
use modlearn_types::untrusted::{md_code, md_fence};

use crate::{Message, Role};

/// The API guide given to every proposer of a Letta mod: `skills/writing-mods/SKILL.md`.
pub const API_GUIDE: &str = include_str!("../../../skills/writing-mods/SKILL.md");

/// The API guide given to every proposer of a Pi extension: `skills/writing-pi-extensions/SKILL.md`.
pub const PI_API_GUIDE: &str = include_str!("../../../skills/writing-pi-extensions/SKILL.md");

/// The API guide given to every proposer of a DSH plugin: `skills/writing-dsh-plugins/SKILL.md`.
pub const DSH_API_GUIDE: &str = include_str!("../../../skills/writing-dsh-plugins/SKILL.md");

/// What the prompt says that depends on the host a candidate is written for.
struct DialectText {
    /// What a candidate is, for the system messages.
    what: &'static str,
    /// The host's word for a candidate, in headings.
    noun: &'static str,
    hard_rules: &'static str,
    minimal_example: &'static str,
    api_guide: &'static str,
    /// How the checks' shared vocabulary names this host's events; empty for Letta, whose names they are.
    vocabulary: &'static str,
}

fn dialect_text(dialect: Dialect) -> DialectText {
    match dialect {
        Dialect::Letta => DialectText {
            what: "Letta Code mods: single ES modules that export activate(letta)",
            noun: "Mod",
            hard_rules: HARD_RULES,
            minimal_example: MINIMAL_EXAMPLE,
            api_guide: API_GUIDE,
            vocabulary: "",
        },
        Dialect::Pi => DialectText {
            what: "Pi extensions: single ES modules whose default export is a factory (pi) => void",
            noun: "Pi extension",
            hard_rules: PI_HARD_RULES,
            minimal_example: PI_MINIMAL_EXAMPLE,
            api_guide: PI_API_GUIDE,
            vocabulary: PI_VOCABULARY,
        },
        Dialect::Dsh => DialectText {
            what: "DeepSeek Harness plugins: Cordis plugins exporting name, inject and apply(ctx)",
            noun: "DSH plugin",
            hard_rules: DSH_HARD_RULES,
            minimal_example: DSH_MINIMAL_EXAMPLE,
            api_guide: DSH_API_GUIDE,
            vocabulary: DSH_VOCABULARY,
        },
    }
}

/// Default size budget for the evidence section, in characters.
pub const DEFAULT_EVIDENCE_BUDGET: usize = 12_000;

/// Where one proposal sits in the run.
#[derive(Clone, Debug)]
pub struct Slot {
    /// 1-based round.
    pub round: u32,
    /// Rounds planned.
    pub rounds: u32,
    /// 1-based position in the round.
    pub index: usize,
    /// Proposals per round.
    pub per_round: usize,
    /// 1-based number across the run (`candidates/NNN`).
    pub candidate_number: usize,
    /// Where the candidate will be stored, relative to the run directory.
    pub candidate_path: String,
    /// Leave out the full API guide (for small local models whose context
    /// and speed cannot afford it); a minimal example mod stands in.
    pub compact: bool,
}

/// What earlier rounds left for this one.
#[derive(Clone, Debug)]
pub struct Evidence<'a> {
    /// Every earlier candidate.
    pub attempts: &'a [Attempt],
    /// The best earlier candidate and its source.
    pub best: Option<(&'a Attempt, &'a str)>,
    /// A failing earlier candidate other than the best, and its source.
    pub failing_sibling: Option<(&'a Attempt, &'a str)>,
    /// Size budget for this section, in characters.
    pub budget: usize,
}

/// Builds the system and user messages for one proposal.
pub fn generation_prompt(
    spec: &ModLearningSpec,
    scenarios: &[ResolvedScenario],
    slot: &Slot,
    evidence: Option<&Evidence<'_>>,
) -> Vec<Message> {
    let system = format!(
        "You write {}. You answer with the complete source of one candidate in a single fenced code block, \
and nothing the harness would have to guess. It is loaded in a sandbox and judged by executable checks.",
        dialect_text(spec.dialect).what
    );
    let mut user = task(spec, scenarios, slot, evidence);
    user.push_str("\n\nReply with the complete mod in one ```ts code block.\n");
    vec![Message { role: Role::System, content: system }, Message { role: Role::User, content: user }]
}

/// What an agent proposer is told about its working directory.
#[derive(Clone, Debug)]
pub struct AgentBrief {
    /// Model turns at most.
    pub max_steps: u32,
    /// Earlier candidates' directories, relative to the run directory.
    pub earlier_candidates: Vec<String>,
    /// Whether `history.json`, `history.md` and `proposer-guide.md` are there.
    pub history: bool,
}

/// Builds the system and user messages for an agent proposal: the task as
/// for [`generation_prompt`], then where things are in the run directory
/// and how to deliver the mod (the `write_candidate` tool).
pub fn agent_prompt(
    spec: &ModLearningSpec,
    scenarios: &[ResolvedScenario],
    slot: &Slot,
    evidence: Option<&Evidence<'_>>,
    brief: &AgentBrief,
) -> Vec<Message> {
    let system = format!(
        "You write {}. You work through tools over the run directory of a learning run, and deliver the candidate \
by calling write_candidate with its complete source. It is loaded in a sandbox and judged by executable checks.",
        dialect_text(spec.dialect).what
    );
    let mut user = task(spec, scenarios, slot, evidence);
    user.push_str("\n\n## Working in the run directory\n\n");
    user.push_str("Tools `list`, `read` and `search` look at the run directory (paths are relative to it); they change nothing.\n");
    if brief.history {
        user.push_str(
            "- `history.json`, `history.md`: every earlier candidate's result, each failed check with expected against actual values.\n",
        );
        user.push_str(
            "- `proposer-guide.md`: which candidates passed or failed each check, the most common failure causes, where to look first.\n",
        );
    }
    if brief.earlier_candidates.is_empty() {
        user.push_str("- There are no earlier candidates yet: write the mod from the task above.\n");
    } else {
        let dirs: Vec<String> = brief.earlier_candidates.iter().map(|dir| format!("`{dir}/`")).collect();
        let _ = writeln!(
            user,
            "- Earlier candidates: {}; each has its source under `mods/`, per-scenario results in `eval/*/assertions.result.json` and its `proposal.json`.",
            dirs.join(", ")
        );
    }
    let _ = writeln!(
        user,
        "\nCall `write_candidate` once, with the complete source; it is saved as `{}` and ends your work. \
You have at most {} turns; ending without `write_candidate` fails this candidate.",
        slot.candidate_path, brief.max_steps
    );
    vec![Message { role: Role::System, content: system }, Message { role: Role::User, content: user }]
}

/// The task: everything but how to answer.
fn task(spec: &ModLearningSpec, scenarios: &[ResolvedScenario], slot: &Slot, evidence: Option<&Evidence<'_>>) -> String {
    let mut user = String::new();
    let target = spec.target_mod_name.as_deref().unwrap_or("candidate.ts");
    let _ = writeln!(user, "# Task: {}\n", spec.name);
    let _ = writeln!(user, "Target mod: `{target}`");
    let _ = writeln!(user, "Candidate file: `{}`", slot.candidate_path);
    let _ = writeln!(
        user,
        "Round {} of {}, proposal {} of {} (candidate {}).\n",
        slot.round, slot.rounds, slot.index, slot.per_round, slot.candidate_number
    );
    let text = dialect_text(spec.dialect);
    let _ = writeln!(user, "## Objective\n\n{}\n", spec.objective.trim());
    user.push_str(text.hard_rules);

    user.push_str("\n## Requirements\n\n");
    for (i, requirement) in spec.requirements.iter().enumerate() {
        let _ = writeln!(user, "{}. {}", i + 1, requirement.trim());
    }
    if !spec.mod_api_hints.is_empty() {
        user.push_str("\n## Mod API hints\n\n");
        for hint in &spec.mod_api_hints {
            let _ = writeln!(user, "- {}", hint.trim());
        }
    }
    if !spec.examples.is_empty() {
        user.push_str("\n## Examples\n\n");
        for example in &spec.examples {
            let _ = writeln!(user, "- Input: {}", example.input.trim());
            if let Some(expected) = &example.expected {
                let _ = writeln!(user, "  Expected: {}", expected.trim());
            }
            if let Some(notes) = &example.notes {
                let _ = writeln!(user, "  Notes: {}", notes.trim());
            }
        }
    }
    user.push_str("\n## How the candidate is evaluated\n\n");
    user.push_str(text.vocabulary);
    user.push_str(&evaluation_summary(scenarios));

    if slot.per_round > 1 || slot.rounds > 1 {
        user.push_str("\n## Candidate diversity\n\n");
        user.push_str("Several candidates are written for this task; make this one genuinely different. ");
        user.push_str("Start the file with a one-line `// Proposal: <your approach>` comment.\n");
        if !spec.candidate_diversity_hints.is_empty() {
            let hints = &spec.candidate_diversity_hints;
            let hint = &hints[(slot.candidate_number - 1) % hints.len()];
            let _ = writeln!(user, "Assigned approach for this candidate: {}", hint.trim());
        }
    }
    if let Some(evidence) = evidence {
        user.push_str(&render_evidence(evidence));
    }
    if slot.compact {
        let _ = writeln!(user, "\n## Example {}\n", text.noun.to_lowercase());
        user.push_str(text.minimal_example);
    } else {
        let _ = writeln!(user, "\n## {} API guide\n", text.noun);
        user.push_str(strip_front_matter(text.api_guide).trim_end());
    }
    user
}

const MINIMAL_EXAMPLE: &str = "```ts
export function activate(letta) {
  letta.events.on(\"turn_start\", (event) => ({
    input: [...event.input, { type: \"message\", role: \"system\", content: \"Reminder: run the tests.\" }],
  }));
  letta.events.on(\"tool_start\", (event) => {
    if (event.toolName !== \"Bash\" || typeof event.args.command !== \"string\") return;
    return { args: { ...event.args, command: event.args.command.replace(/^npm install/, \"pnpm add\") } };
  });
}
```
";

const HARD_RULES: &str = "## Hard rules

- Reply with the whole mod in one fenced code block; it is saved as the candidate file as is.
- Export `activate(letta)` or a default function; it may return a disposer.
- No imports: no `node:*` modules, no packages, no `@/...` paths. The sandbox has no filesystem,
  network, environment variables, `process` or `Deno`; reaching for them is a diagnostic.
- Tools the evaluation calls must use `requiresApproval: false` and be read-only.
- Loading must produce no diagnostic at all (a removed-API warning fails `mod_loads`).
";

const PI_MINIMAL_EXAMPLE: &str = "```ts
export default function (pi) {
  pi.on(\"tool_call\", async (event) => {
    if (event.toolName === \"bash\" && /\\brm -rf \\/(\\s|$)/.test(String(event.input.command))) {
      return { block: true, reason: \"refusing to delete the root directory\" };
    }
  });
  pi.on(\"before_agent_start\", (event) => {
    event.systemPromptOptions.appendSystemPrompt = \"Run the tests before you finish.\";
  });
}
```
";

const PI_HARD_RULES: &str = "## Hard rules

- Reply with the whole extension in one fenced code block; it is saved as the candidate file as is.
- Default-export a factory `(pi) => void` (it may be async). Pi (1.6) calls it once per load,
  importing the module afresh on every reload, and calls `session_shutdown` handlers before a
  reload; clear timers there (Pi removes the extension's `pi.events` subscriptions itself).
- Imports: `node:*` built-ins, `@earendil-works/pi-coding-agent`, `@earendil-works/pi-ai`,
  `@earendil-works/pi-agent-core` and `typebox` (TypeBox 1.x) only; the `@mariozechner/*` and
  `@sinclair/typebox` names resolve to the same. Files, processes and the environment are
  virtual and recorded.
- `ctx.hasUI` is false: dialogs answer as Pi's headless mode does (`confirm` gives false).
- Loading must produce no diagnostic at all.
";

const PI_VOCABULARY: &str = "The checks use modlearn's shared names: a `tool_start` event is Pi's `tool_call` \
(blocking is `{ block: true, reason }`, rewriting is an in-place edit of `event.input`, and a blocked call fails \
every check that expects the tool to run), `tool_end` is `tool_result` (a content patch or in-place edit is a \
replacement, `isError: true` on a successful call a block), `turn_start` runs `input` then `before_agent_start` \
(a `system` message is what you add to the system prompt through `event.systemPromptOptions` or a returned \
`systemPrompt`, a `user` message is a returned `message`), `turn_end` continuing is a `turn_end` handler returning \
`{ continue: true }` with something new for the model, and a mod is the extension.\n\n";

const DSH_MINIMAL_EXAMPLE: &str = "```ts
export const name = \"repo-gate\"
export const inject = [\"tools\"]
export function apply(ctx) {
  ctx.on(\"tools/pre-execute\", async (exec, next) => {
    if (exec.name === \"bash\" && /\\brm -rf \\/(\\s|$)/.test(String(exec.arguments.command))) return { kind: \"deny\", reason: \"refusing rm -rf /\" }
    return next()
  })
}
```
";

const DSH_HARD_RULES: &str = "## Hard rules

- Reply with the whole plugin in one fenced code block; it is saved as the candidate file as is.
- Export `name`, `inject` (the services you use) and `apply(ctx, config)`, or a default object with
  them, or a `Service` class. Every registration goes through `ctx` (`ctx.on`, `ctx.tools.register`,
  `ctx.systemPrompt.section`, ...), so Cordis removes it when the plugin unloads.
- Reading a service you did not `inject` throws; a plugin whose `inject` names a missing service
  stays PENDING without an error.
- Imports: `node:*` built-ins, `@deepseek-ai/cordis`, `@deepseek-ai/dsh-tools` (`defineTool`) only.
- A `tools/pre-execute` listener must `return next()` for calls it does not decide.
- Loading must produce no diagnostic at all.
";

const DSH_VOCABULARY: &str = "The checks use modlearn's shared names: a `tool_start` event is one call through DSH's \
tool pipeline up to the body (`tools/pre-execute` decisions, approval, guards; a `deny` or a guard's string blocks it), \
`tool_end` is `tools/post-execute` (`accept` with new content, or `block`), `turn_start` is `agent/pre-step` plus the \
assembled system prompt (a `system` message is your sections' text, a `user` message one you inject), `turn_end` is \
`agent/turn-stopping` (`agent.steer` continues), and a mod is the plugin.\n\n";

fn strip_front_matter(text: &str) -> &str {
    if let Some(rest) = text.strip_prefix("---\n")
        && let Some(end) = rest.find("\n---\n")
    {
        return rest[end + 5..].trim_start();
    }
    text
}

/// The visible scenarios and their checks, in the words of the checks.
fn evaluation_summary(scenarios: &[ResolvedScenario]) -> String {
    let mut out = String::new();
    let visible: Vec<&ResolvedScenario> = scenarios.iter().filter(|s| !s.hidden).collect();
    let _ = writeln!(out, "Each scenario loads the mod afresh, runs its checks in order, then disposes it. One point per check.\n");
    for scenario in visible {
        let _ = writeln!(out, "- Scenario `{}`:", scenario.name);
        for (i, assertion) in scenario.assertions.iter().enumerate() {
            let _ = writeln!(out, "  - {}: {}", assertion.label(i), describe(assertion));
        }
        if let Some(rules) = &scenario.ui {
            // What the person at the keyboard answers: an extension that asks must read it.
            let answers: Vec<String> = rules.iter().map(|rule| serde_json::to_string(rule).unwrap_or_default()).collect();
            let rules = if answers.is_empty() { "none".to_owned() } else { answers.join(", ") };
            let _ = writeln!(
                out,
                "  - someone is at the keyboard (`ctx.hasUI` is true) and answers dialogs by these rules (a dialog no rule answers is dismissed): {rules}"
            );
        }
        if let Some(prompt) = scenario.prompt_to_run() {
            let _ = writeln!(out, "  - a model-driven session with the prompt: {}", one_line(prompt));
        }
        if let Some(script) = &scenario.script {
            // The steps the simulated headless session plays, in the spec's own words.
            let steps: Vec<String> = script.iter().map(|step| serde_json::to_string(step).unwrap_or_default()).collect();
            let env = scenario.env_name().unwrap_or_default();
            let kind = if scenario.ui.is_some() { "scripted" } else { "scripted headless" };
            let _ = writeln!(out, "  - a {kind} session in env `{env}` plays: {}", steps.join(", "));
        }
        for marker in &scenario.required_result_markers {
            let _ = writeln!(out, "  - the final answer must contain {marker:?}");
        }
        for marker in &scenario.required_trace_markers {
            let _ = writeln!(out, "  - the trace must contain {marker:?}");
        }
        for marker in &scenario.forbidden_result_markers {
            let _ = writeln!(out, "  - the final answer must not contain {marker:?}");
        }
        for marker in &scenario.forbidden_trace_markers {
            let _ = writeln!(out, "  - the trace must not contain {marker:?}");
        }
    }
    out
}

fn describe(assertion: &Assertion) -> String {
    match assertion {
        Assertion::ModLoads(a) => match a.expected_loaded_count {
            Some(n) => format!("loads with no diagnostics ({n} mod file(s))"),
            None => "loads with no diagnostics".to_owned(),
        },
        Assertion::TurnStartInjectsMessage(a) => {
            let role = a.role.as_deref().unwrap_or("system");
            let mut text = format!("a turn_start appends a `{role}` message");
            if let Some(contains) = &a.contains {
                let _ = write!(text, " containing {:?}", contains.items());
            }
            if let Some(not) = &a.not_contains {
                let _ = write!(text, ", not containing {:?}", not.items());
            }
            if let Some(input) = &a.input {
                let _ = write!(text, "; turn input {}", serde_json::Value::Array(input.clone()));
            }
            text
        }
        Assertion::ToolStartRewritesArgs(a) => format!(
            "tool_start for `{}` with args {} must end with args including {}",
            a.tool_name,
            serde_json::Value::Object(a.args.clone()),
            serde_json::Value::Object(a.expect_args.clone())
        ),
        Assertion::ToolStartPreservesArgs(a) => format!(
            "tool_start for `{}` with args {} must leave them unchanged (a tool_start handler must exist)",
            a.tool_name,
            serde_json::Value::Object(a.args.clone())
        ),
        // Every other type is shown as written in the spec; its meaning is in the API guide.
        other => serde_json::to_string(other).unwrap_or_else(|_| other.type_name().to_owned()),
    }
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Earlier candidates as concrete evidence, most useful first, cut to the budget.
fn render_evidence(evidence: &Evidence<'_>) -> String {
    let mut out = String::from("\n## What earlier candidates did\n\n");
    // Not the candidates' report.md: it lists hidden scenarios.
    out.push_str("Full details: `history.json`, `history.md` and `proposer-guide.md` in the run directory.\n\n");
    let mut sections: Vec<String> = Vec::new();
    for attempt in evidence.attempts {
        let mut section = String::new();
        let status = if attempt.error.is_none() && attempt.scenarios.iter().filter(|s| !s.hidden).all(|s| s.passed) {
            "passed every visible check"
        } else {
            "failed"
        };
        let _ = writeln!(
            section,
            "### Candidate {} (round {}): {status}, {}/{}",
            attempt.candidate_index, attempt.round, attempt.visible_score, attempt.visible_max_score
        );
        // What the candidates wrote, threw or injected is quoted: an earlier candidate must not
        // forge instructions or headings in this prompt.
        if let Some(error) = &attempt.error {
            let _ = writeln!(section, "- not evaluated: {}", md_code(error));
        }
        for scenario in attempt.scenarios.iter().filter(|s| !s.hidden) {
            for check in scenario.checks.iter().filter(|c| c.failed()) {
                let _ = writeln!(section, "- FAIL `{}` {}: {}", scenario.name, check.label, md_code(&check.message));
                if let (Some(expected), Some(actual)) = (check.details.get("expectArgs"), check.details.get("actualArgs")) {
                    let _ =
                        writeln!(section, "  expected args {}, actual {}", md_code(&expected.to_string()), md_code(&actual.to_string()));
                }
                if let Some(text) = check.details.get("injectedText").and_then(|t| t.as_str()) {
                    let _ = writeln!(section, "  injected text: {}", md_code(&format!("{text:?}")));
                }
            }
        }
        for diagnostic in &attempt.visible_diagnostics {
            let _ = writeln!(section, "- diagnostic [{} {}] {}", diagnostic.phase, diagnostic.fault.as_str(), md_code(&diagnostic.message));
        }
        sections.push(section);
    }
    for (label, entry) in [("Best candidate so far", evidence.best), ("A failing candidate", evidence.failing_sibling)] {
        if let Some((attempt, source)) = entry {
            // The fence outlasts any run of backticks in the source.
            sections.push(format!(
                "### {label}: candidate {} ({}/{})\n\n{}",
                attempt.candidate_index,
                attempt.visible_score,
                attempt.visible_max_score,
                md_fence(source.trim_end(), "ts", "")
            ));
        }
    }
    // Newest evidence first when cutting: later rounds matter most.
    let mut kept = Vec::new();
    let mut used = 0;
    for section in sections.iter().rev() {
        if used + section.len() > evidence.budget {
            continue;
        }
        used += section.len();
        kept.push(section.as_str());
    }
    if kept.len() < sections.len() {
        let _ = writeln!(out, "({} older entries left out for space; see history.md.)\n", sections.len() - kept.len());
    }
    kept.reverse();
    for section in kept {
        out.push_str(section);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_person_at_the_keyboard_is_shown_with_the_rules_and_headless_is_said() {
        let spec: ModLearningSpec = serde_json::from_value(json!({
            "name": "gate", "dialect": "pi", "objective": "Ask.", "requirements": ["Ask."],
            "evaluation": { "scenarios": [
                { "name": "asks", "ui": [{ "dialog": "confirm", "answer": true }],
                  "assertions": [{ "type": "asks_approval", "toolName": "bash", "args": { "command": "sudo ls" } }] },
                { "name": "dismissed", "ui": [], "assertions": [{ "type": "mod_loads" }] },
                { "name": "headless", "assertions": [{ "type": "mod_loads" }] }
            ] }
        }))
        .unwrap();
        let summary = evaluation_summary(&modlearn_spec::resolve_scenarios(&spec));
        assert!(
            summary
                .contains(r#"answers dialogs by these rules (a dialog no rule answers is dismissed): {"dialog":"confirm","answer":true}"#),
            "{summary}"
        );
        assert!(summary.contains("dismissed): none"), "{summary}");
        assert_eq!(summary.matches("someone is at the keyboard").count(), 2, "{summary}");
    }
}
