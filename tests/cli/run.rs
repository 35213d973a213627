//! `modlearn run` against a real model server on 127.0.0.1: parallel
//! proposals, rounds and evidence, early stop, retries, budget, failures
//! without code, resume after SIGKILL, and keys that never leak.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use modlearn_testserver::{RecordedRequest, Reply, TestServer};
use serde_json::Value;

use crate::common::{TestContext, read_json, repo_root};

const KEY: &str = "sk-test-DO-NOT-LEAK-4b1d3c";

fn fenced(file: &str) -> String {
    let source = std::fs::read_to_string(repo_root().join(file)).unwrap();
    format!("Here is the mod.\n\n```ts\n{source}```\n")
}

fn good() -> String {
    fenced("candidates/uv-pip/good-return-args.ts")
}

fn partial() -> String {
    fenced("candidates/uv-pip/partial-no-python-m.ts")
}

fn seed(request: &RecordedRequest) -> u64 {
    request.body["seed"].as_u64().unwrap_or(0)
}

struct Run {
    context: TestContext,
    server: TestServer,
}

impl Run {
    fn new() -> Run {
        Run { context: TestContext::new(), server: TestServer::start_blocking() }
    }

    fn run_dir(&self) -> PathBuf {
        self.context.path("run")
    }

    fn command(&self, extra: &[&str]) -> Command {
        self.command_for("specs/uv-pip.json", extra)
    }

    fn command_for(&self, spec: &str, extra: &[&str]) -> Command {
        let run_dir = self.run_dir();
        let cache = self.context.path("cache");
        let base = self.server.base_url_openai();
        let mut args = vec!["run", spec, "--model", "openai:test-model", "--base-url", &base];
        let (run_dir, cache) = (run_dir.to_str().unwrap().to_owned(), cache.to_str().unwrap().to_owned());
        args.extend_from_slice(&["--run-dir", &run_dir, "--cache-dir", &cache, "--handler-timeout", "500ms"]);
        args.extend_from_slice(extra);
        let mut command = self.context.command(&args);
        command.env("OPENAI_API_KEY", KEY);
        command
    }

