//! Reads one JSON object into a serde type while collecting every field error, not just the first.
//!
//! serde stops at the first error, so the object is deserialized repeatedly: a field that fails
//! is reported and dropped, and a required field that is missing (or was dropped) is given a
//! placeholder (an empty string, list or object) so that the remaining fields are still checked.
//! Fields that a later layer reads on its own are placeholders from the start. The result is the
//! best-effort value, which semantic checks can still look at.

use indexmap::IndexMap;
use serde::de::value::{MapDeserializer, SeqDeserializer};
use serde::de::{self, DeserializeOwned, DeserializeSeed, IntoDeserializer, MapAccess, Visitor};
use serde::forward_to_deserialize_any;
use serde_json::{Map, Value};

use crate::path::{JsonPath, Segment};

/// Problems and unknown fields found while reading, in the order found.
#[derive(Default)]
pub(crate) struct Collector {
    pub(crate) problems: Vec<(JsonPath, String)>,
    pub(crate) unknown_fields: Vec<UnknownField>,
}

/// A field the type does not know, with the known field it most likely means.
pub(crate) struct UnknownField {
    pub(crate) path: JsonPath,
    pub(crate) suggestion: Option<&'static str>,
}

impl UnknownField {
    /// `unknown field`, with `; did you mean `x`?` when a known name is close.
    pub(crate) fn message(&self) -> String {
        match self.suggestion {
            Some(known) => format!("unknown field; did you mean `{known}`?"),
            None => "unknown field".to_owned(),
        }
    }
}

impl Collector {
    pub(crate) fn problem(&mut self, path: JsonPath, message: impl Into<String>) {
        self.problems.push((path, message.into()));
    }
}

/// Reads `object` (found at `path`) into `T`, reporting into `collector` every field that fails
/// and every field `T` does not know. Keys in `nested` are left to the caller. `None` only when the
/// object could not be repaired enough to build a `T`.
pub(crate) fn read_object<T: DeserializeOwned>(
    object: Map<String, Value>,
    path: &JsonPath,
    nested: &[&str],
    collector: &mut Collector,
) -> Option<T> {
    let mut entries: IndexMap<String, Entry> =
        object.into_iter().filter(|(key, _)| !nested.contains(&key.as_str())).map(|(key, value)| (key, Entry::Value(value))).collect();
    for key in nested {
        entries.insert((*key).to_owned(), Entry::Placeholder);
    }
    let mut dropped = Vec::new();
    let known = field_names::<T>();
    // Each round drops a field or gives one a placeholder, so this bound is never reached.
    for _ in 0..=2 * entries.len() + 64 {
        let mut unknown = Vec::new();
        let mut record_unknown = |ignored: serde_ignored::Path<'_>| unknown.push(ignored_path(&ignored));
        let deserializer = serde_ignored::Deserializer::new(ObjectDeserializer::new(entries.clone()), &mut record_unknown);
        let error = match serde_path_to_error::deserialize::<_, T>(deserializer) {
            Ok(value) => {
                report_unknown(collector, path, unknown, known);
                return Some(value);
            }
            Err(error) => error,
        };
        let inner = error_path(error.path());
        let message = error.into_inner().to_string();
        if let Some(field) = missing_field(&message) {
            let field_path = path.join(&inner).key(field);
            if !inner.is_root() {
                // A nested value only misses a field when its type is not a plain struct; report
                // it and give up on this object rather than guess.
                collector.problem(field_path, "missing field");
                report_unknown(collector, path, unknown, known);
                return None;
            }
            if !dropped.iter().any(|dropped| dropped == field) {
                collector.problem(field_path, "missing field");
            }
            if matches!(entries.get(field), Some(Entry::Placeholder)) {
                report_unknown(collector, path, unknown, known);
                return None;
            }
            entries.insert(field.to_owned(), Entry::Placeholder);
            continue;
        }
        collector.problem(path.join(&inner), normalize_message(&message));
        let Some(Segment::Key(field)) = inner.first() else {
            report_unknown(collector, path, unknown, known);
            return None;
        };
        if !matches!(entries.get(field), Some(Entry::Value(_))) {
            report_unknown(collector, path, unknown, known);
            return None;
        }
        entries.shift_remove(field);
        dropped.push(field.clone());
    }
    None
}

/// The same message in JSON words: serde says "sequence" and "map" where a spec author writes an
/// array and an object.
pub(crate) fn normalize_message(message: &str) -> String {
    message
        .replace("invalid type: sequence", "invalid type: array")
        .replace("invalid type: map", "invalid type: object")
        .replace("expected a sequence", "expected an array")
        .replace("expected a map", "expected an object")
}

