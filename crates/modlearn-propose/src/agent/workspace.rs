//! The agent's view of the run directory: read-only, confined to the run
//! directory, and limited to the paths the caller lets proposers see (so
//! hidden scenarios and the spec snapshot stay out of reach).

use std::fmt::Write;
use std::path::{Component, Path, PathBuf};

/// Most entries one `list` shows.
const LIST_LIMIT: usize = 200;
/// Most characters one `read` returns.
const READ_CHAR_LIMIT: usize = 16_000;
/// Lines one `read` returns unless asked for fewer.
pub(crate) const READ_LINE_DEFAULT: usize = 400;
/// Most matches one `search` returns.
const SEARCH_LIMIT: usize = 50;
/// Files larger than this are not searched.
const SEARCH_FILE_BYTES: u64 = 1 << 20;
/// Most files one `search` looks at.
const SEARCH_FILES: usize = 2_000;

/// A read-only window on a directory.
#[derive(Clone, Debug)]
pub struct Workspace {
    root: PathBuf,
    allow: Vec<String>,
}

impl Workspace {
    /// A window on `root` showing only `allow`: relative paths of files or
    /// directories (a directory shows its whole subtree). Their parent
    /// directories show up in listings, with only the allowed entries.
    pub fn new(root: &Path, allow: Vec<String>) -> std::io::Result<Workspace> {
        let root = root.canonicalize()?;
        let allow = allow.into_iter().filter_map(|path| normalize(&path).ok()).filter(|path| !path.is_empty()).collect();
        Ok(Workspace { root, allow })
    }

    /// The directory (canonical).
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The allowed paths.
    pub fn allowed(&self) -> &[String] {
        &self.allow
    }

    fn visible(&self, rel: &str) -> bool {
        self.allow.iter().any(|allowed| rel == allowed || rel.strip_prefix(allowed.as_str()).is_some_and(|rest| rest.starts_with('/')))
    }

    /// On the way to an allowed path (the root is on every way).
    fn leads_to_visible(&self, rel: &str) -> bool {
        rel.is_empty() || self.allow.iter().any(|allowed| allowed.strip_prefix(rel).is_some_and(|rest| rest.starts_with('/')))
    }

    /// The absolute path of `rel`, which must exist, stay inside the root
    /// after following symlinks, and be visible or lead to something visible.
    fn resolve(&self, shown: &str, rel: &str) -> Result<PathBuf, String> {
        if !self.visible(rel) && !self.leads_to_visible(rel) {
            return Err(format!("`{shown}` does not exist (or is not open to proposers)"));
        }
        let path = self.root.join(rel);
        let real = path.canonicalize().map_err(|_| format!("`{shown}` does not exist (or is not open to proposers)"))?;
        if !real.starts_with(&self.root) {
            return Err(format!("`{shown}` is a link that leads outside the run directory"));
        }
        Ok(path)
    }

    /// The entries of a directory, directories first, each on a line
    /// (`name/` or `name (N bytes)`).
    pub fn list(&self, path: &str) -> Result<String, String> {
        let rel = normalize(path)?;
        let dir = self.resolve(path, &rel)?;
        if !dir.is_dir() {
            return Err(format!("`{path}` is a file; `read` reads it"));
        }
        let mut entries: Vec<(bool, String, u64)> = Vec::new();
        for entry in std::fs::read_dir(&dir).map_err(|error| format!("cannot list `{path}`: {error}"))? {
            let Ok(entry) = entry else { continue };
            let name = entry.file_name().to_string_lossy().into_owned();
            let child = join(&rel, &name);
            if !self.visible(&child) && !self.leads_to_visible(&child) {
                continue;
            }
            // Links are followed only when they stay inside the root.
            let Ok(real) = entry.path().canonicalize() else { continue };
            if !real.starts_with(&self.root) {
                continue;
            }
            let Ok(metadata) = std::fs::metadata(&real) else { continue };
            entries.push((metadata.is_dir(), name, metadata.len()));
        }
        entries.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        let shown = if rel.is_empty() { ".".to_owned() } else { rel.clone() };
        let mut out = format!("{shown}/ ({} entries)\n", entries.len());
        for (is_dir, name, bytes) in entries.iter().take(LIST_LIMIT) {
            if *is_dir {
                let _ = writeln!(out, "{name}/");
            } else {
                let _ = writeln!(out, "{name} ({bytes} bytes)");
            }
        }
        if entries.len() > LIST_LIMIT {
            let _ = writeln!(out, "[{} more entries not shown]", entries.len() - LIST_LIMIT);
        }
        Ok(out)
    }

