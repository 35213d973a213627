//! `modlearn check`: the project's corpus against its committed snapshot,
//! drift in a changed copy (changed, new and vanished mods), `--accept`,
//! JUnit output and bad input.

use std::path::Path;

use crate::common::{TestContext, repo_root};

const CORPUS_SNAPSHOT: &str = "candidates/diagnostics.snapshot.json";

/// An engine change that alters what mod authors see fails here. If the
/// change is intended: `modlearn check --snapshot
/// candidates/diagnostics.snapshot.json --accept` (the snapshot records its
/// roots and profiles: `candidates/` under engine, headless and listener),
/// and commit the snapshot with the change.
#[test]
fn corpus_matches_its_committed_snapshot() {
    let context = TestContext::new();
    let output = context.run(&["check", "--snapshot", CORPUS_SNAPSHOT]);
    assert_eq!(output.code, 0, "the corpus drifted from {CORPUS_SNAPSHOT}:\n{}", output.text);
    assert!(output.stdout.contains("under profile(s) engine, headless, listener: no drift"), "{}", output.text);
}

const MODS: &[&str] = &[
    "candidates/hostile/throws-in-activate.js",
    "candidates/hostile/syntax-error.ts",
    "candidates/tool-permission-command/good-shell-guard.ts",
    "candidates/uv-pip/good-return-args.ts",
    "candidates/turn-reminder/good-push-disposer.js",
];

/// Copies a few corpus mods into `<temp>/mods/<dir>/<file>`.
fn copy_corpus(context: &TestContext) {
    for relative in MODS {
        let target = context.path("mods").join(relative.trim_start_matches("candidates/"));
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::copy(repo_root().join(relative), target).unwrap();
    }
}

fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "`{from}` not in {}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn accept_writes_a_diff_friendly_snapshot_then_a_clean_check_passes() {
    let context = TestContext::new();
    copy_corpus(&context);
    let mods = context.path("mods");
    let snapshot = context.path("mods/check.snapshot.json");
    let (mods, snapshot) = (mods.to_str().unwrap(), snapshot.to_str().unwrap());

    let accepted = context.run(&["check", mods, "--snapshot", snapshot, "--accept", "--profile", "headless", "--profile", "engine"]);
    assert_eq!(accepted.code, 0, "{}", accepted.text);
    insta::assert_snapshot!("check_accept_output", accepted.text);
    let stored = std::fs::read_to_string(context.path("mods/check.snapshot.json")).unwrap();
    assert!(!stored.contains(&context.temp.path().display().to_string()), "no absolute paths in the snapshot");
    insta::assert_snapshot!("check_snapshot_file", stored);

    let clean = context.run(&["check", mods, "--snapshot", snapshot, "--profile", "engine", "--profile", "headless"]);
    assert_eq!(clean.code, 0, "{}", clean.text);
    insta::assert_snapshot!("check_clean_output", clean.text);
}