/// serde's message for `value` where `expected` was wanted, such as ``invalid type: integer `3`,
/// expected an object``.
pub(crate) fn invalid_type(value: &Value, expected: &str) -> String {
    use serde::de::Unexpected;
    let unexpected = match value {
        Value::Null => Unexpected::Unit,
        Value::Bool(value) => Unexpected::Bool(*value),
        Value::Number(number) => match (number.as_u64(), number.as_i64()) {
            (Some(value), _) => Unexpected::Unsigned(value),
            (None, Some(value)) => Unexpected::Signed(value),
            (None, None) => Unexpected::Float(number.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(value) => Unexpected::Str(value),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    };
    normalize_message(&<serde_json::Error as de::Error>::invalid_type(unexpected, &expected).to_string())
}

fn missing_field(message: &str) -> Option<&str> {
    message.strip_prefix("missing field `")?.strip_suffix('`')
}

fn report_unknown(collector: &mut Collector, path: &JsonPath, unknown: Vec<JsonPath>, known: &[&'static str]) {
    collector.unknown_fields.extend(unknown.into_iter().map(|inner| {
        // Only a field of this object itself has its siblings in `known`.
        let suggestion = match inner.segments() {
            [Segment::Key(name)] => nearest(name, known),
            _ => None,
        };
        UnknownField { path: path.join(&inner), suggestion }
    }));
}

/// The known name `name` most likely misspells: the same letters in another case or with `_`/`-`
/// (`tool_name` for `toolName`), else the closest by edit distance, within a third of its length.
pub(crate) fn nearest(name: &str, known: &[&'static str]) -> Option<&'static str> {
    let fold = |text: &str| text.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect::<String>();
    let folded = fold(name);
    if let Some(same) = known.iter().find(|known| fold(known) == folded) {
        return Some(same);
    }
    let limit = (name.chars().count() / 3).max(1);
    known
        .iter()
        .map(|known| (edit_distance(&folded, &fold(known)), *known))
        .filter(|(distance, _)| *distance <= limit)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, known)| known)
}

/// Levenshtein distance over characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1).min(row[j] + 1).min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

/// The field names (as written in JSON) of the struct `T`: serde passes them to
/// `deserialize_struct`, which this deserializer records before refusing. Empty for types that
/// are not plain structs.
pub(crate) fn field_names<T: DeserializeOwned>() -> &'static [&'static str] {
    let mut fields: &'static [&'static str] = &[];
    let _ = T::deserialize(FieldProbe { fields: &mut fields });
    fields
}

struct FieldProbe<'a> {
    fields: &'a mut &'static [&'static str],
}

impl<'de> de::Deserializer<'de> for FieldProbe<'_> {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("only the field names were wanted"))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Self::Error> {
        *self.fields = fields;
        Err(de::Error::custom("only the field names were wanted"))
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option
        unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
    }
}

fn error_path(path: &serde_path_to_error::Path) -> JsonPath {
    let mut segments = Vec::new();
    for segment in path.iter() {
        match segment {
            serde_path_to_error::Segment::Seq { index } => segments.push(Segment::Index(*index)),
            serde_path_to_error::Segment::Map { key } => segments.push(Segment::Key(key.clone())),
            serde_path_to_error::Segment::Enum { variant } => {
                segments.push(Segment::Key(variant.clone()));
            }
            serde_path_to_error::Segment::Unknown => break,
        }
    }
    segments.into()
}

fn ignored_path(path: &serde_ignored::Path<'_>) -> JsonPath {
    match path {
        serde_ignored::Path::Root => JsonPath::root(),
        serde_ignored::Path::Seq { parent, index } => ignored_path(parent).index(*index),
        serde_ignored::Path::Map { parent, key } => ignored_path(parent).key(key.clone()),
        serde_ignored::Path::Some { parent }
        | serde_ignored::Path::NewtypeStruct { parent }
        | serde_ignored::Path::NewtypeVariant { parent } => ignored_path(parent),
    }
}

#[derive(Clone)]
enum Entry {
    Value(Value),
    Placeholder,
}

/// Presents the entries as a JSON object, with placeholders where values were dropped.
struct ObjectDeserializer {
    entries: indexmap::map::IntoIter<String, Entry>,
    pending: Option<Entry>,
}

impl ObjectDeserializer {
    fn new(entries: IndexMap<String, Entry>) -> Self {
        Self { entries: entries.into_iter(), pending: None }
    }
}

impl<'de> de::Deserializer<'de> for ObjectDeserializer {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_map(self)
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option
        unit unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier
        ignored_any
    }
}