    /// Lines `offset..offset+limit` (1-based) of a text file, cut at a size
    /// cap, with a note saying how to read on.
    pub fn read(&self, path: &str, offset: usize, limit: usize) -> Result<String, String> {
        let rel = normalize(path)?;
        if !self.visible(&rel) {
            return Err(format!("`{path}` does not exist (or is not open to proposers)"));
        }
        let file = self.resolve(path, &rel)?;
        if file.is_dir() {
            return Err(format!("`{path}` is a directory; `list` lists it"));
        }
        let bytes = std::fs::read(&file).map_err(|error| format!("cannot read `{path}`: {error}"))?;
        let text = String::from_utf8_lossy(&bytes);
        let lines: Vec<&str> = text.lines().collect();
        let offset = offset.max(1);
        if offset > lines.len().max(1) {
            return Err(format!("`{path}` has {} line(s); offset {offset} is past its end", lines.len()));
        }
        let mut out = String::new();
        let mut last = offset - 1;
        for (index, line) in lines.iter().enumerate().skip(offset - 1).take(limit.max(1)) {
            if out.len() + line.len() + 1 > READ_CHAR_LIMIT {
                break;
            }
            out.push_str(line);
            out.push('\n');
            last = index + 1;
        }
        if last < lines.len() {
            let _ = write!(out, "[lines {offset}-{last} of {}; read with offset {} for more]", lines.len(), last + 1);
        }
        Ok(out)
    }

    /// Lines matching `pattern` (a substring, or a regular expression) in
    /// the visible files under `path` (default: everywhere), as
    /// `file:line: text`.
    pub fn search(&self, pattern: &str, is_regex: bool, path: Option<&str>) -> Result<String, String> {
        if pattern.is_empty() {
            return Err("`pattern` is empty".to_owned());
        }
        let matcher = if is_regex {
            let regex = regex::RegexBuilder::new(pattern)
                .size_limit(1 << 20)
                .build()
                .map_err(|error| format!("`pattern` is not a valid regular expression: {error}"))?;
            Matcher::Regex(regex)
        } else {
            Matcher::Substring(pattern.to_owned())
        };
        let under = normalize(path.unwrap_or(""))?;
        if !under.is_empty() {
            self.resolve(path.unwrap_or(""), &under)?;
        }
        let mut hits = Vec::new();
        let mut more = false;
        for rel in self.files().into_iter().filter(|rel| under.is_empty() || *rel == under || rel.starts_with(&format!("{under}/"))) {
            let Ok(file) = self.resolve(&rel, &rel) else { continue };
            if std::fs::metadata(&file).map_or(true, |m| m.len() > SEARCH_FILE_BYTES) {
                continue;
            }
            let Ok(bytes) = std::fs::read(&file) else { continue };
            for (number, line) in String::from_utf8_lossy(&bytes).lines().enumerate() {
                if matcher.is_match(line) {
                    if hits.len() == SEARCH_LIMIT {
                        more = true;
                        break;
                    }
                    hits.push(format!("{rel}:{}: {}", number + 1, clip(line.trim(), 200)));
                }
            }
            if more {
                break;
            }
        }
        if hits.is_empty() {
            return Ok(format!("no match for {pattern:?}\n"));
        }
        let mut out = hits.join("\n");
        out.push('\n');
        if more {
            let _ = writeln!(out, "[stopped at {SEARCH_LIMIT} matches; narrow the pattern or the path]");
        }
        Ok(out)
    }

    /// Every visible file, sorted.
    fn files(&self) -> Vec<String> {
        let mut files = Vec::new();
        for allowed in &self.allow {
            let path = self.root.join(allowed);
            let Ok(real) = path.canonicalize() else { continue };
            if !real.starts_with(&self.root) {
                continue;
            }
            if real.is_file() {
                files.push(allowed.clone());
            } else if real.is_dir() {
                walk(&path, allowed, &mut files);
            }
            if files.len() >= SEARCH_FILES {
                break;
            }
        }
        files.sort();
        files.dedup();
        files.truncate(SEARCH_FILES);
        files
    }
}

enum Matcher {
    Substring(String),
    Regex(regex::Regex),
}

impl Matcher {
    fn is_match(&self, line: &str) -> bool {
        match self {
            Matcher::Substring(needle) => line.contains(needle.as_str()),
            Matcher::Regex(regex) => regex.is_match(line),
        }
    }
}

/// Files below `dir`; links are not followed (a link to a directory could loop).
fn walk(dir: &Path, rel: &str, files: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let Ok(kind) = entry.file_type() else { continue };
        let child = join(rel, &entry.file_name().to_string_lossy());
        if kind.is_dir() {
            walk(&entry.path(), &child, files);
        } else if kind.is_file() {
            files.push(child);
        }
        if files.len() >= SEARCH_FILES {
            return;
        }
    }
}

fn join(rel: &str, name: &str) -> String {
    if rel.is_empty() { name.to_owned() } else { format!("{rel}/{name}") }
}

