//! Loading a spec file: read, parse, deserialize layer by layer, validate, locate every finding.
//!
//! Layers (the top level, each example, the evaluation, each scenario, each assertion) are read
//! separately, so a broken part never hides problems in the others.

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::assertion::{Assertion, ModLoads, PayloadReader};
use crate::error::{SpecError, SpecProblem, SpecWarning};
use crate::lenient::{Collector, invalid_type, read_object};
use crate::locate::SourceMap;
use crate::path::JsonPath;
use crate::script::{ScriptStep, kinds_in};
use crate::types::{Evaluation, Example, ModLearningSpec, ScenarioSpec};
use crate::validate;

/// A spec that loaded without problems.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadedSpec {
    /// The spec file, as it was given.
    pub path: PathBuf,
    /// The typed spec.
    pub spec: ModLearningSpec,
    /// The file exactly as parsed, unknown fields included, for `env.snapshot.json`.
    pub raw: Value,
    /// Findings that do not stop the spec from being used, in source order.
    pub warnings: Vec<SpecWarning>,
}

/// Reads, parses and validates the spec at `path`, reporting every problem at once.
pub fn load_spec(path: &Path) -> Result<LoadedSpec, SpecError> {
    match read_bounded(path) {
        Ok(source) => parse_spec(&source, path),
        Err(error) => Err(SpecError {
            path: path.to_owned(),
            problems: vec![SpecProblem { path: None, line: None, column: None, message: format!("failed to read file: {error}") }],
            warnings: Vec::new(),
        }),
    }
}

/// The largest spec or environment file read (Letta's are a few KiB).
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// Reads a regular file of at most [`MAX_FILE_BYTES`]: never a FIFO (which
/// would block) or a device such as `/dev/zero` (which never ends).
pub(crate) fn read_bounded(path: &Path) -> std::io::Result<String> {
    use std::io::Read;
    let metadata = std::fs::metadata(path)?;
    if !metadata.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    let too_big = || std::io::Error::other(format!("larger than {} MiB", MAX_FILE_BYTES >> 20));
    if metadata.len() > MAX_FILE_BYTES {
        return Err(too_big());
    }
    let mut text = String::new();
    std::fs::File::open(path)?.take(MAX_FILE_BYTES + 1).read_to_string(&mut text)?;
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(too_big());
    }
    Ok(text)
}

/// Parses and validates spec text; `path` only names the source in errors and in the result.
pub fn parse_spec(source: &str, path: &Path) -> Result<LoadedSpec, SpecError> {
    let fail = |problems| SpecError { path: path.to_owned(), problems, warnings: Vec::new() };
    if source.trim().is_empty() {
        return Err(fail(vec![whole_file_problem("file is empty", None)]));
    }
    let raw = match parse_json(source) {
        Ok(raw) => raw,
        Err((message, position)) => return Err(fail(vec![whole_file_problem(&message, Some(position))])),
    };

    let mut collector = Collector::default();
    let spec = read_spec(raw.clone(), &mut collector);
    let mut problems = collector.problems;
    problems.extend(scaffold_placeholders(&raw, &JsonPath::root()));
    // An unknown field is an error: a misspelt `"hiden": true` would otherwise score a held-out
    // scenario as visible, and the spec would be weaker than it reads. Letta's own fields are all
    // known, so its env files load unchanged.
    problems.extend(collector.unknown_fields.iter().map(|field| (field.path.clone(), field.message())));
    let mut warnings: Vec<(JsonPath, String)> = Vec::new();
    if let Some(spec) = &spec {
        // A semantic finding about a value that failed to parse would only repeat that failure
        // (the value is a placeholder), so those are left out.
        let unparsed: Vec<JsonPath> = problems.iter().map(|(path, _)| path.clone()).collect();
        let independent = |(path, _): &(JsonPath, String)| !unparsed.iter().any(|unparsed| unparsed.is_related(path));
        let findings = validate::check(spec);
        problems.extend(findings.problems.into_iter().filter(independent));
        warnings.extend(findings.warnings.into_iter().filter(independent));
    }

    let source_map = SourceMap::new(source);
    let mut problems: Vec<SpecProblem> = problems
        .into_iter()
        .map(|(path, message)| {
            let (line, column) = split(source_map.locate(&path));
            SpecProblem { path: path.rendered(), line, column, message }
        })
        .collect();
    let mut warnings: Vec<SpecWarning> = warnings
        .into_iter()
        .map(|(path, message)| {
            let (line, column) = split(source_map.locate(&path));
            SpecWarning { path: path.rendered().unwrap_or_else(|| ".".to_owned()), line, column, message }
        })
        .collect();
    // Stable sorts: findings at one position keep the order they were found in.
    problems.sort_by_key(|problem| source_order(problem.line, problem.column));
    warnings.sort_by_key(|warning| source_order(warning.line, warning.column));

    match spec {
        Some(spec) if problems.is_empty() => Ok(LoadedSpec { path: path.to_owned(), spec, raw, warnings }),
        _ => Err(SpecError { path: path.to_owned(), problems, warnings }),
    }
}

