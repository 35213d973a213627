//! Which requirement each check (assertion or marker) checks: stated by a scenario's `covers`,
//! or else inferred.
//!
//! The inference is a word-overlap heuristic, documented here because reports rely on it:
//! 1. Words: lowercase runs of letters, digits and `_`; a word with `_` also counts as each of
//!    its parts and each pair of neighbouring parts (`turn_start_injects_message` gives `turn`,
//!    `start`, `turn_start`, `start_injects`, ...); a trailing `s` is dropped from
//!    words longer than three letters (`loads` → `load`); stop words and one-letter words are
//!    ignored.
//! 2. A marker's words are its text. An assertion's words come from its JSON form: its `type`, tool name, command, args,
//!    expected args and texts (every string value, never keys); plus, per type, a few words
//!    requirements use for what it checks ([`type_vocabulary`]: `unchanged` for
//!    `tool_start_preserves_args`, `interval` for `disposes_cleanly`, ...).
//! 3. A shared word weighs `1 / n`, where `n` is how many requirements contain it, so a word
//!    every requirement uses counts for little and a word only one uses counts fully.
//! 4. An assertion covers each requirement whose summed weight is at least 1 and at least half
//!    of its best requirement's weight.

use std::collections::{BTreeSet, HashMap};

use modlearn_spec::{Assertion, ModLearningSpec, ResolvedScenario, resolve_scenarios};
use serde::Serialize;
use serde_json::Value;

/// One check (assertion or marker), as reports name it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CoveringCheck {
    /// The scenario it runs in (`every scenario` for evaluation-level checks).
    pub scenario: String,
    /// Letta's label, `<n>. <type>[ <tool>]`, numbered as in the scenario's result.
    pub label: String,
    /// Whether the coverage was inferred rather than stated by `covers`.
    pub inferred: bool,
}

/// One requirement and the checks that check it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RequirementCoverage {
    /// 1-based, as the proposer sees it.
    pub number: usize,
    /// The requirement's text.
    pub text: String,
    /// The checks that check it; empty when nothing does.
    pub covered_by: Vec<CoveringCheck>,
}

/// Evaluation-level checks run in every scenario; they are listed once, under this name.
pub const EVERY_SCENARIO: &str = "every scenario";

/// The coverage table: every requirement with the checks (assertions and markers) that check it.
pub fn coverage(spec: &ModLearningSpec) -> Vec<RequirementCoverage> {
    let mut table: Vec<RequirementCoverage> = spec
        .requirements
        .iter()
        .enumerate()
        .map(|(index, text)| RequirementCoverage { number: index + 1, text: text.clone(), covered_by: Vec::new() })
        .collect();
    let inference = Inference::new(&spec.requirements);
    let configured = spec.evaluation.scenarios.as_deref().filter(|scenarios| !scenarios.is_empty());
    for scenario in resolve_scenarios(spec) {
        let covers = configured.and_then(|scenarios| scenarios.get(scenario.index)).and_then(|own| own.covers.as_ref());
        for check in checks(spec, &scenario) {
            // Evaluation-level checks repeat in every scenario; list them once.
            if check.shared && scenario.index > 0 {
                continue;
            }
            let (numbers, inferred) = match covers {
                Some(covers) if !check.shared => (covers.iter().map(|n| *n as usize).collect(), false),
                _ => (inference.covered(&check.words), true),
            };
            let name = if check.shared && configured.is_some() { EVERY_SCENARIO } else { scenario.name.as_str() };
            for number in numbers {
                if let Some(row) = table.get_mut(number.wrapping_sub(1)) {
                    row.covered_by.push(CoveringCheck { scenario: name.to_owned(), label: check.label.clone(), inferred });
                }
            }
        }
    }
    table
}

/// One scored check of a resolved scenario, labelled as the scenario's result labels it.
struct Check {
    label: String,
    words: BTreeSet<String>,
    /// It comes from the evaluation level, so every scenario has it.
    shared: bool,
}

/// The scenario's assertions, then its markers, in the order (and with the numbers) the runner
/// scores them.
fn checks(spec: &ModLearningSpec, scenario: &ResolvedScenario) -> Vec<Check> {
    let evaluation = &spec.evaluation;
    let mut checks: Vec<Check> = scenario
        .assertions
        .iter()
        .enumerate()
        .map(|(index, assertion)| Check {
            label: assertion.label(index),
            words: assertion_words(assertion),
            shared: index < evaluation.assertions.len(),
        })
        .collect();
    let markers = [
        ("required_result_marker", &scenario.required_result_markers, evaluation.required_result_markers.len()),
        ("required_trace_marker", &scenario.required_trace_markers, evaluation.required_trace_markers.len()),
        ("forbidden_result_marker", &scenario.forbidden_result_markers, evaluation.forbidden_result_markers.len()),
        ("forbidden_trace_marker", &scenario.forbidden_trace_markers, evaluation.forbidden_trace_markers.len()),
    ];
    for (kind, list, shared) in markers {
        for (index, marker) in list.iter().enumerate() {
            let label = format!("{}. {kind} {marker:?}", checks.len() + 1);
            checks.push(Check { label, words: words(marker), shared: index < shared });
        }
    }
    checks
}

