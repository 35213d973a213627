//! `modlearn eval`: exact verdicts of the curated corpus, the reports a user
//! reads, the run-directory layout, exit codes, and isolation.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::common::{TestContext, repo_root};

/// Runs `eval --json` and returns the parsed report.
fn eval_json(context: &TestContext, run: &str, spec: &str, candidates: &[&str], extra: &[&str]) -> (i32, Value) {
    let run_dir = context.path(run);
    let run_dir = run_dir.to_str().unwrap();
    let mut args = vec!["eval", spec];
    args.extend_from_slice(candidates);
    args.extend_from_slice(&["--run-dir", run_dir, "--handler-timeout", "300ms", "--json"]);
    args.extend_from_slice(extra);
    let rendered = context.run(&args);
    let report = serde_json::from_str(&rendered.stdout).unwrap_or_else(|error| panic!("{error}: {}", rendered.text));
    (rendered.code, report)
}

/// `phase/fault` of each distinct diagnostic.
fn faults(attempt: &Value) -> Vec<String> {
    let mut kinds: Vec<String> = Vec::new();
    for diagnostic in attempt["diagnostics"].as_array().unwrap() {
        let kind = format!("{}/{}", diagnostic["phase"].as_str().unwrap(), diagnostic["fault"].as_str().unwrap());
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    kinds
}

#[test]
fn every_curated_candidate_gets_its_pinned_verdict() {
    let fixture: Value = serde_json::from_str(&std::fs::read_to_string(repo_root().join("candidates/verdicts.json")).unwrap()).unwrap();
    let context = TestContext::new();
    for (run, (spec, expected)) in fixture["specs"].as_object().unwrap().iter().enumerate() {
        let candidates: Vec<&str> = expected.as_object().unwrap().keys().map(String::as_str).collect();
        // 16 MiB: the memory bomb reaches the cap in a few ms of CPU, so the
        // verdict holds on a loaded machine (zeroing 64 MiB can take 300 ms).
        let (_, report) = eval_json(&context, &format!("run-{run}"), spec, &candidates, &["--jobs", "2", "--memory-limit", "16"]);
        let actual: BTreeMap<String, Value> = report["attempts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|attempt| {
                let verdict = json!({
                    "passed": attempt["passed"],
                    "score": format!("{}/{}", attempt["score"], attempt["maxScore"]),
                    "diagnostics": faults(attempt),
                });
                (attempt["candidatePath"].as_str().unwrap().to_owned(), verdict)
            })
            .collect();
        let expected: BTreeMap<String, Value> = expected.as_object().unwrap().iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        for (candidate, verdict) in &expected {
            assert_eq!(actual.get(candidate), Some(verdict), "{spec}: {candidate}");
        }
        assert_eq!(actual.len(), expected.len());
    }
}

#[test]
fn failed_checks_print_under_the_table_unless_quiet() {
    let context = TestContext::new();
    let args = |run: &str, quiet: bool| {
        let run_dir = context.path(run).to_str().unwrap().to_owned();
        let mut args = vec!["eval".to_owned(), "specs/uv-pip.json".to_owned(), "candidates/uv-pip/partial-drops-tail.ts".to_owned()];
        args.extend(["--run-dir".to_owned(), run_dir]);
        if quiet {
            args.push("-q".to_owned());
        }
        args
    };
    let loud = context.run(&args("loud", false).iter().map(String::as_str).collect::<Vec<_>>());
    assert!(loud.stdout.contains("FAIL candidate 1 `candidates/uv-pip/partial-drops-tail.ts`: 10/11, 1 check(s) failed"), "{}", loud.text);
    assert!(loud.stdout.contains("expected \"uv pip install rich && echo done\""), "{}", loud.text);
    let quiet = context.run(&args("quiet", true).iter().map(String::as_str).collect::<Vec<_>>());
    assert!(!quiet.stdout.contains("check(s) failed"), "{}", quiet.text);
    assert_eq!((loud.code, quiet.code), (1, 1));
}

