//! Finds where each JSON path sits in the source text, so problems can name a line and column.
//!
//! `serde_json::Value` keeps no positions, so the (already validated) text is scanned once more.

use std::collections::HashMap;

use crate::path::JsonPath;

/// Byte offsets of every key and array element of one JSON document.
pub(crate) struct SourceMap<'a> {
    source: &'a str,
    offsets: HashMap<JsonPath, usize>,
}

impl<'a> SourceMap<'a> {
    /// Indexes `source`, which `serde_json` has already parsed; a scan that goes wrong anyway only
    /// loses positions.
    pub(crate) fn new(source: &'a str) -> Self {
        let mut scanner = Scanner { source, bytes: source.as_bytes(), position: 0, offsets: HashMap::new() };
        let _ = scanner.value(JsonPath::root(), true);
        Self { source, offsets: scanner.offsets }
    }

    /// Line and column (both 1-based, columns in characters) of `path`'s key or value; a path that
    /// does not exist (a missing field) falls back to its nearest existing parent.
    pub(crate) fn locate(&self, path: &JsonPath) -> Option<(usize, usize)> {
        let mut current = Some(path.clone());
        while let Some(path) = current {
            if let Some(&offset) = self.offsets.get(&path) {
                return Some(line_and_column(self.source, offset));
            }
            current = path.parent();
        }
        None
    }
}

fn line_and_column(source: &str, offset: usize) -> (usize, usize) {
    let before = &source[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |newline| newline + 1);
    (line, before[line_start..].chars().count() + 1)
}

struct Scanner<'a> {
    source: &'a str,
    bytes: &'a [u8],
    position: usize,
    offsets: HashMap<JsonPath, usize>,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.position).copied()
    }

    fn skip_whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.position += 1;
        }
    }

    fn value(&mut self, path: JsonPath, record: bool) -> Option<()> {
        self.skip_whitespace();
        if record {
            self.offsets.insert(path.clone(), self.position);
        }
        match self.peek()? {
            b'{' => self.object(path),
            b'[' => self.array(path),
            b'"' => self.string().map(drop),
            _ => {
                while !matches!(self.peek(), None | Some(b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r')) {
                    self.position += 1;
                }
                Some(())
            }
        }
    }

    fn object(&mut self, path: JsonPath) -> Option<()> {
        self.position += 1;
        loop {
            self.skip_whitespace();
            match self.peek()? {
                b'}' => {
                    self.position += 1;
                    return Some(());
                }
                b',' => self.position += 1,
                b'"' => {
                    let key_offset = self.position;
                    let key = self.string()?;
                    self.skip_whitespace();
                    if self.peek()? != b':' {
                        return None;
                    }
                    self.position += 1;
                    // Keys locate better than values: `"toolName": 3` points at `toolName`.
                    let child = path.key(key);
                    self.offsets.insert(child.clone(), key_offset);
                    self.value(child, false)?;
                }
                _ => return None,
            }
        }
    }

    fn array(&mut self, path: JsonPath) -> Option<()> {
        self.position += 1;
        let mut index = 0;
        loop {
            self.skip_whitespace();
            match self.peek()? {
                b']' => {
                    self.position += 1;
                    return Some(());
                }
                b',' => self.position += 1,
                _ => {
                    self.value(path.index(index), true)?;
                    index += 1;
                }
            }
        }
    }

    /// Skips a string literal and returns its decoded text.
    fn string(&mut self) -> Option<String> {
        let start = self.position;
        self.position += 1;
        loop {
            match self.peek()? {
                b'\\' => self.position += 2,
                b'"' => break,
                _ => self.position += 1,
            }
        }
        self.position += 1;
        serde_json::from_str(self.source.get(start..self.position)?).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locates_keys_elements_and_missing_fields() {
        let source = "{\n  \"a\": [1, {\"b\": \"x\"}],\n  \"é\\\"\": {\"c\": true}\n}";
        let map = SourceMap::new(source);
        let a = JsonPath::root().key("a");
        assert_eq!(map.locate(&a), Some((2, 3)));
        assert_eq!(map.locate(&a.index(0)), Some((2, 9)));
        assert_eq!(map.locate(&a.index(1).key("b")), Some((2, 13)));
        assert_eq!(map.locate(&a.index(1).key("missing")), Some((2, 12)));
        assert_eq!(map.locate(&JsonPath::root().key("é\"").key("c")), Some((3, 11)));
        assert_eq!(map.locate(&JsonPath::root()), Some((1, 1)));
    }
}
