//! Which files `modlearn check` treats as mods, and in what order.
//!
//! A file argument is one mod whatever its name says, as long as the engine
//! can load its kind (`.js`, `.mjs`, `.ts`, `.tsx`). A directory argument is
//! walked recursively: every file with one of those extensions is a mod,
//! except TypeScript declaration files (`.d.ts`), entries whose name starts
//! with `.` and `node_modules` directories. Symbolic links are not followed,
//! so a link cannot pull files from outside the tree into the snapshot.
//! Mods are sorted by their snapshot key (a `/`-separated relative path),
//! byte-wise, so the order never depends on the filesystem.

use std::path::{Component, Path, PathBuf};

use modlearn_engine::SourceKind;

use crate::CheckError;

/// One mod file to check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModFile {
    /// The file, as found (joined onto the argument it came from).
    pub path: PathBuf,
    /// Its name in the snapshot: the path relative to the snapshot file's
    /// directory, with `/` separators.
    pub key: String,
}

/// Finds the mods named by `inputs` (files or directories), keyed relative
/// to `base` (the snapshot file's directory). Duplicates (a file named
/// twice, or also found in a directory) are checked once.
pub fn find_mods(inputs: &[PathBuf], base: &Path) -> Result<Vec<ModFile>, CheckError> {
    let base = absolute(base);
    let mut mods = Vec::new();
    for input in inputs {
        let metadata = std::fs::metadata(input).map_err(|source| CheckError::Input { path: input.clone(), source })?;
        if metadata.is_dir() {
            let before = mods.len();
            walk(input, &base, &mut mods)?;
            if mods.len() == before {
                return Err(CheckError::NoMods { path: input.clone() });
            }
        } else if SourceKind::from_path(input).is_some() {
            mods.push(ModFile { path: input.clone(), key: key(input, &base) });
        } else {
            return Err(CheckError::NotAMod { path: input.clone() });
        }
    }
    mods.sort_by(|a, b| a.key.cmp(&b.key));
    mods.dedup_by(|a, b| a.key == b.key);
    Ok(mods)
}

fn walk(dir: &Path, base: &Path, mods: &mut Vec<ModFile>) -> Result<(), CheckError> {
    let entries = std::fs::read_dir(dir).map_err(|source| CheckError::Input { path: dir.to_path_buf(), source })?;
    for entry in entries {
        let entry = entry.map_err(|source| CheckError::Input { path: dir.to_path_buf(), source })?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || name == "node_modules" {
            continue;
        }
        let path = entry.path();
        let kind = entry.file_type().map_err(|source| CheckError::Input { path: path.clone(), source })?;
        if kind.is_dir() {
            walk(&path, base, mods)?;
        } else if kind.is_file() && !name.ends_with(".d.ts") && SourceKind::from_path(&path).is_some() {
            mods.push(ModFile { key: key(&path, base), path });
        }
    }
    Ok(())
}

/// How a mod argument is recorded in a snapshot's `roots`: relative to `base` (the snapshot's
/// directory), `/`-separated, `.` for `base` itself.
pub fn root_key(input: &Path, base: &Path) -> String {
    let key = key(input, &absolute(base));
    if key.is_empty() { ".".to_owned() } else { key }
}

/// `path` relative to `base`, `/`-separated; `..` steps when it lies outside.
fn key(path: &Path, base: &Path) -> String {
    let path = absolute(path);
    let shared = path.components().zip(base.components()).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<String> = base.components().skip(shared).map(|_| "..".to_owned()).collect();
    parts.extend(path.components().skip(shared).map(|c| c.as_os_str().to_string_lossy().into_owned()));
    parts.join("/")
}

/// An absolute, lexically normalised path (no `.` or `..`), without
/// resolving symbolic links, so keys follow the paths the user gave.
pub(crate) fn absolute(path: &Path) -> PathBuf {
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().map(|cwd| cwd.join(path)).unwrap_or_else(|_| path.to_path_buf())
    };
    let mut out = PathBuf::new();
    for component in joined.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn touch(root: &Path, name: &str) {
        let path = root.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, "export function activate() {}").unwrap();
    }

    #[test]
    fn walks_directories_recursively_in_key_order_skipping_non_mods() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for name in ["b/z.ts", "b/a.js", "a.mjs", "c.tsx", "types.d.ts", "README.md", ".hidden/x.js", "node_modules/p/i.js", "b/.x.js"] {
            touch(root, name);
        }
        let mods = find_mods(&[root.to_path_buf()], root).unwrap();
        let keys: Vec<&str> = mods.iter().map(|m| m.key.as_str()).collect();
        assert_eq!(keys, ["a.mjs", "b/a.js", "b/z.ts", "c.tsx"]);
    }

    #[test]
    fn keys_are_relative_to_the_base_even_outside_it() {
        let dir = tempfile::tempdir().unwrap();
        touch(dir.path(), "mods/m.js");
        let mods = find_mods(&[dir.path().join("mods/m.js"), dir.path().join("mods")], &dir.path().join("snap")).unwrap();
        assert_eq!(mods.len(), 1, "duplicates are checked once");
        assert_eq!(mods[0].key, "../mods/m.js");
    }

    #[test]
    fn bad_inputs_name_the_path() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("notes.txt"), "").unwrap();
        std::fs::create_dir(dir.path().join("empty")).unwrap();
        let missing = find_mods(&[dir.path().join("nope")], dir.path()).unwrap_err();
        assert!(matches!(missing, CheckError::Input { .. }), "{missing}");
        let not_mod = find_mods(&[dir.path().join("notes.txt")], dir.path()).unwrap_err();
        assert!(matches!(not_mod, CheckError::NotAMod { .. }), "{not_mod}");
        let empty = find_mods(&[dir.path().join("empty")], dir.path()).unwrap_err();
        assert!(matches!(empty, CheckError::NoMods { .. }), "{empty}");
    }
}
