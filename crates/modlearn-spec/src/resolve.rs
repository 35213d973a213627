//! Scenario resolution, exactly as Letta Code's `evaluationScenarios`: the evaluation's fields are
//! defaults for every scenario, and its assertions and markers come first in each.

use indexmap::IndexMap;
use modlearn_types::{Dialect, DialogAnswer};
use serde::Serialize;

use crate::assertion::Assertion;
use crate::env::{Env, default_env_name};
use crate::script::ScriptStep;
use crate::types::{ModLearningSpec, OutputFormat};

/// Time limit of a prompt run when neither the scenario nor the evaluation sets `timeoutMs`.
pub const DEFAULT_TIMEOUT_MS: u64 = 15 * 60 * 1000;

/// `--max-turns` of a prompt run when neither the scenario nor the evaluation sets `maxTurns`.
pub const DEFAULT_MAX_TURNS: u32 = 8;

/// One scenario with the evaluation's defaults and shared checks applied.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResolvedScenario {
    /// 0-based position among the resolved scenarios.
    pub index: usize,
    /// The spec's dialect: which handle the candidate gets and how events reach it.
    #[serde(default, skip_serializing_if = "Dialect::is_letta")]
    pub dialect: Dialect,
    /// The trimmed name, `scenario-<index + 1>` when blank or missing, or `default` when the spec
    /// lists no scenarios.
    pub name: String,
    /// Directory name for the scenario's artifacts, `<NNN>-<slugify(name)>` counting from `001`.
    /// (Letta Code puts a spec without scenarios directly in the run directory instead.)
    pub dir_name: String,
    /// The scenario's prompt, or else the evaluation's; see [`Self::prompt_to_run`].
    pub prompt: Option<String>,
    /// Output format of the prompt run.
    pub output_format: OutputFormat,
    /// Time limit of the prompt run in milliseconds.
    pub timeout_ms: u64,
    /// `--max-turns` of the prompt run.
    pub max_turns: u32,
    /// The evaluation's memory files overridden by the scenario's.
    pub memory_files: IndexMap<String, String>,
    /// The evaluation's assertions, then the scenario's.
    pub assertions: Vec<Assertion>,
    /// The evaluation's required result markers, then the scenario's.
    pub required_result_markers: Vec<String>,
    /// The evaluation's required trace markers, then the scenario's.
    pub required_trace_markers: Vec<String>,
    /// The evaluation's forbidden result markers, then the scenario's.
    pub forbidden_result_markers: Vec<String>,
    /// The evaluation's forbidden trace markers, then the scenario's.
    pub forbidden_trace_markers: Vec<String>,
    /// Whether proposers must not see this scenario.
    pub hidden: bool,
    /// The scenario's script, or else the evaluation's: a simulated headless session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<Vec<ScriptStep>>,
    /// The environment named by the scenario, or else by the evaluation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub env: Option<String>,
    /// How the scripted person answers dialogs; `None`: a headless session, with nobody to ask.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ui: Option<Vec<DialogAnswer>>,
    /// The loaded environment, once [`attach_envs`](crate::attach_envs) found it.
    #[serde(skip)]
    pub environment: Option<Env>,
}

impl ResolvedScenario {
    /// Highest score the scenario can give: one point per assertion and per marker.
    pub fn max_score(&self) -> usize {
        self.assertions.len()
            + self.required_result_markers.len()
            + self.required_trace_markers.len()
            + self.forbidden_result_markers.len()
            + self.forbidden_trace_markers.len()
    }

    /// The prompt, when there is a prompt run at all: Letta Code skips blank prompts, and a
    /// script replaces the model.
    pub fn prompt_to_run(&self) -> Option<&str> {
        if self.script.is_some() {
            return None;
        }
        self.prompt.as_deref().filter(|prompt| !prompt.trim().is_empty())
    }

    /// The environment this scenario runs in: the one it names, its dialect's coding agent for a
    /// script (`coding-agent`, `pi-agent`, `dsh-agent`), `None` for a scenario that keeps the
    /// harness settings.
    pub fn env_name(&self) -> Option<&str> {
        match (&self.env, &self.script) {
            (Some(name), _) => Some(name),
            (None, Some(_)) => Some(default_env_name(self.dialect)),
            (None, None) => None,
        }
    }
}

