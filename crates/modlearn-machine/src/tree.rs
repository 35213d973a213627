//! The machine's writable tree as the kernel shows it (every path under the workspace, `/home`
//! and `/tmp`, links not followed), and what changed between two such pictures: by inode, so a
//! rename is one change whatever made it, and a file written through a link is the file's.

use std::collections::{BTreeMap, HashMap};

use modlearn_types::{EntryKind, FileChange};
use serde::{Deserialize, Serialize};

/// One path and what the kernel says of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TreeEntry {
    /// Absolute path inside the machine.
    pub path: String,
    /// What it is.
    pub kind: EntryKind,
    /// Inode number (with one file system per mount, unique within a root).
    pub ino: u64,
    /// Device, so inodes of different mounts are not taken for each other.
    pub dev: u64,
    /// Permission bits.
    pub mode: u32,
    /// Size in bytes.
    pub size: u64,
    /// Modification time, seconds and nanoseconds.
    pub mtime: [i64; 2],
    /// Status-change time: changes on every write, and nothing can set it back.
    pub ctime: [i64; 2],
    /// A link's target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
}

/// Every path of the writable tree, or as many as the walk keeps.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TreeSnapshot {
    /// The entries, in walk order.
    pub entries: Vec<TreeEntry>,
    /// The walk stopped at its cap: changes past it cannot be seen.
    pub cut: bool,
    /// A directory the walk could not list (its mode shuts its owner out too): what happens
    /// inside cannot be seen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unreadable: Option<String>,
}

/// The most paths a walk keeps.
pub const ENTRIES_LIMIT: usize = 100_000;

/// Walks `roots` (inside the sandbox).
pub(crate) fn walk(roots: &[&str]) -> TreeSnapshot {
    let mut snapshot = TreeSnapshot::default();
    let mut stack: Vec<String> = roots.iter().rev().map(|root| (*root).to_owned()).collect();
    while let Some(path) = stack.pop() {
        if snapshot.entries.len() >= ENTRIES_LIMIT {
            snapshot.cut = true;
            break;
        }
        let entry = match entry_at(&path) {
            Ok(entry) => entry,
            Err(error) if error.raw_os_error() == Some(libc::ENOENT) => continue,
            // A directory that can be listed but not entered.
            Err(_) => {
                snapshot.unreadable.get_or_insert_with(|| path.clone());
                continue;
            }
        };
        if entry.kind == EntryKind::Dir {
            let listed = std::fs::read_dir(&path).and_then(|children| {
                children
                    .map(|child| {
                        use std::os::unix::ffi::OsStrExt;
                        child.map(|child| String::from_utf8_lossy(child.file_name().as_bytes()).into_owned())
                    })
                    .collect::<std::io::Result<Vec<String>>>()
            });
            let mut names = match listed {
                Ok(names) => names,
                // Gone since it was seen: its removal shows in the next walk.
                Err(error) if error.raw_os_error() == Some(libc::ENOENT) => Vec::new(),
                Err(_) => {
                    snapshot.unreadable.get_or_insert_with(|| path.clone());
                    Vec::new()
                }
            };
            names.sort_unstable_by(|a, b| b.cmp(a));
            let base = path.trim_end_matches('/');
            stack.extend(names.into_iter().map(|name| format!("{base}/{name}")));
        }
        snapshot.entries.push(entry);
    }
    snapshot
}

fn entry_at(path: &str) -> std::io::Result<TreeEntry> {
    use std::os::unix::fs::MetadataExt;
    let metadata = std::fs::symlink_metadata(path)?;
    let file_type = metadata.file_type();
    let kind = if file_type.is_symlink() {
        EntryKind::Symlink
    } else if file_type.is_dir() {
        EntryKind::Dir
    } else if file_type.is_file() {
        EntryKind::File
    } else {
        EntryKind::Other
    };
    let target =
        (kind == EntryKind::Symlink).then(|| std::fs::read_link(path).ok()).flatten().map(|target| target.to_string_lossy().into_owned());
    Ok(TreeEntry {
        path: path.to_owned(),
        kind,
        ino: metadata.ino(),
        dev: metadata.dev(),
        mode: metadata.mode() & 0o7777,
        size: metadata.size(),
        mtime: [metadata.mtime(), metadata.mtime_nsec()],
        ctime: [metadata.ctime(), metadata.ctime_nsec()],
        target,
    })
}