#[test]
fn summary_table_reports_history_and_guide() {
    let context = TestContext::new();
    let run_dir = context.path("run");
    let rendered = context.run(&[
        "eval",
        "specs/uv-pip.json",
        "candidates/uv-pip/partial-no-python-m.ts",
        "candidates/uv-pip/good-return-args.ts",
        "candidates/hostile/throws-in-handler.js",
        "candidates/uv-pip/partial-deprecated-status.js",
        "--run-dir",
        run_dir.to_str().unwrap(),
    ]);
    assert_eq!(rendered.code, 0);
    insta::assert_snapshot!("eval-table", rendered.text);
    for file in ["report.md", "proposer-guide.md", "history.md", "candidates/001/report.md", "candidates/003/report.md"] {
        let text = std::fs::read_to_string(run_dir.join(file)).unwrap();
        insta::assert_snapshot!(format!("eval-{}", file.replace('/', "-")), context.filter(&text));
    }
    let mut report: Value = serde_json::from_str(&std::fs::read_to_string(run_dir.join("report.json")).unwrap()).unwrap();
    for attempt in report["attempts"].as_array_mut().unwrap() {
        attempt["durationMs"] = json!("[ms]");
    }
    insta::assert_json_snapshot!(
        "eval-report-json-head",
        json!({
            "kind": report["kind"], "passed": report["passed"], "score": report["score"], "maxScore": report["maxScore"],
            "selected": report["selected"], "attempts": report["attempts"].as_array().unwrap().iter().map(|a| json!({
                "candidateIndex": a["candidateIndex"], "candidatePath": a["candidatePath"], "passed": a["passed"],
                "score": a["score"], "maxScore": a["maxScore"], "artifactsDir": a["artifactsDir"],
            })).collect::<Vec<_>>(),
        })
    );
    let history: Value = serde_json::from_str(&std::fs::read_to_string(run_dir.join("history.json")).unwrap()).unwrap();
    assert_eq!(history["kind"], "mod_learning_history_manifest");
    assert_eq!(history["attempts"].as_array().unwrap().len(), 4);
    let manifest: Value = serde_json::from_str(&std::fs::read_to_string(run_dir.join("candidates/002/manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["kind"], "mod_learning_candidate_manifest");
    assert_eq!(manifest["artifacts"]["candidatePath"], "candidates/002/mods/good-return-args.ts");
    for file in [
        "env.snapshot.json",
        "candidates/002/mods/good-return-args.ts",
        "candidates/002/env.snapshot.json",
        "candidates/002/report.json",
        "candidates/002/eval/001-mod-loads/assertions.result.json",
        "candidates/002/eval/010-preserve-cargo-install/assertions.result.json",
    ] {
        assert!(run_dir.join(file).is_file(), "{file}");
    }
}

#[test]
fn one_candidate_is_laid_out_flat() {
    let context = TestContext::new();
    let (code, report) = eval_json(&context, "flat", "specs/uv-pip.json", &["candidates/uv-pip/good-mutate-default.js"], &[]);
    assert_eq!(code, 0);
    assert_eq!(report["attempts"][0]["artifactsDir"], "");
    let run_dir = context.path("flat");
    for file in [
        "mods/good-mutate-default.js",
        "manifest.json",
        "report.json",
        "report.md",
        "env.snapshot.json",
        "history.json",
        "history.md",
        "proposer-guide.md",
        "eval/002-turn-start-reminder/assertions.result.json",
    ] {
        assert!(run_dir.join(file).is_file(), "{file}");
    }
    assert!(!run_dir.join("candidates").exists());
    let result: Value =
        serde_json::from_str(&std::fs::read_to_string(run_dir.join("eval/003-rewrite-pip-install/assertions.result.json")).unwrap())
            .unwrap();
    assert_eq!(result["resultText"], "PASS 1. tool_start_rewrites_args Bash: args rewritten as expected");
    let snapshot: Value = serde_json::from_str(&std::fs::read_to_string(run_dir.join("env.snapshot.json")).unwrap()).unwrap();
    let original: Value = serde_json::from_str(&std::fs::read_to_string(repo_root().join("specs/uv-pip.json")).unwrap()).unwrap();
    assert_eq!(snapshot, original);
}

#[test]
fn exit_1_when_nothing_passes_and_no_promotion() {
    let context = TestContext::new();
    let target = context.path("promoted.ts");
    let (code, report) = eval_json(
        &context,
        "fail",
        "specs/uv-pip.json",
        &["candidates/uv-pip/partial-no-reminder.js", "candidates/hostile/loop-in-activate.js"],
        &["--promote", target.to_str().unwrap()],
    );
    assert_eq!(code, 1);
    assert_eq!(report["passed"], false);
    // Letta's rule: among failing candidates the higher score is selected.
    assert_eq!(report["selected"]["candidateIndex"], 1);
    assert!(!target.exists(), "a failing candidate is never promoted");
}

#[test]
fn a_promotion_that_does_not_happen_says_so() {
    let context = TestContext::new();
    let (target, run_dir) = (context.path("promoted.ts"), context.path("run"));
    let rendered = context.run(&[
        "eval",
        "specs/uv-pip.json",
        "candidates/uv-pip/partial-no-reminder.js",
        "-q",
        "--run-dir",
        run_dir.to_str().unwrap(),
        "--promote",
        target.to_str().unwrap(),
    ]);
    assert_eq!(rendered.code, 1);
    // The text names the target as the filter shows temporary paths.
    assert!(
        rendered.text.contains("note: nothing promoted to `[TEMP_DIR]/promoted.ts`: no candidate passed every check"),
        "{}",
        rendered.text
    );
    assert!(!target.exists());
}

#[test]
fn a_passing_selection_is_promoted() {
    let context = TestContext::new();
    let target = context.path("promoted/uv-pip.ts");
    let (code, report) = eval_json(
        &context,
        "pass",
        "specs/uv-pip.json",
        &["candidates/uv-pip/partial-no-reminder.js", "candidates/uv-pip/good-return-args.ts", "candidates/uv-pip/good-token-table.ts"],
        &["--promote", target.to_str().unwrap()],
    );
    assert_eq!(code, 0);
    assert_eq!(report["selected"]["candidateIndex"], 2, "the earliest passing candidate wins");
    let promoted = std::fs::read_to_string(&target).unwrap();
    assert_eq!(promoted, std::fs::read_to_string(repo_root().join("candidates/uv-pip/good-return-args.ts")).unwrap());
}

#[test]
fn bad_input_exits_2_and_writes_nothing() {
    let context = TestContext::new();
    let run_dir = context.path("never");
    let run = run_dir.to_str().unwrap();
    for (name, args) in [
        ("missing-candidate", vec!["eval", "specs/uv-pip.json", "candidates/uv-pip/nope.ts", "--run-dir", run]),
        ("not-a-mod", vec!["eval", "specs/uv-pip.json", "candidates/README.md", "--run-dir", run]),
        (
            "bad-spec",
            vec![
                "eval",
                "crates/modlearn-spec/tests/bad-specs/missing-tool-name.json",
                "candidates/uv-pip/good-return-args.ts",
                "--run-dir",
                run,
            ],
        ),
    ] {
        let rendered = context.run(&args);
        assert_eq!(rendered.code, 2, "{name}");
        insta::assert_snapshot!(format!("eval-error-{name}"), rendered.text);
        assert!(!run_dir.exists(), "{name}: nothing may be written");
    }
}

#[test]
fn a_finished_run_directory_is_not_overwritten() {
    let context = TestContext::new();
    let (code, _) = eval_json(&context, "once", "specs/uv-pip.json", &["candidates/uv-pip/good-return-args.ts"], &[]);
    assert_eq!(code, 0);
    let run_dir = context.path("once");
    let rendered =
        context.run(&["eval", "specs/uv-pip.json", "candidates/uv-pip/good-return-args.ts", "--run-dir", run_dir.to_str().unwrap()]);
    assert_eq!(rendered.code, 2);
    insta::assert_snapshot!("eval-error-finished-run", rendered.text);
}

/// The verdict parts that must not depend on what else ran beside a candidate.
fn comparable(attempt: &Value) -> Value {
    let mut attempt = attempt.clone();
    for key in ["candidateIndex", "candidatePath", "artifactsDir", "durationMs"] {
        attempt.as_object_mut().unwrap().remove(key);
    }
    attempt
}

#[test]
fn hostile_neighbours_do_not_change_a_good_candidates_result() {
    let context = TestContext::new();
    let good = "candidates/uv-pip/good-token-table.ts";
    let (_, alone) = eval_json(&context, "alone", "specs/uv-pip.json", &[good], &[]);
    let mut crowd: Vec<String> = std::fs::read_dir(repo_root().join("candidates/hostile"))
        .unwrap()
        .map(|entry| format!("candidates/hostile/{}", entry.unwrap().file_name().to_string_lossy()))
        .collect();
    crowd.sort();
    let middle = crowd.len() / 2;
    crowd.insert(middle, good.to_owned());
    let crowd: Vec<&str> = crowd.iter().map(String::as_str).collect();
    let (_, together) = eval_json(&context, "together", "specs/uv-pip.json", &crowd, &["--jobs", "2"]);
    let beside = together["attempts"].as_array().unwrap().iter().find(|a| a["candidatePath"] == good).unwrap();
    assert_eq!(comparable(beside), comparable(&alone["attempts"][0]));
    assert_eq!(beside["passed"], true);
}

#[test]
fn the_readme_tour_shows_real_output() {
    let readme = std::fs::read_to_string(repo_root().join("README.md")).unwrap();
    let context = TestContext::new();
    let validate = context.run(&["validate", "specs/uv-pip.json"]);
    assert!(readme.contains(validate.stdout.trim_end()), "README's validate line is stale:\n{}", validate.stdout);
    let run_dir = context.path("tour");
    let rendered = context.run(&[
        "eval",
        "specs/uv-pip.json",
        "candidates/uv-pip/partial-no-python-m.ts",
        "candidates/uv-pip/good-return-args.ts",
        "--run-dir",
        run_dir.to_str().unwrap(),
    ]);
    let table: String = rendered.stdout.lines().take_while(|line| !line.starts_with("report:")).map(|l| format!("{l}\n")).collect();
    assert!(readme.contains(&table), "README's eval tour is stale:\n{table}");
}

#[test]
fn lifecycle_spec_report_names_what_leaked() {
    let context = TestContext::new();
    let run_dir = context.path("lifecycle");
    let mut args = vec!["eval", "specs/lifecycle.json"];
    let candidates = [
        "candidates/lifecycle/good-notes.ts",
        "candidates/lifecycle/leaks-interval.js",
        "candidates/lifecycle/polls-forever.js",
        "candidates/lifecycle/throws-in-disposer.js",
        "candidates/lifecycle/breaks-abort.js",
        "candidates/lifecycle/registers-twice-on-reload.js",
        "candidates/lifecycle/random-tips.js",
        "candidates/lifecycle/shared-across-conversations.js",
    ];
    args.extend(candidates);
    args.extend(["--run-dir", run_dir.to_str().unwrap()]);
    let rendered = context.run(&args);
    assert_eq!(rendered.code, 0);
    insta::assert_snapshot!("eval-lifecycle-table", rendered.text);
    let report = std::fs::read_to_string(run_dir.join("report.md")).unwrap();
    insta::assert_snapshot!("eval-lifecycle-report.md", context.filter(&report));
}

/// Issue 11: what a mod injects or throws reaches report.md, history.md and
/// the proposer guide quoted: it cannot forge a heading, HTML, a remote
/// image or a fence, and no control character survives.
#[test]
fn a_mods_text_cannot_forge_the_markdown_it_lands_in() {
    let context = TestContext::new();
    let run_dir = context.path("run");
    let rendered = context.run(&[
        "eval",
        "specs/uv-pip.json",
        "tests/cli/fixtures/forging-mod.js",
        "--run-dir",
        run_dir.to_str().unwrap(),
        "--handler-timeout",
        "300ms",
    ]);
    assert_eq!(rendered.code, 1, "{}", rendered.text);
    assert!(!rendered.text.contains('\u{1b}'), "{}", rendered.text);
    for file in ["report.md", "history.md", "proposer-guide.md", "candidates/001/report.md"] {
        let Ok(text) = std::fs::read_to_string(run_dir.join(file)) else { continue };
        assert!(!text.chars().any(|c| c.is_control() && c != '\n'), "{file} holds a control character");
        // Inside a fenced block every line is literal; the fence it opened with must close it.
        let mut fence: Option<String> = None;
        for line in text.lines() {
            let trimmed = line.trim_start();
            let ticks: String = trimmed.chars().take_while(|&c| c == '`').collect();
            match &fence {
                Some(open) if trimmed == open => fence = None,
                Some(_) => continue,
                None if ticks.len() >= 3 => {
                    fence = Some(ticks);
                    continue;
                }
                None => {}
            }
            assert!(!trimmed.starts_with("## Forged") && !trimmed.starts_with("# closed"), "{file}: forged structure: {line}");
            for raw in ["<img", "![x]("] {
                if let Some(at) = line.find(raw) {
                    assert!(inside_code_span(line, at), "{file}: {raw} outside a code span: {line}");
                }
            }
        }
    }
    let report = std::fs::read_to_string(run_dir.join("report.md")).unwrap();
    let failed = &report[report.find("### Failed checks").expect("failed checks")..];
    insta::assert_snapshot!("eval-forging-mod-failed-checks", failed);
}

/// Whether byte `at` of `line` lies in a code span: a run of n backticks opens one, the next run
/// of exactly n closes it (CommonMark).
fn inside_code_span(line: &str, at: usize) -> bool {
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'`' {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && bytes[i] == b'`' {
            i += 1;
        }
        let run = i - start;
        // Find the closing run of the same length.
        let mut j = i;
        let close = loop {
            if j >= bytes.len() {
                break None;
            }
            if bytes[j] == b'`' {
                let from = j;
                while j < bytes.len() && bytes[j] == b'`' {
                    j += 1;
                }
                if j - from == run {
                    break Some((from, j));
                }
            } else {
                j += 1;
            }
        };
        match close {
            Some((from, end)) => {
                if start < at && at < from {
                    return true;
                }
                i = end;
            }
            None => return false,
        }
    }
    false
}

#[test]
fn world_assertions_judge_what_a_mod_did_to_its_virtual_machine() {
    let context = TestContext::new();
    let run_dir = context.path("run");
    let rendered = context.run(&[
        "eval",
        "specs/branch-state.json",
        "candidates/branch-state/good-fs-state.js",
        "candidates/branch-state/bad-wipes-cache.js",
        "--run-dir",
        run_dir.to_str().unwrap(),
    ]);
    assert_eq!(rendered.code, 0, "{}", rendered.text);
    insta::assert_snapshot!("eval-world-table", rendered.text);
    let text = std::fs::read_to_string(run_dir.join("report.md")).unwrap();
    insta::assert_snapshot!("eval-world-report.md", context.filter(&text));
    // The scenario's world is in report.json's per-scenario data, with virtual paths only.
    let report: Value = serde_json::from_str(&std::fs::read_to_string(run_dir.join("report.json")).unwrap()).unwrap();
    let world = &report["attempts"][0]["scenarios"][1]["world"];
    assert_eq!(
        world,
        &json!({
            "filesWritten": [{ "path": "/home/user/.letta/branch-state.json", "bytes": 27 }],
            "commands": [{ "command": "git rev-parse --abbrev-ref HEAD", "via": "execSync", "exitCode": 0 }],
        })
    );
    let result: Value = serde_json::from_str(
        &std::fs::read_to_string(run_dir.join("candidates/002/eval/002-keeps-branch-state/assertions.result.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(result["world"]["commands"][1]["command"], "rm -rf /home/user/.letta/cache");
    let host = context.path("").display().to_string();
    assert!(!serde_json::to_string(&report).unwrap().contains(&host), "a host path leaked into report.json");
}

#[test]
fn an_environment_scripts_commands_and_process_env_for_child_process() {
    // envs/release-repo beside the spec's folder: processEnv and a Bash tool's scripted commands.
    let context = TestContext::new();
    let spec = "tests/cli/fixtures/world-env/specs/release-reminder.json";
    let (code, report) = eval_json(&context, "run", spec, &["tests/cli/fixtures/world-env/release-reminder.js"], &[]);
    let attempt = &report["attempts"][0];
    assert_eq!((code, &attempt["passed"]), (0, &Value::Bool(true)), "{attempt:#}");
    let world = &attempt["scenarios"][0]["world"];
    let commands: Vec<(&str, i64)> = world["commands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|command| (command["command"].as_str().unwrap(), command["exitCode"].as_i64().unwrap()))
        .collect();
    assert_eq!(commands, [("git describe --tags", 0), ("git log -1 --format=%s", 0), ("git push", 128)]);
    assert_eq!(world["envRead"][0]["name"], "RELEASE_CHANNEL");
}