impl<'de> MapAccess<'de> for ObjectDeserializer {
    type Error = serde_json::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Self::Error> {
        let Some((key, entry)) = self.entries.next() else {
            return Ok(None);
        };
        self.pending = Some(entry);
        seed.deserialize(key.into_deserializer()).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Self::Error> {
        match self.pending.take() {
            Some(Entry::Value(value)) => seed.deserialize(value),
            Some(Entry::Placeholder) => seed.deserialize(Placeholder),
            None => Err(de::Error::custom("value requested before its key")),
        }
    }
}

/// Deserializes as the emptiest value of whatever type asks: `""`, `[]`, `{}`, `None`, `false`,
/// `0`, or `null` for untyped values.
struct Placeholder;

impl<'de> de::Deserializer<'de> for Placeholder {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_unit()
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_bool(false)
    }

    fn deserialize_u64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_u64(0)
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_str("")
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_str("")
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_none()
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_seq(SeqDeserializer::<_, Self::Error>::new(std::iter::empty::<()>()))
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_map(MapDeserializer::<_, Self::Error>::new(std::iter::empty::<((), ())>()))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.deserialize_map(visitor)
    }

    /// The first unit variant, so a required enum field that was wrong is reported only once.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        match variants.first() {
            Some(first) => visitor.visit_enum(IntoDeserializer::<Self::Error>::into_deserializer(*first)),
            None => visitor.visit_unit(),
        }
    }

    forward_to_deserialize_any! {
        i8 i16 i32 i64 i128 u8 u16 u32 u128 f32 f64 char bytes byte_buf unit unit_struct
        newtype_struct tuple tuple_struct identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(rename_all = "camelCase")]
    struct Sample {
        tool_name: String,
        args: Map<String, Value>,
        #[serde(default)]
        count: Option<u32>,
        #[serde(default)]
        tags: Vec<String>,
    }

    fn read(value: Value) -> (Option<Sample>, Vec<String>, Vec<String>) {
        let Value::Object(object) = value else { unreachable!() };
        let mut collector = Collector::default();
        let sample = read_object(object, &JsonPath::root().key("a"), &[], &mut collector);
        let problems = collector.problems.iter().map(|(path, message)| format!("{path}: {message}")).collect();
        let unknown = collector.unknown_fields.iter().map(|field| format!("{}: {}", field.path, field.message())).collect();
        (sample, problems, unknown)
    }

    #[test]
    fn collects_every_field_error_and_missing_field() {
        let (sample, problems, unknown) = read(json!({
            "count": "x", "tags": ["ok", 3], "toolname": "Bash"
        }));
        assert_eq!(
            problems,
            [
                "a.count: invalid type: string \"x\", expected u32",
                "a.tags[1]: invalid type: integer `3`, expected a string",
                "a.toolName: missing field",
                "a.args: missing field",
            ]
        );
        assert_eq!(unknown, ["a.toolname: unknown field; did you mean `toolName`?"]);
        let sample = sample.unwrap();
        assert_eq!((sample.tool_name.as_str(), sample.count), ("", None));
    }

    #[test]
    fn a_wrong_required_field_is_reported_once() {
        let (_, problems, _) = read(json!({ "toolName": 3, "args": [] }));
        assert_eq!(
            problems,
            ["a.toolName: invalid type: integer `3`, expected a string", "a.args: invalid type: array, expected an object",]
        );
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(rename_all = "lowercase")]
    enum Verdict {
        Allow,
        Deny,
    }

    #[derive(Debug, Deserialize)]
    struct Decides {
        #[allow(dead_code)]
        decision: Verdict,
    }

    #[test]
    fn a_wrong_required_enum_is_reported_once() {
        let Value::Object(object) = json!({ "decision": "maybe" }) else { unreachable!() };
        let mut collector = Collector::default();
        let read = read_object::<Decides>(object, &JsonPath::root(), &[], &mut collector);
        let problems: Vec<String> = collector.problems.iter().map(|(_, message)| message.clone()).collect();
        assert_eq!(problems, ["unknown variant `maybe`, expected `allow` or `deny`"]);
        assert_eq!(read.unwrap().decision, Verdict::Allow);
    }

    #[test]
    fn unknown_fields_get_the_nearest_known_name() {
        let known = field_names::<Sample>();
        assert_eq!(known, ["toolName", "args", "count", "tags"]);
        assert_eq!(nearest("tool_name", known), Some("toolName"));
        assert_eq!(nearest("arg", known), Some("args"));
        assert_eq!(nearest("tagz", known), Some("tags"));
        assert_eq!(nearest("author", known), None);
        let (_, _, unknown) = read(json!({ "toolName": "Bash", "args": {}, "owner": "me" }));
        assert_eq!(unknown, ["a.owner: unknown field"]);
    }

    #[test]
    fn a_good_object_reads_as_serde_would() {
        let value = json!({ "toolName": "Bash", "args": { "command": "ls" }, "count": 2 });
        let (sample, problems, unknown) = read(value.clone());
        assert!(problems.is_empty() && unknown.is_empty());
        assert_eq!(sample.unwrap(), serde_json::from_value::<Sample>(value).unwrap());
    }
}
