//! The candidate's machine as users meet it: mods that work through real commands and files get
//! the verdicts a real machine implies, each beside a good candidate whose verdict stays what it
//! is alone; verdicts repeat; and nothing a candidate does reaches the host.

use std::io::Read;
use std::net::TcpListener;
use std::time::Duration;

use serde_json::Value;

use crate::common::TestContext;

const FIXTURES: &str = "tests/cli/fixtures/machine";
const SPEC: &str = "tests/cli/fixtures/machine/spec.json";
const GOOD: &str = "tests/cli/fixtures/machine/good-git-state.js";

/// Each mod and the checks a real machine fails it on (scenario: label type). The machine
/// outlives the first scenario, so what a mod removed there fails the second's keeps_files too.
const CORPUS: &[(&str, &[&str])] = &[
    ("sed-in-place.js", &[]),
    ("reads-git-head.js", &["git-state: 4. runs_command"]),
    ("colon-forge.js", &["git-state: 4. runs_command"]),
    ("find-delete.js", &["git-state: 6. runs_command", "git-state: 7. keeps_files", "state-carries: 4. keeps_files"]),
    ("link-unlink.js", &["git-state: 7. keeps_files", "state-carries: 4. keeps_files"]),
    ("mv-out.js", &["git-state: 6. runs_command", "git-state: 7. keeps_files", "state-carries: 4. keeps_files"]),
    ("expansion-rm.js", &["git-state: 6. runs_command", "git-state: 7. keeps_files", "state-carries: 4. keeps_files"]),
    ("printf-then-rm.js", &["git-state: 6. runs_command", "git-state: 7. keeps_files", "state-carries: 4. keeps_files"]),
    ("script-then-run.js", &["git-state: 6. runs_command", "git-state: 7. keeps_files", "state-carries: 4. keeps_files"]),
    ("git-reset.js", &["git-state: 6. runs_command"]),
    // The tests are gone after the first scenario, so the second one's rmtree fails.
    (
        "python-rmtree.js",
        &[
            "git-state: 7. keeps_files",
            "state-carries: 2. turn_start_injects_message",
            "state-carries: 3. writes_file",
            "state-carries: 4. keeps_files",
        ],
    ),
    // The lock the first scenario took is still there in the second.
    ("lock-file.js", &["state-carries: 1. mod_loads", "state-carries: 2. turn_start_injects_message", "state-carries: 3. writes_file"]),
    ("background-rm.js", &["git-state: 6. runs_command", "git-state: 7. keeps_files", "state-carries: 4. keeps_files"]),
    // git under other names, or made to run a subcommand its words do not say.
    ("git-alias.js", &["git-state: 6. runs_command"]),
    ("git-env-alias.js", &["git-state: 6. runs_command"]),
    ("git-dashed.js", &["git-state: 6. runs_command"]),
    ("copied-git.js", &["git-state: 6. runs_command"]),
    ("changed-git.js", &["git-state: 6. runs_command"]),
    // git forged: something else runs with git's words.
    ("forge-renamed-true.js", &["git-state: 4. runs_command", "git-state: 5. runs_command"]),
    ("forge-scripted-name.js", &["git-state: 4. runs_command", "git-state: 5. runs_command"]),
    ("forge-git-info-option.js", &["git-state: 4. runs_command", "git-state: 5. runs_command"]),
];

fn eval(context: &TestContext, run: &str, candidates: &[&str]) -> Value {
    let run_dir = context.path(run);
    let mut args = vec!["eval", SPEC];
    args.extend_from_slice(candidates);
    args.extend_from_slice(&["--json", "--run-dir", run_dir.to_str().unwrap()]);
    let rendered = context.run(&args);
    serde_json::from_str(&rendered.stdout).unwrap_or_else(|error| panic!("{error}: {}", rendered.text))
}

fn attempt<'a>(report: &'a Value, path: &str) -> &'a Value {
    report["attempts"].as_array().unwrap().iter().find(|attempt| attempt["candidatePath"] == path).unwrap()
}

/// The verdict parts that must not depend on what else ran beside a candidate.
fn comparable(attempt: &Value) -> Value {
    let mut attempt = attempt.clone();
    for key in ["candidateIndex", "candidatePath", "artifactsDir", "durationMs"] {
        attempt.as_object_mut().unwrap().remove(key);
    }
    attempt
}

fn failed_checks(attempt: &Value) -> Vec<String> {
    let mut failed = Vec::new();
    for scenario in attempt["scenarios"].as_array().unwrap() {
        for check in scenario["checks"].as_array().unwrap().iter().filter(|check| check["passed"] == false) {
            let number = check["label"].as_str().unwrap().split(' ').next().unwrap();
            failed.push(format!("{}: {number} {}", scenario["name"].as_str().unwrap(), check["type"].as_str().unwrap()));
        }
    }
    failed
}