/// The scenarios to run, in order: one named `default` made of the evaluation itself when the
/// spec lists none, else each listed scenario completed from the evaluation.
pub fn resolve_scenarios(spec: &ModLearningSpec) -> Vec<ResolvedScenario> {
    let evaluation = &spec.evaluation;
    let scenarios = match &evaluation.scenarios {
        Some(scenarios) if !scenarios.is_empty() => scenarios,
        _ => {
            return vec![ResolvedScenario {
                index: 0,
                dialect: spec.dialect,
                dir_name: dir_name(0, "default"),
                name: "default".to_owned(),
                prompt: evaluation.prompt.clone(),
                output_format: evaluation.output_format.unwrap_or_default(),
                timeout_ms: evaluation.timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS),
                max_turns: evaluation.max_turns.unwrap_or(DEFAULT_MAX_TURNS),
                memory_files: evaluation.memory_files.clone(),
                assertions: evaluation.assertions.clone(),
                required_result_markers: evaluation.required_result_markers.clone(),
                required_trace_markers: evaluation.required_trace_markers.clone(),
                forbidden_result_markers: evaluation.forbidden_result_markers.clone(),
                forbidden_trace_markers: evaluation.forbidden_trace_markers.clone(),
                hidden: false,
                script: evaluation.script.clone(),
                env: evaluation.env.clone(),
                ui: evaluation.ui.clone(),
                environment: None,
            }];
        }
    };
    scenarios
        .iter()
        .enumerate()
        .map(|(index, scenario)| {
            let name = match scenario.name.as_deref().map(str::trim) {
                Some(name) if !name.is_empty() => name.to_owned(),
                _ => format!("scenario-{}", index + 1),
            };
            let mut memory_files = evaluation.memory_files.clone();
            memory_files.extend(scenario.memory_files.clone());
            ResolvedScenario {
                index,
                dialect: spec.dialect,
                dir_name: dir_name(index, &name),
                name,
                prompt: scenario.prompt.clone().or_else(|| evaluation.prompt.clone()),
                output_format: scenario.output_format.or(evaluation.output_format).unwrap_or_default(),
                timeout_ms: scenario.timeout_ms.or(evaluation.timeout_ms).unwrap_or(DEFAULT_TIMEOUT_MS),
                max_turns: scenario.max_turns.or(evaluation.max_turns).unwrap_or(DEFAULT_MAX_TURNS),
                memory_files,
                assertions: concat(&evaluation.assertions, &scenario.assertions),
                required_result_markers: concat(&evaluation.required_result_markers, &scenario.required_result_markers),
                required_trace_markers: concat(&evaluation.required_trace_markers, &scenario.required_trace_markers),
                forbidden_result_markers: concat(&evaluation.forbidden_result_markers, &scenario.forbidden_result_markers),
                forbidden_trace_markers: concat(&evaluation.forbidden_trace_markers, &scenario.forbidden_trace_markers),
                hidden: scenario.hidden,
                script: scenario.script.clone().or_else(|| evaluation.script.clone()),
                env: scenario.env.clone().or_else(|| evaluation.env.clone()),
                ui: scenario.ui.clone().or_else(|| evaluation.ui.clone()),
                environment: None,
            }
        })
        .collect()
}

fn concat<T: Clone>(first: &[T], second: &[T]) -> Vec<T> {
    first.iter().chain(second).cloned().collect()
}

fn dir_name(index: usize, name: &str) -> String {
    format!("{:03}-{}", index + 1, slugify(name))
}

/// Letta Code's `slugify`: lowercase, every run of characters other than `a-z0-9` becomes one
/// `-`, no `-` at either end, and `mod-learning-run` if nothing is left.
pub fn slugify(value: &str) -> String {
    let mut slug = String::with_capacity(value.len());
    for character in value.trim().to_lowercase().chars() {
        if character.is_ascii_lowercase() || character.is_ascii_digit() {
            slug.push(character);
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    let slug = slug.trim_end_matches('-');
    if slug.is_empty() { "mod-learning-run".to_owned() } else { slug.to_owned() }
}

/// The spec's identifier for run directories and the default candidate file name:
/// `slugify(slug ?? name)`.
pub fn spec_slug(spec: &ModLearningSpec) -> String {
    slugify(spec.slug.as_deref().unwrap_or(&spec.name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugify_follows_letta() {
        assert_eq!(slugify("Use uv instead of pip"), "use-uv-instead-of-pip");
        assert_eq!(slugify("  --Memory Citations!! "), "memory-citations");
        assert_eq!(slugify("a__b--c"), "a-b-c");
        assert_eq!(slugify("Café déjà"), "caf-d-j");
        assert_eq!(slugify("!!!"), "mod-learning-run");
        assert_eq!(slugify(""), "mod-learning-run");
    }
}