    fn run(&self, extra: &[&str]) -> (i32, String, String) {
        let output = self.command(extra).output().unwrap();
        (
            output.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&output.stdout).into_owned(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    }

    fn report(&self) -> Value {
        read_json(&self.run_dir().join("report.json"))
    }
}

/// A Pi spec learns as a Letta one does: eight proposals at once, each judged as a Pi extension,
/// the good one selected; the proposer is told to write a Pi extension, with Pi's guide.
#[test]
fn a_pi_spec_learns_pi_extensions() {
    let run = Run::new();
    let good = fenced("candidates/pi-protected-paths/good-segments.ts");
    let partial = fenced("candidates/pi-protected-paths/partial-substring.js");
    run.server.respond_with("*", move |request| {
        Reply::text(if seed(request) == 3 { good.clone() } else { partial.clone() }).after(Duration::from_millis(300))
    });
    let output = run.command_for("specs/pi-protected-paths.json", &["--candidates", "8"]).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(run.server.request_count(), 8, "{stdout}");
    assert_eq!(run.server.max_in_flight(), 8);
    let report = run.report();
    assert_eq!(report["selected"]["candidateIndex"], 3, "{report:#}");
    assert_eq!(report["passed"], true);
    let request = &run.server.requests()[0].body;
    let prompt = request["messages"].to_string();
    assert!(prompt.contains("You write Pi extensions"), "{prompt}");
    assert!(prompt.contains("Pi extension API guide"), "{prompt}");
    assert!(prompt.contains("a `tool_start` event is Pi's `tool_call`"), "{prompt}");
    assert!(!prompt.contains("export activate(letta)"), "{prompt}");
}

/// The same for a DSH spec: each proposal is judged as a Cordis plugin in DSH's own services.
#[test]
fn a_dsh_spec_learns_dsh_plugins() {
    let run = Run::new();
    let good = fenced("candidates/dsh-repo-gate/good-exports.js");
    let partial = fenced("candidates/dsh-repo-gate/partial-denies-writes.js");
    run.server.respond_with("*", move |request| {
        Reply::text(if seed(request) == 5 { good.clone() } else { partial.clone() }).after(Duration::from_millis(300))
    });
    let output = run.command_for("specs/dsh-repo-gate.json", &["--candidates", "8"]).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(run.server.request_count(), 8);
    assert_eq!(run.server.max_in_flight(), 8);
    let report = run.report();
    assert_eq!(report["selected"]["candidateIndex"], 5, "{report:#}");
    let prompt = run.server.requests()[0].body["messages"].to_string();
    assert!(prompt.contains("You write DeepSeek Harness plugins"), "{prompt}");
    assert!(prompt.contains("DSH plugin API guide"), "{prompt}");
    assert!(prompt.contains("`tools/pre-execute` decisions"), "{prompt}");
}

#[test]
fn one_round_asks_in_parallel_and_records_every_candidate() {
    let run = Run::new();
    run.server.respond_with("*", |_| Reply::text(partial()).usage(1000, 200).after(Duration::from_millis(400)));
    let (code, stdout, stderr) = run.run(&["--candidates", "8"]);
    assert_eq!(code, 1, "{stdout}\n{stderr}");
    // `test-model` is in no price table: its cost counts as $0, and the user is told.
    assert!(stderr.contains("warning: no price is known for `openai:test-model` (`--model`): its cost is reported as $0"), "{stderr}");
    assert_eq!(run.server.request_count(), 8);
    // Parallelism is read from the server (all 8 in flight at once), not from a wall clock that
    // a loaded machine stretches.
    assert_eq!(run.server.max_in_flight(), 8, "all 8 proposals are asked for at once");
    let report = run.report();
    assert_eq!(report["attempts"].as_array().unwrap().len(), 8);
    assert_eq!(report["learning"]["usage"]["inputTokens"], 8000);
    assert_eq!(report["learning"]["usage"]["outputTokens"], 1600);
    assert_eq!(report["learning"]["stopped"], "rounds complete");
    for number in 1..=8 {
        let dir = run.run_dir().join(format!("candidates/{number:03}"));
        for file in [
            "mods/uv-pip.ts",
            "proposal.json",
            "generation-prompt.md",
            "report.md",
            "manifest.json",
            "eval/001-mod-loads/assertions.result.json",
        ] {
            assert!(dir.join(file).is_file(), "candidate {number}: {file}");
        }
    }
    let history = read_json(&run.run_dir().join("history.json"));
    assert_eq!(history["attempts"].as_array().unwrap().len(), 8);
    assert!(std::fs::read_to_string(run.run_dir().join("proposer-guide.md")).unwrap().contains("## Check matrix"));
    // Eight proposals of one round differ by seed, so none is a cache hit of another.
    let mut seeds: Vec<u64> = run.server.requests().iter().map(seed).collect();
    seeds.sort();
    assert_eq!(seeds, (1..=8).collect::<Vec<_>>());
    insta::assert_snapshot!("run-table", run.context.filter(&stdout));
}

#[test]
fn later_rounds_see_earlier_failures_and_a_perfect_score_stops_the_run() {
    let run = Run::new();
    run.server.respond_with("*", |request| {
        let prompt = request.prompt_text();
        if prompt.contains("Round 1 of 3") { Reply::text(partial()) } else { Reply::text(good()) }
    });
    let (code, stdout, stderr) = run.run(&["--candidates", "2", "--rounds", "3", "--concurrency", "1"]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let report = run.report();
    assert_eq!(report["learning"]["stopped"], "perfect score");
    assert_eq!(report["learning"]["roundsRun"], 2);
    assert_eq!(report["selected"]["candidateIndex"], 3);
    let requests = run.server.requests();
    assert!(requests.len() <= 4, "round 3 never starts");
    let round_two = requests.iter().find(|r| r.prompt_text().contains("Round 2 of 3")).unwrap().prompt_text();
    for evidence in [
        "What earlier candidates did",
        "FAIL `rewrite-python-module-pip`",
        "\"python -m pip install flask\"",
        "Best candidate so far",
        "history.json",
        "proposer-guide.md",
    ] {
        assert!(round_two.contains(evidence), "round 2's prompt lacks {evidence:?}");
    }
    let history = read_json(&run.run_dir().join("history.json"));
    let rounds: Vec<u64> = history["attempts"].as_array().unwrap().iter().map(|a| a["round"].as_u64().unwrap()).collect();
    assert_eq!(&rounds[..2], [1, 1]);
}

/// Issue 30: a hidden scenario's inputs reach the user's report and nothing a proposer reads:
/// not the history, not the guide, not the next round's prompt.
#[test]
fn hidden_inputs_reach_no_proposer() {
    let run = Run::new();
    run.server.respond_with("*", |request| {
        let round_one = request.prompt_text().contains("Round 1 of 2");
        Reply::text(fenced(if round_one {
            "tests/cli/fixtures/hidden/leaks-hidden-args.js"
        } else {
            "candidates/turn-reminder/good-push-disposer.js"
        }))
    });
    let output = run.command_for("specs/turn-reminder.json", &["--candidates", "1", "--rounds", "2"]).output().unwrap();
    assert!(matches!(output.status.code(), Some(0 | 1)), "{}", String::from_utf8_lossy(&output.stderr));
    // Only the hidden scenario's call edits `./runner`.
    let hidden = "./runner";
    let report = std::fs::read_to_string(run.run_dir().join("report.json")).unwrap();
    assert!(report.contains(hidden), "the user's report keeps the hidden diagnostic");
    let round_two = run.server.requests().iter().find(|r| r.prompt_text().contains("Round 2 of 2")).expect("round 2 asked").prompt_text();
    assert!(round_two.contains("saw {"), "the visible scenarios' diagnostics are evidence");
    assert!(!round_two.contains(hidden), "round 2's prompt quotes a hidden call");
    for file in ["history.json", "history.md", "proposer-guide.md"] {
        let text = std::fs::read_to_string(run.run_dir().join(file)).unwrap_or_default();
        assert!(!text.contains(hidden), "{file} quotes a hidden call");
    }
}

#[test]
fn rate_limits_are_retried_after_the_servers_wait() {
    let run = Run::new();
    run.server.script("test-model", vec![Reply::status(429).retry_after(1), Reply::status(500), Reply::text(good())]);
    let started = Instant::now();
    let (code, stdout, stderr) = run.run(&["--candidates", "1"]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(started.elapsed() >= Duration::from_millis(950), "Retry-After: 1 is honoured");
    let proposal = read_json(&run.run_dir().join("candidates/001/proposal.json"));
    let statuses: Vec<Value> = proposal["completion"]["attempts"].as_array().unwrap().iter().map(|a| a["status"].clone()).collect();
    assert_eq!(statuses, [Value::from(429), Value::from(500), Value::from(200)]);
    assert_eq!(run.report()["attempts"][0]["proposal"]["httpAttempts"], 3);
}

#[test]
fn answers_without_code_and_failed_requests_become_failed_candidates() {
    let run = Run::new();
    run.server.respond_with("*", |request| {
        if seed(request) == 1 { Reply::no_code() } else { Reply::status(400).body("{\"error\":\"bad request\"}") }
    });
    let (code, stdout, stderr) = run.run(&["--candidates", "2"]);
    // Nothing could be judged: not the same as "judged, and none passes" (1).
    assert_eq!(code, 3, "{stdout}\n{stderr}");
    let report = run.report();
    let errors: Vec<String> = report["attempts"].as_array().unwrap().iter().map(|a| a["error"].as_str().unwrap_or("").to_owned()).collect();
    assert!(errors[0].starts_with("no usable code in the answer"), "{errors:?}");
    assert!(errors[1].starts_with("no answer from the model"), "{errors:?}");
    assert_eq!(run.server.request_count(), 2, "a 400 is not retried");
    // The reasons are in the table and the summary; no file that was never written is "selected".
    assert!(report.get("selected").is_none(), "{report}");
    insta::assert_snapshot!("run-not-judged", run.context.filter(&stdout));
}

/// Issue 11: an unreachable server. Every candidate is an ERROR with the
/// reason, the run stops after a round without a single answer, and exit 3
/// says nothing could be judged.
#[test]
fn an_unreachable_server_is_named_and_nothing_is_selected() {
    let context = TestContext::new();
    let (run_dir, cache) = (context.path("run"), context.path("cache"));
    let dead = crate::common::unreachable_base_url();
    let mut command = context.command(&[
        "run",
        "specs/uv-pip.json",
        "--candidates",
        "2",
        "--rounds",
        "3",
        "--model",
        "openai:test-model",
        "--base-url",
        &dead.url,
        "--run-dir",
        run_dir.to_str().unwrap(),
        "--cache-dir",
        cache.to_str().unwrap(),
    ]);
    command.env("OPENAI_API_KEY", KEY);
    let rendered = context.render(command);
    assert_eq!(rendered.code, 3, "{}", rendered.text);
    let report = read_json(&run_dir.join("report.json"));
    assert_eq!(report["learning"]["stopped"], "no answers from the model");
    assert_eq!(report["learning"]["roundsRun"], 1, "later rounds would fail the same way");
    assert!(report.get("selected").is_none());
    assert_eq!(report["maxScore"], 11);
    let port = regex::Regex::new(r"127\.0\.0\.1:\d+").unwrap();
    insta::assert_snapshot!("run-unreachable", port.replace_all(&context.filter(&rendered.stdout), "[LOCALHOST]"));
    assert!(rendered.text.contains("not judged: 2 of 2 candidate(s); candidate 1: no answer from the model: "), "{}", rendered.text);
}

#[test]
fn the_budget_stops_asking() {
    let run = Run::new();
    let prices = run.context.path("prices.json");
    std::fs::write(&prices, r#"{"test-model": {"input": 1000000, "output": 0}}"#).unwrap();
    run.server.respond_with("*", |_| Reply::text(partial()).usage(1, 0));
    let (code, stdout, stderr) = run.run(&["--candidates", "1", "--rounds", "5", "--max-usd", "1.5", "--prices", prices.to_str().unwrap()]);
    assert_eq!(code, 1, "{stdout}\n{stderr}");
    let report = run.report();
    assert_eq!(report["learning"]["stopped"], "budget spent");
    assert!(!stderr.contains("no price is known"), "{stderr}");
    assert_eq!(run.server.request_count(), 2);
    assert_eq!(report["learning"]["usage"]["costUsd"], 2.0);
}

#[test]
fn a_killed_run_resumes_without_asking_twice() {
    let run = Run::new();
    run.server.respond_with("*", |_| Reply::text(partial()).after(Duration::from_millis(300)));
    let mut child = run.command(&["--candidates", "5", "--concurrency", "1"]).spawn().unwrap();
    let cache = run.context.path("cache");
    let deadline = Instant::now() + Duration::from_secs(20);
    while count_files(&cache) < 2 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    // SIGKILL: no chance to clean up.
    unsafe { libc::kill(child.id() as i32, libc::SIGKILL) };
    child.wait().unwrap();
    let answered = count_files(&cache);
    assert!((2..5).contains(&answered), "killed after {answered} answers");
    assert!(!run.run_dir().join("report.json").exists());
    run.server.clear_requests();
    let run_dir = run.run_dir();
    let mut resume = run.context.command(&["run", "--resume", run_dir.to_str().unwrap()]);
    resume.env("OPENAI_API_KEY", KEY);
    let output = resume.output().unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(run.server.request_count(), 5 - answered, "answers already received are not asked for again");
    let report = run.report();
    assert_eq!(report["attempts"].as_array().unwrap().len(), 5);
    let cached = report["attempts"].as_array().unwrap().iter().filter(|a| a["proposal"]["cached"] == true).count();
    assert_eq!(cached, answered);
}

/// Cached answers (JSON files anywhere below the cache directory).
fn count_files(dir: &Path) -> usize {
    if !dir.is_dir() {
        return 0;
    }
    walk(dir).iter().filter(|path| path.extension().is_some_and(|x| x == "json")).count()
}

#[test]
fn api_keys_never_reach_artifacts_or_output() {
    let run = Run::new();
    run.server.script("test-model", vec![Reply::status(500).body(format!("upstream said: {KEY}")), Reply::text(good())]);
    let (code, stdout, stderr) = run.run(&["--candidates", "1"]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert_eq!(run.server.requests()[0].header("authorization"), Some(format!("Bearer {KEY}").as_str()));
    // Answers are cached per endpoint.
    let scope = run.server.base_url_openai().trim_start_matches("http://").replace([':', '/'], "_");
    assert_eq!(count_files(&run.context.path("cache").join(scope)), 1);
    assert!(!stdout.contains(KEY) && !stderr.contains(KEY));
    for root in [run.run_dir(), run.context.path("cache")] {
        for file in walk(&root) {
            let text = String::from_utf8_lossy(&std::fs::read(&file).unwrap()).into_owned();
            assert!(!text.contains(KEY), "{} contains the API key", file.display());
        }
    }
}

/// `OPENAI_API_KEY=x`, a common dummy key for local servers, must not turn
/// every `x` of the answer into `[REDACTED]`: the mod passes, and the cache
/// holds the answer as received, so a rerun with another key replays it intact.
#[test]
fn a_dummy_key_leaves_the_answer_intact() {
    let run = Run::new();
    run.server.respond_with("*", |_| Reply::text(good()));
    let mut command = run.command(&["--candidates", "1"]);
    command.env("OPENAI_API_KEY", "x");
    let output = command.output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let source = std::fs::read_to_string(run.run_dir().join("candidates/001/mods/uv-pip.ts")).unwrap();
    assert!(source.contains("export") && !source.contains("[REDACTED]"), "{source}");
    let cached: Vec<String> = walk(&run.context.path("cache")).iter().map(|file| std::fs::read_to_string(file).unwrap()).collect();
    assert_eq!(cached.len(), 1);
    assert!(cached[0].contains("export") && !cached[0].contains("[REDACTED]"), "{}", cached[0]);
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() { files.extend(walk(&path)) } else { files.push(path) }
    }
    files
}

#[test]
fn anthropic_models_work_the_same_way() {
    let run = Run::new();
    run.server.script("claude-test", vec![Reply::text(good()).usage(900, 300)]);
    let run_dir = run.run_dir();
    let cache = run.context.path("cache");
    let mut command = run.context.command(&[
        "run",
        "specs/uv-pip.json",
        "--candidates",
        "1",
        "--model",
        "anthropic:claude-test",
        "--run-dir",
        run_dir.to_str().unwrap(),
        "--cache-dir",
        cache.to_str().unwrap(),
    ]);
    command.env("ANTHROPIC_API_KEY", KEY).env("ANTHROPIC_BASE_URL", run.server.base_url_anthropic());
    let output = command.output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let request = &run.server.requests()[0];
    assert_eq!(request.path, "/v1/messages");
    assert_eq!(request.header("x-api-key"), Some(KEY));
    assert_eq!(run.report()["attempts"][0]["proposal"]["outputTokens"], 300);
}

#[test]
fn configuration_errors_exit_2_before_anything_is_written() {
    let context = TestContext::new();
    let run_dir = context.path("never");
    let run = run_dir.to_str().unwrap();
    for (name, args, key) in [
        ("missing-key", vec!["run", "specs/uv-pip.json", "--candidates", "1", "--model", "openai:gpt-4.1-mini", "--run-dir", run], false),
        ("bad-model", vec!["run", "specs/uv-pip.json", "--candidates", "1", "--model", "gpt-4", "--run-dir", run], true),
        ("no-candidates", vec!["run", "specs/uv-pip.json", "--run-dir", run], true),
        ("resume-missing", vec!["run", "--resume", run], true),
        (
            "unpriced-budget",
            vec![
                "run",
                "specs/uv-pip.json",
                "--candidates",
                "1",
                "--model",
                "openai:test-model",
                "--base-url",
                "http://127.0.0.1:9/v1",
                "--max-usd",
                "1",
                "--run-dir",
                run,
            ],
            true,
        ),
    ] {
        let mut command = context.command(&args);
        command.env_remove("OPENAI_API_KEY").env_remove("OPENAI_BASE_URL").env_remove("MODLEARN_MODEL");
        if key {
            command.env("OPENAI_API_KEY", KEY);
        }
        let output = command.output().unwrap();
        let text = context.filter(&format!(
            "exit_code: {}\n----- stderr -----\n{}",
            output.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&output.stderr)
        ));
        assert_eq!(output.status.code(), Some(2), "{name}: {text}");
        insta::assert_snapshot!(format!("run-error-{name}"), text);
        assert!(!run_dir.exists(), "{name}: nothing may be written");
    }
}

/// The embedded demo model end to end, on structure only: a 135M model
/// cannot be expected to write a passing mod.
#[cfg(feature = "local-model")]
#[test]
fn the_embedded_model_runs_the_pipeline_offline() {
    if std::env::var_os("MODLEARN_SKIP_LOCAL_MODEL").is_some() {
        eprintln!("skipped: MODLEARN_SKIP_LOCAL_MODEL is set");
        return;
    }
    let model = modlearn_propose::local_model_path();
    assert!(model.is_file(), "{} is missing: run scripts/fetch-local-model (scripts/bootstrap does)", model.display());
    let context = TestContext::new();
    let run_dir = context.path("local");
    let cache = context.path("cache");
    let mut command = context.command(&[
        "run",
        "specs/uv-pip.json",
        "--candidates",
        "1",
        "--max-tokens",
        "192",
        "--temperature",
        "0",
        "--run-dir",
        run_dir.to_str().unwrap(),
        "--cache-dir",
        cache.to_str().unwrap(),
    ]);
    command.env_remove("MODLEARN_MODEL");
    let output = command.output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(matches!(output.status.code(), Some(0 | 1)), "{stderr}");
    assert!(stderr.contains("135M-parameter demo model"), "{stderr}");
    let report = read_json(&run_dir.join("report.json"));
    let attempt = &report["attempts"][0];
    assert_eq!(attempt["proposal"]["model"], "local:smollm2-135m");
    assert!(attempt["proposal"]["outputTokens"].as_u64().unwrap() > 0);
    assert_eq!(attempt["maxScore"], 11);
    // Either the answer had code (and was judged) or the reason is recorded.
    assert!(attempt["error"].is_null() || attempt["error"].as_str().unwrap().starts_with("no usable code"), "{attempt}");
    assert!(run_dir.join("candidates/001/proposal.json").is_file());
}
