//! Takes machine-specific parts out of diagnostic text, so a snapshot taken
//! on one machine matches on another: the mod's directory (as a path or a
//! `file://` URL) goes, so files read as their names; the engine's
//! `?load=N` module query goes; line and column numbers after a file name
//! go.

use std::path::Path;

use crate::walk::absolute;

/// Normalises text about one mod.
pub(crate) struct Normaliser {
    /// Directory prefixes to remove, longest first.
    prefixes: Vec<String>,
}

impl Normaliser {
    /// A normaliser for the mod at `path`.
    pub(crate) fn for_mod(path: &Path) -> Self {
        let mut dirs = Vec::new();
        for candidate in [Some(absolute(path)), path.canonicalize().ok()].into_iter().flatten() {
            if let Some(dir) = candidate.parent() {
                let dir = dir.display().to_string();
                if !dirs.contains(&dir) {
                    dirs.push(dir);
                }
            }
        }
        let mut prefixes = Vec::new();
        for dir in dirs {
            prefixes.push(format!("file://{dir}/"));
            prefixes.push(format!("{dir}/"));
        }
        prefixes.sort_by_key(|p| std::cmp::Reverse(p.len()));
        Self { prefixes }
    }

    /// `text` with the mod's directory, module queries and positions removed.
    pub(crate) fn text(&self, text: &str) -> String {
        let mut text = text.to_owned();
        for prefix in &self.prefixes {
            text = text.replace(prefix.as_str(), "");
        }
        strip_positions(&strip_load_queries(&text))
    }
}

/// Removes `?load=<digits>` (the engine's per-generation module query).
fn strip_load_queries(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("?load=") {
        let digits = rest[at + 6..].chars().take_while(char::is_ascii_digit).count();
        out.push_str(&rest[..at]);
        if digits == 0 {
            out.push_str("?load=");
        }
        rest = &rest[at + 6 + digits..];
    }
    out.push_str(rest);
    out
}

/// Removes `:line` and `:line:column` that follow a mod file name (a word
/// ending in `.js`, `.mjs`, `.ts` or `.tsx`); other numbers stay.
fn strip_positions(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    'scan: while !rest.is_empty() {
        for extension in [".tsx", ".mjs", ".js", ".ts"] {
            if let Some(after) = rest.strip_prefix(extension) {
                let next = after.chars().next();
                // `.js` inside `.json` or `.jsx...` is not a file-name end.
                if next.is_some_and(|c| c.is_ascii_alphanumeric()) {
                    continue;
                }
                out.push_str(extension);
                let mut tail = after;
                for _ in 0..2 {
                    let digits = tail.strip_prefix(':').map(|t| t.chars().take_while(char::is_ascii_digit).count()).unwrap_or(0);
                    if digits == 0 {
                        break;
                    }
                    tail = &tail[1 + digits..];
                }
                rest = tail;
                continue 'scan;
            }
        }
        let ch = rest.chars().next().expect("rest is not empty");
        out.push(ch);
        rest = &rest[ch.len_utf8()..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removes_the_mods_directory_in_paths_and_urls() {
        let normaliser = Normaliser { prefixes: vec!["file:///home/u/mods/".into(), "/home/u/mods/".into()] };
        assert_eq!(normaliser.text("Cannot load file:///home/u/mods/a.js?load=3 from /home/u/mods/b.ts:4:7"), "Cannot load a.js from b.ts");
    }

    #[test]
    fn keeps_numbers_that_are_not_positions() {
        assert_eq!(strip_positions("took 2000 ms at x.json:3"), "took 2000 ms at x.json:3");
        assert_eq!(strip_positions("at m.ts:12:5)"), "at m.ts)");
        assert_eq!(strip_positions("at m.mjs:12"), "at m.mjs");
        assert_eq!(strip_positions("ratio 3:4"), "ratio 3:4");
    }

    #[test]
    fn keeps_a_bare_load_query() {
        assert_eq!(strip_load_queries("a?load=x ?load=12!"), "a?load=x !");
    }
}