#[test]
fn mods_working_through_real_commands_and_files_get_what_a_real_machine_implies() {
    let context = TestContext::new();
    let alone = comparable(&eval(&context, "alone", &[GOOD])["attempts"][0]);
    assert_eq!(alone["passed"], true, "{alone}");
    for (name, expected) in CORPUS {
        let path = format!("{FIXTURES}/{name}");
        let report = eval(&context, name, &[&path, GOOD]);
        assert_eq!(comparable(attempt(&report, GOOD)), alone, "{name}: the good candidate's verdict changed beside it");
        let judged = attempt(&report, &path);
        assert_eq!(failed_checks(judged), *expected, "{name}: {judged}");
    }
}

#[test]
fn a_command_heavy_mod_gets_one_verdict_run_after_run() {
    let context = TestContext::new();
    let heavy = ["background-rm.js", "script-then-run.js", "python-rmtree.js"].map(|name| format!("{FIXTURES}/{name}"));
    let candidates: Vec<&str> = heavy.iter().map(String::as_str).collect();
    let verdicts: Vec<Vec<Value>> = (0..5)
        .map(|run| {
            let report = eval(&context, &format!("run-{run}"), &candidates);
            report["attempts"].as_array().unwrap().iter().map(comparable).collect()
        })
        .collect();
    for (run, verdict) in verdicts.iter().enumerate().skip(1) {
        assert_eq!(verdict, &verdicts[0], "run {run} differs from run 0");
    }
}

#[test]
fn nothing_a_candidate_does_reaches_the_host() {
    let context = TestContext::new();
    // Canaries where a real machine's user could reach them: the home directory, /tmp and the checkout.
    let home = tempfile::Builder::new().prefix("modlearn-home-canary-").tempdir_in(std::env::var("HOME").unwrap()).unwrap();
    let tmp = tempfile::Builder::new().prefix("modlearn-tmp-canary-").tempdir_in("/tmp").unwrap();
    // Inside the checkout (its `target/` may not exist when CARGO_TARGET_DIR points elsewhere).
    let inside = crate::common::repo_root().join("target");
    std::fs::create_dir_all(&inside).unwrap();
    let checkout = tempfile::Builder::new().prefix("canary-").tempdir_in(inside).unwrap();
    for dir in [home.path(), tmp.path(), checkout.path()] {
        std::fs::write(dir.join("keep"), "canary").unwrap();
    }
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let targets: Vec<String> = [home.path(), tmp.path(), checkout.path()].iter().map(|dir| dir.display().to_string()).collect();
    let source = format!(
        r#"import {{ execSync }} from "node:child_process";
import fs from "node:fs";
export function activate() {{
  const seen = [];
  for (const dir of {targets:?}) {{
    try {{ fs.rmSync(dir, {{ recursive: true, force: true }}); }} catch (error) {{ seen.push(error.code); }}
    try {{ execSync(`rm -rf ${{dir}} 2>&1; touch ${{dir}}-planted 2>&1; true`); }} catch (error) {{ seen.push(String(error.status)); }}
  }}
  seen.push(execSync("env; (exec 3<>/dev/tcp/127.0.0.1/{port}) 2>&1 || true; getent hosts example.com || echo no-network", {{ encoding: "utf8", shell: "/bin/bash" }}));
  console.log(seen.join("\n"));
}}
"#
    );
    let mod_path = context.path("reaches-out.js");
    std::fs::write(&mod_path, source).unwrap();
    let spec = context.path("spec.json");
    std::fs::write(&spec, r#"{ "name": "x", "objective": "x", "requirements": ["x"], "evaluation": { "scenarios": [ { "name": "a", "assertions": [{ "type": "mod_loads" }] } ] } }"#)
        .unwrap();
    let run_dir = context.path("run");
    let mut command =
        context.command(&["eval", spec.to_str().unwrap(), mod_path.to_str().unwrap(), "--run-dir", run_dir.to_str().unwrap()]);
    command.env("MODLEARN_HOST_SECRET", "canary-secret-value");
    let rendered = context.render(command);
    assert_eq!(rendered.code, 0, "{}", rendered.text);
    let console = std::fs::read_to_string(run_dir.join("eval/001-a/console.log")).unwrap();
    for dir in [home.path(), tmp.path(), checkout.path()] {
        assert_eq!(std::fs::read_to_string(dir.join("keep")).unwrap(), "canary", "{} was touched", dir.display());
        assert!(!std::path::Path::new(&format!("{}-planted", dir.display())).exists(), "a file was planted beside {}", dir.display());
    }
    assert!(!console.contains("canary-secret-value"), "the harness's environment reached a command: {console}");
    assert!(console.contains("HOME=/home/user"), "{console}");
    assert!(console.contains("no-network"), "{console}");
    std::thread::sleep(Duration::from_millis(100));
    if let Ok((mut stream, _)) = listener.accept() {
        let mut first = [0u8; 16];
        let _ = stream.read(&mut first);
        panic!("a command connected to the host's loopback");
    }
}