/// A relative path in `a/b` form (`""` for the root), or why it is refused:
/// absolute paths and `..` never get past here.
pub(crate) fn normalize(path: &str) -> Result<String, String> {
    let trimmed = path.trim();
    if trimmed.contains('\\') || trimmed.contains('\0') {
        return Err(format!("`{path}`: use `/` between path parts"));
    }
    let as_path = Path::new(trimmed);
    if as_path.has_root() {
        return Err(format!("`{path}` is absolute; paths are relative to the run directory"));
    }
    let mut parts = Vec::new();
    for component in as_path.components() {
        match component {
            Component::Normal(part) => parts.push(part.to_string_lossy().into_owned()),
            Component::CurDir => {}
            Component::ParentDir => return Err(format!("`{path}` leaves the run directory; `..` is not allowed")),
            Component::RootDir | Component::Prefix(_) => {
                return Err(format!("`{path}` is absolute; paths are relative to the run directory"));
            }
        }
    }
    Ok(parts.join("/"))
}

/// `text` cut to `limit` characters, with a note of how much was left out.
pub(crate) fn clip(text: &str, limit: usize) -> String {
    match text.char_indices().nth(limit) {
        Some((end, _)) => format!("{}… [{} more chars]", &text[..end], text[end..].chars().count()),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn workspace() -> (tempfile::TempDir, Workspace) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("run");
        std::fs::create_dir_all(root.join("candidates/001/mods")).unwrap();
        std::fs::create_dir_all(root.join("candidates/001/eval/001-visible")).unwrap();
        std::fs::create_dir_all(root.join("candidates/001/eval/002-hidden")).unwrap();
        std::fs::write(root.join("history.json"), "{\n  \"attempts\": []\n}\n").unwrap();
        std::fs::write(root.join("env.snapshot.json"), "{\"hidden\": true}").unwrap();
        std::fs::write(root.join("candidates/001/mods/m.ts"), "export function activate(letta) {}\n").unwrap();
        std::fs::write(root.join("candidates/001/eval/001-visible/assertions.result.json"), "{\"passed\": false}\n").unwrap();
        std::fs::write(root.join("candidates/001/eval/002-hidden/assertions.result.json"), "{\"secret\": 1}\n").unwrap();
        std::fs::write(dir.path().join("outside.txt"), "outside secret\n").unwrap();
        std::os::unix::fs::symlink(dir.path().join("outside.txt"), root.join("candidates/001/mods/escape.ts")).unwrap();
        let allow = vec!["history.json".into(), "candidates/001/mods".into(), "candidates/001/eval/001-visible".into()];
        let workspace = Workspace::new(&root, allow).unwrap();
        (dir, workspace)
    }

    #[test]
    fn listings_show_only_what_is_open() {
        let (_dir, workspace) = workspace();
        assert_eq!(workspace.list("").unwrap(), "./ (2 entries)\ncandidates/\nhistory.json (21 bytes)\n");
        assert_eq!(workspace.list("candidates/001/eval").unwrap(), "candidates/001/eval/ (1 entries)\n001-visible/\n");
        // The escaping link is not listed.
        assert_eq!(workspace.list("./candidates/001/mods/").unwrap(), "candidates/001/mods/ (1 entries)\nm.ts (35 bytes)\n");
    }

    #[test]
    fn escapes_and_closed_paths_are_refused() {
        let (_dir, workspace) = workspace();
        for (path, error) in [
            ("../outside.txt", "`../outside.txt` leaves the run directory; `..` is not allowed"),
            ("candidates/../../outside.txt", "`candidates/../../outside.txt` leaves the run directory; `..` is not allowed"),
            ("/etc/passwd", "`/etc/passwd` is absolute; paths are relative to the run directory"),
            ("env.snapshot.json", "`env.snapshot.json` does not exist (or is not open to proposers)"),
            (
                "candidates/001/eval/002-hidden/assertions.result.json",
                "`candidates/001/eval/002-hidden/assertions.result.json` does not exist (or is not open to proposers)",
            ),
            ("candidates/001/mods/escape.ts", "`candidates/001/mods/escape.ts` is a link that leads outside the run directory"),
        ] {
            assert_eq!(workspace.read(path, 1, 10).unwrap_err(), error);
        }
        assert!(workspace.list("..").is_err());
    }

    #[test]
    fn reads_pages_and_searches() {
        let (_dir, workspace) = workspace();
        assert_eq!(workspace.read("history.json", 2, 1).unwrap(), "  \"attempts\": []\n[lines 2-2 of 3; read with offset 3 for more]");
        assert_eq!(workspace.read("history.json", 9, 1).unwrap_err(), "`history.json` has 3 line(s); offset 9 is past its end");
        assert_eq!(
            workspace.search("passed", false, None).unwrap(),
            "candidates/001/eval/001-visible/assertions.result.json:1: {\"passed\": false}\n"
        );
        assert_eq!(
            workspace.search(r"activate\(\w+\)", true, Some("candidates")).unwrap(),
            "candidates/001/mods/m.ts:1: export function activate(letta) {}\n"
        );
        assert_eq!(workspace.search("secret", false, None).unwrap(), "no match for \"secret\"\n");
        assert!(workspace.search("(", true, None).unwrap_err().starts_with("`pattern` is not a valid regular expression"));
    }
}