/// What changed from `before` to `after`, in path order: deletions and renames first, then
/// what was created, written or had its mode changed. A rename of a directory is one change,
/// not one per path beneath it.
pub fn changes(before: &TreeSnapshot, after: &TreeSnapshot) -> Vec<FileChange> {
    let old: BTreeMap<&str, &TreeEntry> = before.entries.iter().map(|entry| (entry.path.as_str(), entry)).collect();
    let new: BTreeMap<&str, &TreeEntry> = after.entries.iter().map(|entry| (entry.path.as_str(), entry)).collect();
    let mut new_by_inode: HashMap<(u64, u64), Vec<&str>> = HashMap::new();
    for entry in &after.entries {
        new_by_inode.entry((entry.dev, entry.ino)).or_default().push(&entry.path);
    }
    let same_object = |a: &TreeEntry, b: &TreeEntry| a.dev == b.dev && a.ino == b.ino && a.kind == b.kind;
    let mut found = Vec::new();
    // Renames seen so far, to fold the paths beneath a renamed directory into it.
    let mut renamed_dirs: Vec<(String, String)> = Vec::new();
    let mut moved_to: Vec<&str> = Vec::new();
    let mut deleted_dirs: Vec<&str> = Vec::new();
    for (path, entry) in &old {
        if new.get(path).is_some_and(|now| now.kind == entry.kind) {
            continue;
        }
        let moved = new_by_inode.get(&(entry.dev, entry.ino)).and_then(|paths| {
            paths.iter().copied().find(|candidate| *candidate != *path && !old.get(candidate).is_some_and(|was| same_object(was, entry)))
        });
        match moved {
            Some(to) => {
                moved_to.push(to);
                let inside = renamed_dirs.iter().any(|(from_dir, to_dir)| {
                    path.strip_prefix(from_dir.as_str()).is_some_and(|rest| rest.starts_with('/') && to == format!("{to_dir}{rest}"))
                });
                if !inside {
                    if entry.kind == EntryKind::Dir {
                        renamed_dirs.push(((*path).to_owned(), to.to_owned()));
                    }
                    found.push(FileChange::Renamed { from: (*path).to_owned(), to: to.to_owned(), entry: entry.kind });
                }
            }
            // What a deleted directory held went with it: one change.
            None if deleted_dirs.iter().any(|dir: &&str| path.strip_prefix(*dir).is_some_and(|rest| rest.starts_with('/'))) => {}
            None => {
                if entry.kind == EntryKind::Dir {
                    deleted_dirs.push(path);
                }
                found.push(FileChange::Deleted { path: (*path).to_owned(), entry: entry.kind });
            }
        }
    }
    for (path, entry) in &new {
        match old.get(path) {
            Some(was) if was.kind == entry.kind => {
                let mode_changed = was.mode != entry.mode;
                if mode_changed {
                    found.push(FileChange::ModeChanged { path: (*path).to_owned(), from: was.mode, to: entry.mode });
                }
                // A chmod moves ctime too, so with the mode changed only other evidence is a write.
                let rewritten = !same_object(was, entry)
                    || was.size != entry.size
                    || was.mtime != entry.mtime
                    || (was.ctime != entry.ctime && !mode_changed);
                if entry.kind != EntryKind::Dir && rewritten {
                    found.push(FileChange::Written { path: (*path).to_owned() });
                }
            }
            _ if moved_to.contains(path) => {}
            _ => found.push(FileChange::Created { path: (*path).to_owned(), entry: entry.kind }),
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(path: &str, kind: EntryKind, ino: u64, ctime: i64) -> TreeEntry {
        TreeEntry { path: path.into(), kind, ino, dev: 1, mode: 0o644, size: 1, mtime: [ctime, 0], ctime: [ctime, 0], target: None }
    }

    fn tree(entries: Vec<TreeEntry>) -> TreeSnapshot {
        TreeSnapshot { entries, ..TreeSnapshot::default() }
    }

    #[test]
    fn a_directory_renamed_is_one_change_and_its_contents_go_with_it() {
        use EntryKind::*;
        let before = tree(vec![entry("/w", Dir, 1, 0), entry("/w/src", Dir, 2, 0), entry("/w/src/a", File, 3, 0), entry("/t", Dir, 9, 0)]);
        let after = tree(vec![entry("/w", Dir, 1, 1), entry("/t", Dir, 9, 1), entry("/t/gone", Dir, 2, 0), entry("/t/gone/a", File, 3, 0)]);
        assert_eq!(changes(&before, &after), vec![FileChange::Renamed { from: "/w/src".into(), to: "/t/gone".into(), entry: Dir }]);
    }

    #[test]
    fn deletions_writes_creations_and_renames_over_a_file() {
        use EntryKind::*;
        let before = tree(vec![entry("/w", Dir, 1, 0), entry("/w/a", File, 2, 0), entry("/w/b", File, 3, 0), entry("/w/c", File, 4, 0)]);
        // a deleted, b rewritten in place, c replaced by a file renamed over it (sed -i), d new.
        let after = tree(vec![entry("/w", Dir, 1, 5), entry("/w/b", File, 3, 5), entry("/w/c", File, 7, 5), entry("/w/d", File, 8, 5)]);
        assert_eq!(
            changes(&before, &after),
            vec![
                FileChange::Deleted { path: "/w/a".into(), entry: File },
                FileChange::Written { path: "/w/b".into() },
                FileChange::Written { path: "/w/c".into() },
                FileChange::Created { path: "/w/d".into(), entry: File },
            ]
        );
        assert!(changes(&after, &after).is_empty());
    }

    #[test]
    fn a_file_that_became_a_link_was_deleted_and_the_link_created() {
        use EntryKind::*;
        let before = tree(vec![entry("/w/a", File, 2, 0)]);
        let after = tree(vec![entry("/w/a", Symlink, 5, 1)]);
        assert_eq!(
            changes(&before, &after),
            vec![FileChange::Deleted { path: "/w/a".into(), entry: File }, FileChange::Created { path: "/w/a".into(), entry: Symlink }]
        );
    }
}