/// Parses `source` as JSON; an error is serde_json's message without its
/// position suffix, and the (line, column) it points at.
pub(crate) fn parse_json(source: &str) -> Result<Value, (String, (usize, usize))> {
    serde_json::from_str(source).map_err(|error| {
        let position = (error.line(), error.column());
        let message = error.to_string();
        let suffix = format!(" at line {} column {}", position.0, position.1);
        (message.strip_suffix(&suffix).unwrap_or(&message).to_owned(), position)
    })
}

fn whole_file_problem(message: &str, position: Option<(usize, usize)>) -> SpecProblem {
    let (line, column) = split(position);
    SpecProblem { path: None, line, column, message: message.to_owned() }
}

fn split(position: Option<(usize, usize)>) -> (Option<usize>, Option<usize>) {
    (position.map(|(line, _)| line), position.map(|(_, column)| column))
}

fn source_order(line: Option<usize>, column: Option<usize>) -> (usize, usize) {
    (line.unwrap_or(usize::MAX), column.unwrap_or(usize::MAX))
}

fn read_spec(value: Value, collector: &mut Collector) -> Option<ModLearningSpec> {
    let root = JsonPath::root();
    let mut object = expect_object(value, &root, collector)?;
    drop_annotations(&mut object, &["$schema", "version"]);
    let examples = object.shift_remove("examples");
    let evaluation = object.shift_remove("evaluation");
    let spec: Option<ModLearningSpec> = read_object(object, &root, &["examples", "evaluation"], collector);
    let examples = read_each(examples, &root.key("examples"), collector, |value, path, collector| {
        read_struct::<Example>(value, path, &[], collector).unwrap_or_default()
    });
    let evaluation_path = root.key("evaluation");
    let evaluation = match evaluation {
        Some(value) => read_evaluation(value, &evaluation_path, collector),
        None => {
            collector.problem(evaluation_path, "missing field");
            Evaluation::default()
        }
    };
    let mut spec = spec?;
    spec.examples = examples;
    spec.evaluation = evaluation;
    Some(spec)
}

fn read_evaluation(value: Value, path: &JsonPath, collector: &mut Collector) -> Evaluation {
    let Some(mut object) = expect_object(value, path, collector) else {
        return Evaluation::default();
    };
    let assertions = object.shift_remove("assertions");
    let scenarios = object.shift_remove("scenarios");
    let script = object.shift_remove("script");
    let evaluation: Option<Evaluation> = read_object(object, path, &["assertions", "scenarios", "script"], collector);
    let assertions = read_assertions(assertions, &path.key("assertions"), collector);
    let script = read_script(script, &path.key("script"), collector);
    let scenarios = scenarios.map(|scenarios| read_each(Some(scenarios), &path.key("scenarios"), collector, read_scenario));
    let mut evaluation = evaluation.unwrap_or_default();
    evaluation.assertions = assertions;
    evaluation.scenarios = scenarios;
    evaluation.script = script;
    evaluation
}

/// Removes notes for people that Letta's env files carry and its harness ignores (a `$schema` and
/// `version` on the file, `notes` on a scenario, a `description` on an assertion): they are no
/// misspelling of a field, so they load unchanged.
fn drop_annotations(object: &mut Map<String, Value>, names: &[&str]) {
    for name in names {
        object.shift_remove(*name);
    }
}

fn read_scenario(value: Value, path: &JsonPath, collector: &mut Collector) -> ScenarioSpec {
    let Some(mut object) = expect_object(value, path, collector) else {
        return ScenarioSpec::default();
    };
    drop_annotations(&mut object, &["notes"]);
    let assertions = object.shift_remove("assertions");
    let script = object.shift_remove("script");
    let scenario: Option<ScenarioSpec> = read_object(object, path, &["assertions", "script"], collector);
    let assertions = read_assertions(assertions, &path.key("assertions"), collector);
    let script = read_script(script, &path.key("script"), collector);
    let mut scenario = scenario.unwrap_or_default();
    scenario.assertions = assertions;
    scenario.script = script;
    scenario
}

fn read_assertions(value: Option<Value>, path: &JsonPath, collector: &mut Collector) -> Vec<Assertion> {
    read_each(value, path, collector, |value, path, collector| {
        read_assertion(value, path, collector).unwrap_or(Assertion::ModLoads(ModLoads::default()))
    })
}

fn read_script(value: Option<Value>, path: &JsonPath, collector: &mut Collector) -> Option<Vec<ScriptStep>> {
    let value = value?;
    Some(read_each(Some(value), path, collector, |value, path, collector| {
        // A placeholder keeps later steps at their index; checks about it are dropped.
        read_step(value, path, collector).unwrap_or_else(|| ScriptStep::Assistant(Default::default()))
    }))
}