#[test]
fn drift_is_listed_per_mod_and_exits_1_until_accepted() {
    let context = TestContext::new();
    copy_corpus(&context);
    let mods = context.path("mods");
    let snapshot = context.path("snap/corpus.json");
    let junit = context.path("junit.xml");
    let (mods_arg, snapshot_arg) = (mods.to_str().unwrap(), snapshot.to_str().unwrap());
    assert_eq!(context.run(&["check", mods_arg, "--snapshot", snapshot_arg, "--accept"]).code, 0);

    // A changed message, a lost registration and a changed tool, a new mod and a vanished one.
    edit(&mods.join("hostile/throws-in-activate.js"), "could not locate the uv executable", "uv is not on PATH");
    let guard = mods.join("tool-permission-command/good-shell-guard.ts");
    edit(&guard, "Rate how risky a shell command is, without running it.", "Rate a shell command's risk.");
    edit(&guard, "letta.commands.register(", "void (");
    std::fs::write(mods.join("uv-pip/new-mod.js"), "export function activate(letta) { letta.events.on(\"turn_end\", () => {}); }\n")
        .unwrap();
    std::fs::remove_file(mods.join("turn-reminder/good-push-disposer.js")).unwrap();

    let drift = context.run(&["check", mods_arg, "--snapshot", snapshot_arg, "--junit", junit.to_str().unwrap()]);
    assert_eq!(drift.code, 1, "{}", drift.text);
    insta::assert_snapshot!("check_drift_output", drift.text);
    let xml = std::fs::read_to_string(&junit).unwrap();
    let xml = regex::Regex::new(r#" time="[0-9.]+""#).unwrap().replace_all(&xml, "");
    insta::assert_snapshot!("check_drift_junit", context.filter(&xml));

    let accepted = context.run(&["check", mods_arg, "--snapshot", snapshot_arg, "--accept", "--junit", junit.to_str().unwrap()]);
    assert_eq!(accepted.code, 0, "{}", accepted.text);
    assert!(std::fs::read_to_string(&junit).unwrap().contains(r#"failures="0""#), "accepted drift is not a failure");
    let clean = context.run(&["check", mods_arg, "--snapshot", snapshot_arg]);
    assert_eq!(clean.code, 0, "{}", clean.text);
}

#[test]
fn a_profile_missing_from_the_snapshot_is_drift() {
    let context = TestContext::new();
    copy_corpus(&context);
    let (mods, snapshot) = (context.path("mods"), context.path("s.json"));
    let (mods, snapshot) = (mods.to_str().unwrap(), snapshot.to_str().unwrap());
    assert_eq!(context.run(&["check", mods, "--snapshot", snapshot, "--accept"]).code, 0);
    let output = context.run(&["check", mods, "--snapshot", snapshot, "--profile", "engine", "--profile", "providers-only"]);
    assert_eq!(output.code, 1, "{}", output.text);
    assert!(output.stdout.contains("under profile `providers-only`:\n    + profile checked now, not in the snapshot"), "{}", output.text);
}

#[test]
fn bad_input_is_refused_with_exit_2_and_nothing_written() {
    let context = TestContext::new();
    copy_corpus(&context);
    let mods = context.path("mods");
    let mods = mods.to_str().unwrap();
    let missing = context.path("missing.json");
    let missing_arg = missing.to_str().unwrap();

    let no_snapshot = context.run(&["check", mods, "--snapshot", missing_arg]);
    assert_eq!(no_snapshot.code, 2);
    assert!(!missing.exists());
    insta::assert_snapshot!("check_error_no_snapshot", no_snapshot.text);

    let corrupt = context.path("corrupt.json");
    std::fs::write(&corrupt, r#"{"kind": "modlearn_check_snapshot", "version": 1, "mods": {"a.js": {"engine": {"loaded": 1}}}}"#).unwrap();
    let corrupt_run = context.run(&["check", mods, "--snapshot", corrupt.to_str().unwrap(), "--accept"]);
    assert_eq!(corrupt_run.code, 2);
    insta::assert_snapshot!("check_error_corrupt_snapshot", corrupt_run.text);

    let profile = context.run(&["check", mods, "--snapshot", missing_arg, "--profile", "gui"]);
    assert_eq!(profile.code, 2);
    insta::assert_snapshot!("check_error_unknown_profile", profile.text);

    let not_a_mod = context.run(&["check", "README.md", "--snapshot", missing_arg, "--accept"]);
    assert_eq!(not_a_mod.code, 2);
    assert!(!missing.exists(), "nothing written on bad input");
    insta::assert_snapshot!("check_error_not_a_mod", not_a_mod.text);

    let empty = context.path("empty");
    std::fs::create_dir(&empty).unwrap();
    let empty_run = context.run(&["check", empty.to_str().unwrap(), "--snapshot", missing_arg, "--accept"]);
    assert_eq!(empty_run.code, 2);
    insta::assert_snapshot!("check_error_empty_dir", empty_run.text);
}

/// Issue 11: the snapshot records its roots and profiles, and a check without
/// them uses those. A check of part of it (a subdirectory, fewer profiles)
/// compares only that part, says it is partial, never suggests `--accept`
/// and refuses it: writing a part would destroy the rest.
#[test]
fn a_partial_check_compares_its_part_and_never_accepts() {
    let context = TestContext::new();
    copy_corpus(&context);
    let mods = context.path("mods");
    let snapshot = mods.join("check.snapshot.json");
    let (mods_arg, snapshot_arg) = (mods.to_str().unwrap(), snapshot.to_str().unwrap());
    let accepted =
        context.run(&["check", mods_arg, "--snapshot", snapshot_arg, "--accept", "--profile", "engine", "--profile", "headless"]);
    assert_eq!(accepted.code, 0, "{}", accepted.text);
    let stored = crate::common::read_json(&snapshot);
    assert_eq!(stored["profiles"], serde_json::json!(["engine", "headless"]));
    assert_eq!(stored["roots"], serde_json::json!(["."]));

    // The snapshot's own roots and profiles: a whole check.
    let whole = context.run(&["check", "--snapshot", snapshot_arg]);
    assert_eq!(whole.code, 0, "{}", whole.text);
    assert!(whole.stdout.contains("checked 5 mod(s) under profile(s) engine, headless: no drift"), "{}", whole.text);

    edit(&mods.join("hostile/throws-in-activate.js"), "could not locate the uv executable", "uv is not on PATH");
    let hostile = mods.join("hostile");
    let subdirectory = context.run(&["check", hostile.to_str().unwrap(), "--snapshot", snapshot_arg, "--profile", "engine"]);
    assert_eq!(subdirectory.code, 1, "{}", subdirectory.text);
    insta::assert_snapshot!("check_partial_drift", subdirectory.text);

    let before = std::fs::read_to_string(&snapshot).unwrap();
    let refused = context.run(&["check", hostile.to_str().unwrap(), "--snapshot", snapshot_arg, "--accept"]);
    assert_eq!(refused.code, 2, "{}", refused.text);
    insta::assert_snapshot!("check_partial_accept_refused", refused.text);
    assert_eq!(std::fs::read_to_string(&snapshot).unwrap(), before, "nothing written");

    let clean_part = context.run(&["check", mods.join("uv-pip").to_str().unwrap(), "--snapshot", snapshot_arg]);
    assert_eq!(clean_part.code, 0, "{}", clean_part.text);
    assert!(!clean_part.stdout.contains("vanished"), "{}", clean_part.text);
}