/// Requirement words and how many requirements use each.
struct Inference {
    requirements: Vec<BTreeSet<String>>,
    counts: HashMap<String, usize>,
}

impl Inference {
    fn new(requirements: &[String]) -> Inference {
        let requirements: Vec<BTreeSet<String>> = requirements.iter().map(|text| words(text)).collect();
        let mut counts = HashMap::new();
        for word in requirements.iter().flatten() {
            *counts.entry(word.clone()).or_insert(0) += 1;
        }
        Inference { requirements, counts }
    }

    /// The 1-based numbers of the requirements a check with `check_words` is inferred to cover.
    fn covered(&self, check_words: &BTreeSet<String>) -> Vec<usize> {
        let scores: Vec<f64> = self
            .requirements
            .iter()
            .map(|requirement| requirement.intersection(check_words).map(|word| 1.0 / self.counts[word] as f64).sum())
            .collect();
        let best = scores.iter().copied().fold(0.0, f64::max);
        scores
            .iter()
            .enumerate()
            .filter(|(_, score)| **score >= MIN_WEIGHT && **score >= best * BEST_SHARE)
            .map(|(index, _)| index + 1)
            .collect()
    }
}

const MIN_WEIGHT: f64 = 1.0;
const BEST_SHARE: f64 = 0.5;

/// Words too common in specs to say which requirement is meant.
const STOP_WORDS: &[&str] = &[
    "a", "all", "also", "an", "and", "any", "are", "as", "at", "be", "by", "do", "doe", "each", "every", "for", "from", "if", "in", "into",
    "is", "it", "its", "mod", "must", "never", "no", "not", "of", "on", "one", "only", "or", "other", "same", "so", "such", "than", "that",
    "the", "then", "this", "to", "when", "where", "which", "while", "with",
];

/// The words of `text`, by the rules in the module documentation.
pub fn words(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let lower = text.to_lowercase();
    for word in lower.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
        let word = word.trim_matches('_');
        let parts: Vec<&str> = word.split('_').filter(|part| !part.is_empty()).collect();
        let mut candidates = vec![word.to_owned()];
        if parts.len() > 1 {
            candidates.extend(parts.iter().map(|part| (*part).to_owned()));
            candidates.extend(parts.windows(2).map(|pair| pair.join("_")));
        }
        for candidate in &candidates {
            let stemmed = stem(candidate);
            if stemmed.len() > 1 && !STOP_WORDS.contains(&stemmed) {
                found.insert(stemmed.to_owned());
            }
        }
    }
    found
}

fn stem(word: &str) -> &str {
    match word.strip_suffix('s') {
        Some(stem) if word.len() > 3 && !stem.ends_with('s') => stem,
        _ => word,
    }
}

/// Words requirements use for what an assertion type checks, beyond the words of its name.
pub fn type_vocabulary(type_name: &str) -> &'static str {
    match type_name {
        "mod_loads" => "load loads diagnostics export activate",
        "turn_start_injects_message" => "append appends reminder system",
        "tool_start_rewrites_args" => "rewrite replace",
        "tool_start_preserves_args" => "unchanged leave alone untouched byte-for-byte",
        "tool_start_blocks" => "block synthesized result never runs",
        "tool_end_rewrites_result" => "output result replace",
        "turn_start_cancels" => "cancel reason",
        "turn_end_continues" => "continue another turn",
        "tool_registered" => "register tool parameters",
        "tool_run_returns" => "run returns",
        "permission_decides" => "permission overlay decision allow deny ask",
        "command_registered" => "register command slash description",
        "command_runs" => "command run prompt output",
        "disposes_cleanly" => "dispose disposer cleared timer interval promise pending signal",
        "reload_idempotent" => "reload twice exactly once globalThis",
        "runs_under_profile" => "profile headless listener tui",
        "deterministic" => "deterministic random date same",
        "isolated_conversations" => "conversation conversations per isolated",
        "writes_file" => "write writes file saves state persists disk",
        "runs_command" => "command shell runs git exec spawn child_process never",
        "asks_approval" => "ask asks approval approve confirm human",
        "no_pending_plugin" => "pending inject injects service services provide provides",
        "keeps_files" => "delete deletes remove removes keep keeps wipe rename file files",
        "declares_what_it_uses" => "inject injects declare declares exactly uses service services",
        "post_execute_decides" => "result results after post execute accept replace block feedback",
        _ => "",
    }
}

/// The words of every string value in the assertion's JSON form, plus its type's vocabulary.
pub fn assertion_words(assertion: &Assertion) -> BTreeSet<String> {
    let mut texts = vec![type_vocabulary(assertion.type_name()).to_owned()];
    collect_strings(&serde_json::to_value(assertion).expect("an assertion serializes"), &mut texts);
    texts.iter().flat_map(|text| words(text)).collect()
}

fn collect_strings(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(text) => out.push(text.clone()),
        Value::Array(items) => items.iter().for_each(|item| collect_strings(item, out)),
        Value::Object(map) => map.values().for_each(|item| collect_strings(item, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests;