/// Reads one script step: an object with exactly one kind key.
fn read_step(value: Value, path: &JsonPath, collector: &mut Collector) -> Option<ScriptStep> {
    let object = expect_object(value, path, collector)?;
    let kinds = kinds_in(&object);
    let kind = match kinds.as_slice() {
        [kind] => *kind,
        [] => {
            let expected: Vec<String> = ScriptStep::KINDS.iter().map(|kind| format!("`{kind}`")).collect();
            collector.problem(path.clone(), format!("a step needs one of {}", expected.join(", ")));
            return None;
        }
        [first, second, ..] => {
            collector.problem(path.key(*second), format!("a step has exactly one kind, and this one already has `{first}`"));
            return None;
        }
    };
    Some(match kind {
        "user" => ScriptStep::User(read_object(object, path, &[], collector)?),
        "assistant" => ScriptStep::Assistant(read_object(object, path, &[], collector)?),
        "tool" => ScriptStep::Tool(read_object(object, path, &[], collector)?),
        "conversationOpen" => ScriptStep::ConversationOpen(read_object(object, path, &[], collector)?),
        "conversationClose" => ScriptStep::ConversationClose(read_object(object, path, &[], collector)?),
        "compact" => ScriptStep::Compact(read_object(object, path, &[], collector)?),
        _ => ScriptStep::Llm(read_object(object, path, &[], collector)?),
    })
}

/// Reads one assertion; `None` (after reporting why) when it cannot be built. The caller keeps a
/// placeholder in its place so later indexes still match the file.
fn read_assertion(value: Value, path: &JsonPath, collector: &mut Collector) -> Option<Assertion> {
    let mut object = expect_object(value, path, collector)?;
    drop_annotations(&mut object, &["description"]);
    let tag_path = path.key("type");
    let tag = match object.shift_remove("type") {
        Some(Value::String(tag)) => tag,
        Some(other) => {
            collector.problem(tag_path, invalid_type(&other, "a string"));
            return None;
        }
        None => {
            collector.problem(tag_path, "missing field");
            return None;
        }
    };
    let reader = LenientPayload { object, path, collector };
    match Assertion::read_payload(&tag, reader) {
        Some(assertion) => assertion,
        None => {
            let error = <serde_json::Error as serde::de::Error>::unknown_variant(&tag, Assertion::TYPE_NAMES);
            collector.problem(tag_path, error.to_string());
            None
        }
    }
}

struct LenientPayload<'a> {
    object: Map<String, Value>,
    path: &'a JsonPath,
    collector: &'a mut Collector,
}

impl PayloadReader for LenientPayload<'_> {
    fn read<T: DeserializeOwned>(self) -> Option<T> {
        read_object(self.object, self.path, &[], self.collector)
    }
}

fn read_struct<T: DeserializeOwned>(value: Value, path: &JsonPath, nested: &[&str], collector: &mut Collector) -> Option<T> {
    let object = expect_object(value, path, collector)?;
    read_object(object, path, nested, collector)
}

/// Reads every element of an optional array with `read`; a value that is not an array is reported
/// and read as empty.
fn read_each<T>(
    value: Option<Value>,
    path: &JsonPath,
    collector: &mut Collector,
    read: impl Fn(Value, &JsonPath, &mut Collector) -> T,
) -> Vec<T> {
    match value {
        None => Vec::new(),
        Some(Value::Array(items)) => items.into_iter().enumerate().map(|(index, item)| read(item, &path.index(index), collector)).collect(),
        Some(other) => {
            collector.problem(path.clone(), invalid_type(&other, "an array"));
            Vec::new()
        }
    }
}

fn expect_object(value: Value, path: &JsonPath, collector: &mut Collector) -> Option<Map<String, Value>> {
    match value {
        Value::Object(object) => Some(object),
        other => {
            collector.problem(path.clone(), invalid_type(&other, "an object"));
            None
        }
    }
}

/// How `modlearn init` marks what the user must write: a spec still holding one checks nothing
/// it claims to, so it is refused (a mutant run would call it strong).
pub const SCAFFOLD_PLACEHOLDER: &str = "TODO(modlearn init):";

/// Every string of `value` that is still a scaffold placeholder, by JSON path.
fn scaffold_placeholders(value: &serde_json::Value, path: &JsonPath) -> Vec<(JsonPath, String)> {
    match value {
        serde_json::Value::String(text) if text.starts_with(SCAFFOLD_PLACEHOLDER) => {
            vec![(path.clone(), "is still `modlearn init`'s placeholder: write what the spec should say here".to_owned())]
        }
        serde_json::Value::Array(items) => {
            items.iter().enumerate().flat_map(|(index, item)| scaffold_placeholders(item, &path.index(index))).collect()
        }
        serde_json::Value::Object(fields) => {
            fields.iter().flat_map(|(key, item)| scaffold_placeholders(item, &path.key(key.clone()))).collect()
        }
        _ => Vec::new(),
    }
}
