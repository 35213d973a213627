//! JSON paths such as `evaluation.scenarios[2].assertions[0].toolName`, used to name the place of
//! every problem and warning.

use std::fmt;

/// One step into a JSON document.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Segment {
    Key(String),
    Index(usize),
}

/// A location inside a JSON document; the empty path is the document itself.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct JsonPath(Vec<Segment>);

impl JsonPath {
    pub(crate) fn root() -> Self {
        Self::default()
    }

    pub(crate) fn key(&self, key: impl Into<String>) -> Self {
        self.with(Segment::Key(key.into()))
    }

    pub(crate) fn index(&self, index: usize) -> Self {
        self.with(Segment::Index(index))
    }

    pub(crate) fn with(&self, segment: Segment) -> Self {
        let mut segments = self.0.clone();
        segments.push(segment);
        Self(segments)
    }

    pub(crate) fn join(&self, other: &JsonPath) -> Self {
        let mut segments = self.0.clone();
        segments.extend(other.0.iter().cloned());
        Self(segments)
    }

    pub(crate) fn is_root(&self) -> bool {
        self.0.is_empty()
    }

    pub(crate) fn segments(&self) -> &[Segment] {
        &self.0
    }

    pub(crate) fn first(&self) -> Option<&Segment> {
        self.0.first()
    }

    pub(crate) fn parent(&self) -> Option<Self> {
        let (_, rest) = self.0.split_last()?;
        Some(Self(rest.to_vec()))
    }

    /// Whether one path lies inside the other (or they are equal): a semantic problem about a
    /// value that already failed to parse would only repeat that failure.
    pub(crate) fn is_related(&self, other: &JsonPath) -> bool {
        let shorter = self.0.len().min(other.0.len());
        self.0[..shorter] == other.0[..shorter]
    }

    /// The path as `Some(rendered)`, or `None` for the whole document.
    pub(crate) fn rendered(&self) -> Option<String> {
        (!self.is_root()).then(|| self.to_string())
    }
}

impl From<Vec<Segment>> for JsonPath {
    fn from(segments: Vec<Segment>) -> Self {
        Self(segments)
    }
}

impl fmt::Display for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (position, segment) in self.0.iter().enumerate() {
            match segment {
                Segment::Key(key) if is_identifier(key) => {
                    if position > 0 {
                        f.write_str(".")?;
                    }
                    f.write_str(key)?;
                }
                // Memory file names such as `reference/notes.md` would be ambiguous after a dot.
                Segment::Key(key) => write!(f, "[{}]", serde_json::Value::from(key.as_str()))?,
                Segment::Index(index) => write!(f, "[{index}]")?,
            }
        }
        Ok(())
    }
}

fn is_identifier(key: &str) -> bool {
    let mut chars = key.chars();
    chars.next().is_some_and(|first| first.is_ascii_alphabetic() || first == '_' || first == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_keys_indexes_and_odd_keys() {
        let path = JsonPath::root().key("evaluation").key("scenarios").index(2).key("memoryFiles").key("../x");
        assert_eq!(path.to_string(), r#"evaluation.scenarios[2].memoryFiles["../x"]"#);
        assert_eq!(JsonPath::root().index(0).key("a").to_string(), "[0].a");
        assert_eq!(JsonPath::root().rendered(), None);
    }

    #[test]
    fn relation_is_prefix_either_way() {
        let scenario = JsonPath::root().key("evaluation").key("scenarios").index(1);
        let field = scenario.key("prompt");
        assert!(scenario.is_related(&field));
        assert!(field.is_related(&scenario));
        assert!(!field.is_related(&scenario.key("name")));
    }
}
