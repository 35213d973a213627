//! `modlearn run --proposer agent` against a real model server on
//! 127.0.0.1 scripted with tool calls: the model lists, reads and searches
//! the run directory and writes the candidate; escapes, closed files and
//! sessions that never write; both APIs; the transcript; redaction. Also
//! keys the API refuses, which stop a run at once (either proposer).

use std::path::{Path, PathBuf};
use std::process::Command;

use modlearn_testserver::{RecordedRequest, Reply, TestServer};
use serde_json::{Value, json};

use crate::common::{TestContext, read_json, repo_root};

const KEY: &str = "sk-test-AGENT-NEVER-LEAK-91c2";

fn source(file: &str) -> String {
    std::fs::read_to_string(repo_root().join(file)).unwrap()
}

fn write(file: &str) -> Reply {
    Reply::tool_call("write_candidate", json!({"source": source(file)}))
}

/// The transcript's lines, parsed.
fn transcript(run_dir: &Path, number: usize) -> Vec<Value> {
    let path = run_dir.join(format!("candidates/{number:03}/agent-transcript.jsonl"));
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// `(tool, ok, result)` of every tool call in a transcript.
fn tool_results(lines: &[Value]) -> Vec<(String, bool, String)> {
    lines
        .iter()
        .filter(|line| line["kind"] == "tool")
        .map(|line| (line["name"].as_str().unwrap().to_owned(), line["ok"].as_bool().unwrap(), line["result"].as_str().unwrap().to_owned()))
        .collect()
}

struct AgentRun {
    context: TestContext,
    server: TestServer,
}

impl AgentRun {
    fn new() -> AgentRun {
        AgentRun { context: TestContext::new(), server: TestServer::start_blocking() }
    }

    fn run_dir(&self) -> PathBuf {
        self.context.path("run")
    }

    /// `modlearn run specs/uv-pip.json --proposer agent` against the server, `model` being `openai:…` or `anthropic:…`.
    fn command(&self, model: &str, extra: &[&str]) -> Command {
        let (run_dir, cache) = (self.run_dir(), self.context.path("cache"));
        let mut args = vec!["run", "specs/uv-pip.json", "--proposer", "agent", "--model", model];
        args.extend_from_slice(&[
            "--run-dir",
            run_dir.to_str().unwrap(),
            "--cache-dir",
            cache.to_str().unwrap(),
            "--handler-timeout",
            "500ms",
        ]);
        args.extend_from_slice(extra);
        let mut command = self.context.command(&args);
        command.env("OPENAI_API_KEY", KEY).env("OPENAI_BASE_URL", self.server.base_url_openai());
        command.env("ANTHROPIC_API_KEY", KEY).env("ANTHROPIC_BASE_URL", self.server.base_url_anthropic());
        command
    }

    fn run(&self, model: &str, extra: &[&str]) -> (i32, String, String) {
        let output = self.command(model, extra).output().unwrap();
        (
            output.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&output.stdout).into_owned(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    }
}

fn round(request: &RecordedRequest) -> u32 {
    let prompt = request.prompt_text();
    (1..=9).find(|r| prompt.contains(&format!("Round {r} of"))).unwrap_or(0)
}

#[test]
fn the_agent_reads_the_history_and_guide_then_writes_a_passing_candidate() {
    let run = AgentRun::new();
    let round_one = vec![Reply::tool_call("list", json!({})), write("candidates/uv-pip/partial-no-python-m.ts")];
    let round_two = vec![
        Reply::tool_call("list", json!({"path": "."})).with_text("Let me see what failed."),
        Reply::tool_call("read", json!({"path": "proposer-guide.md"})),
        Reply::tool_calls(vec![
            ("search".into(), json!({"pattern": "python -m pip"})),
            ("read".into(), json!({"path": "candidates/001/mods/uv-pip.ts", "limit": 5})),
        ]),
        write("candidates/uv-pip/good-return-args.ts"),
    ];
    run.server.respond_with("*", move |request| {
        let script = if round(request) == 1 { &round_one } else { &round_two };
        script[(request.turn() - 1).min(script.len() - 1)].clone()
    });
    let (code, stdout, stderr) = run.run("openai:gpt-test", &["--candidates", "1", "--rounds", "3"]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let report = read_json(&run.run_dir().join("report.json"));
    assert_eq!(report["learning"]["stopped"], "perfect score");
    assert_eq!(report["selected"]["candidateIndex"], 2);

    let requests = run.server.requests();
    assert_eq!(requests.len(), 2 + 4, "two turns in round 1, four in round 2");
    assert!(requests.iter().all(|r| r.tool_names() == ["list", "read", "search", "write_candidate"]));
    let first = requests[0].prompt_text();
    assert!(first.contains("Call `write_candidate` once") && first.contains("no earlier candidates yet"), "{first}");
    let second = requests.iter().find(|r| round(r) == 2).unwrap().prompt_text();
    for pointer in
        ["`history.json`, `history.md`", "`proposer-guide.md`", "Earlier candidates: `candidates/001/`", "FAIL `rewrite-python-module-pip`"]
    {
        assert!(second.contains(pointer), "round 2's prompt lacks {pointer:?}");
    }

    // Round 1 sees an empty directory: siblings and the spec are never open.
    assert_eq!(tool_results(&transcript(&run.run_dir(), 1))[0].2, "./ (0 entries)\n");
    let lines = transcript(&run.run_dir(), 2);
    let results = tool_results(&lines);

    let listing = &results[0].2;
    for absent in ["env.snapshot.json", "run.json", "report"] {
        assert!(!listing.contains(absent), "{absent} is listed: {listing}");
    }
    assert!(listing.starts_with("./ (4 entries)\ncandidates/\nhistory.json ("), "{listing}");
    assert!(results[1].2.contains("## Check matrix"), "the guide was read: {}", results[1].2);
    assert!(results[2].2.contains("candidates/001/eval/") && results[2].2.contains("python -m pip install"), "{}", results[2].2);
    assert!(results[3].2.starts_with("// Partial: handles `pip install`"), "{}", results[3].2);
    assert_eq!(results[4], ("write_candidate".into(), true, "candidate written".into()));
    // The model got each result back, in the next request.
    let read = requests.iter().find(|r| round(r) == 2 && r.turn() == 3).unwrap();
    assert!(read.last_tool_results()[0].content.starts_with(&results[1].2.chars().take(2000).collect::<String>()));

    // The transcript: a summary line, then every turn with its usage, every call with its result.
    assert_eq!(lines[0]["kind"], "session");
    assert_eq!(lines[0]["end"], json!({"kind": "written"}));
    assert_eq!(lines[0]["steps"], 4);
    let kinds: Vec<&str> = lines[1..].iter().map(|line| line["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["turn", "tool", "turn", "tool", "turn", "tool", "tool", "turn", "tool"]);
    assert_eq!(lines[1]["text"], "Let me see what failed.");
    assert!(lines[1]["usage"]["inputTokens"].as_u64().unwrap() > 0);
    assert_eq!(lines[1]["httpAttempts"][0]["status"], 200);
    let proposal = read_json(&run.run_dir().join("candidates/002/proposal.json"));
    assert_eq!(proposal["proposer"], "agent");
    assert_eq!(proposal["agent"]["steps"], 4);
    assert_eq!(proposal["agent"]["transcript"], "agent-transcript.jsonl");
    let tokens: u64 = lines.iter().filter(|l| l["kind"] == "turn").map(|l| l["usage"]["inputTokens"].as_u64().unwrap()).sum();
    assert_eq!(report["attempts"][1]["proposal"]["inputTokens"], tokens);
    assert_eq!(report["attempts"][1]["proposal"]["httpAttempts"], 4);
    assert_eq!(
        std::fs::read_to_string(run.run_dir().join("candidates/002/mods/uv-pip.ts")).unwrap(),
        source("candidates/uv-pip/good-return-args.ts")
    );
}

#[test]
fn escapes_and_closed_files_get_error_results_not_files() {
    let run = AgentRun::new();
    let outside = run.context.path("outside.txt");
    std::fs::write(&outside, "OUTSIDE-MARKER-7f outside the run\n").unwrap();
    std::fs::create_dir_all(run.run_dir()).unwrap();
    let round_two = [
        Reply::tool_calls(vec![
            ("read".into(), json!({"path": "../outside.txt"})),
            ("read".into(), json!({"path": outside.to_str().unwrap()})),
            ("read".into(), json!({"path": "env.snapshot.json"})),
            ("read".into(), json!({"path": "candidates/001/report.md"})),
            ("list".into(), json!({"path": "candidates/../.."})),
            ("search".into(), json!({"pattern": "OUTSIDE-MARKER-7f"})),
        ]),
        write("candidates/uv-pip/partial-no-python-m.ts"),
    ];
    run.server.respond_with("*", move |request| {
        if round(request) == 1 { write("candidates/uv-pip/partial-no-python-m.ts") } else { round_two[(request.turn() - 1).min(1)].clone() }
    });
    let (code, stdout, stderr) = run.run("openai:gpt-test", &["--candidates", "1", "--rounds", "2"]);
    assert_eq!(code, 1, "{stdout}\n{stderr}");
    let results = tool_results(&transcript(&run.run_dir(), 2));
    let rendered: String = results.iter().map(|(tool, ok, result)| format!("{tool} ok={ok}: {result}\n")).collect();
    insta::assert_snapshot!("agent-tool-errors", run.context.filter(&rendered));
    assert!(results[..5].iter().all(|(_, ok, result)| !ok && result.starts_with("error: ")));
    assert_eq!(results[5].2, "no match for \"OUTSIDE-MARKER-7f\"\n", "only open files are searched");
    let sent = run.server.requests().into_iter().find(|r| round(r) == 2 && r.turn() == 2).unwrap().last_tool_results();
    assert_eq!(sent.len(), 6);
    assert!(sent.iter().all(|result| !result.content.contains("outside the run")));
}

#[test]
fn a_session_that_never_writes_fails_at_the_step_bound() {
    let run = AgentRun::new();
    run.server.session("*", vec![Reply::tool_call("list", json!({})), Reply::text("I would rather not write it.")]);
    let (code, stdout, stderr) = run.run("anthropic:claude-test", &["--candidates", "1", "--agent-steps", "3"]);
    // No code, so nothing could be judged.
    assert_eq!(code, 3, "{stdout}\n{stderr}");
    assert_eq!(run.server.request_count(), 3);
    let report = read_json(&run.run_dir().join("report.json"));
    assert_eq!(report["attempts"][0]["error"], "the agent did not call `write_candidate` within 3 steps");
    let lines = transcript(&run.run_dir(), 1);
    assert_eq!(lines[0]["end"], json!({"kind": "stepBound", "maxSteps": 3}));
    assert!(lines.iter().any(|line| line["kind"] == "note"), "the model was reminded to write");
    assert!(!run.run_dir().join("candidates/001/mods").exists(), "no candidate file without a candidate");
    let stored = read_json(&run.run_dir().join("run.json"));
    assert_eq!((stored["proposer"].as_str(), stored["agentSteps"].as_u64()), (Some("agent"), Some(3)));
}

/// The key is sent where it belongs and kept out of everything modlearn writes
/// about the request; the model's own text is its answer and stays as received
/// (issue 11: redacting answers corrupted mods), so it is only in the
/// transcript and the response cache.
#[test]
fn anthropic_tool_use_and_keys_stay_out_of_all_but_the_answer() {
    let run = AgentRun::new();
    run.server.session(
        "claude-test",
        vec![
            Reply::tool_call("list", json!({})).with_text(format!("The proxy told me the key is {KEY}.")),
            write("candidates/uv-pip/good-return-args.ts"),
        ],
    );
    let (code, stdout, stderr) = run.run("anthropic:claude-test", &["--candidates", "1"]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let requests = run.server.requests();
    assert_eq!(requests[0].path, "/v1/messages");
    assert_eq!(requests[0].header("x-api-key"), Some(KEY));
    assert_eq!(requests[1].last_tool_results()[0].call_id, "call_1_1");
    let lines = transcript(&run.run_dir(), 1);
    assert_eq!(lines[1]["text"], format!("The proxy told me the key is {KEY}."));
    for file in walk(&run.run_dir()) {
        let text = String::from_utf8_lossy(&std::fs::read(&file).unwrap()).into_owned();
        let answer = file.file_name().is_some_and(|name| name == "agent-transcript.jsonl");
        assert!(answer || !text.contains(KEY), "{} contains the API key", file.display());
    }
    assert!(!stdout.contains(KEY) && !stderr.contains(KEY));
}

#[test]
fn a_repeated_agent_run_replays_its_sessions_from_the_cache() {
    let run = AgentRun::new();
    run.server.session("*", vec![Reply::tool_call("list", json!({})), write("candidates/uv-pip/good-return-args.ts")]);
    let (code, _, stderr) = run.run("openai:gpt-test", &["--candidates", "2"]);
    assert_eq!(code, 0, "{stderr}");
    let asked = run.server.request_count();
    assert!(asked >= 2, "{asked}");
    std::fs::remove_dir_all(run.run_dir()).unwrap();
    run.server.clear_requests();
    let (code, _, stderr) = run.run("openai:gpt-test", &["--candidates", "2"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(run.server.request_count(), 0, "finished sessions are not asked for again");
    assert_eq!(read_json(&run.run_dir().join("report.json"))["attempts"][0]["proposal"]["cached"], true);
}

#[test]
fn the_agent_proposer_needs_a_model_with_tool_calls() {
    let context = TestContext::new();
    let run_dir = context.path("never");
    let mut command = context.command(&[
        "run",
        "specs/uv-pip.json",
        "--candidates",
        "1",
        "--proposer",
        "agent",
        "--model",
        "local:smollm2-135m",
        "--run-dir",
        run_dir.to_str().unwrap(),
    ]);
    command.env_remove("MODLEARN_MODEL");
    let output = command.output().unwrap();
    let text = context.filter(&format!(
        "exit_code: {}\n----- stderr -----\n{}",
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stderr)
    ));
    assert_eq!(output.status.code(), Some(2), "{text}");
    insta::assert_snapshot!("run-error-agent-local", text);
    assert!(!run_dir.exists(), "nothing may be written");
}

/// The server refuses every key but this one.
const GOOD_KEY: &str = "sk-test-GOOD-5e7a";

fn refuse_bad_keys(server: &TestServer, answer: Reply) {
    server.respond_with("*", move |request| {
        let key = request
            .header("authorization")
            .map(|h| h.trim_start_matches("Bearer ").to_owned())
            .or_else(|| request.header("x-api-key").map(str::to_owned));
        // Candidate 1 is answered whatever the key, so the run has a finished candidate to keep.
        if key.as_deref() == Some(GOOD_KEY) || request.prompt_text().contains("(candidate 1).") {
            answer.clone()
        } else {
            Reply::status(401).body(r#"{"error": {"message": "Incorrect API key provided", "type": "invalid_request_error"}}"#)
        }
    });
}

#[test]
fn a_refused_key_stops_the_run_at_once_and_the_run_resumes() {
    let run = AgentRun::new();
    refuse_bad_keys(&run.server, Reply::text(format!("```ts\n{}```", source("candidates/uv-pip/partial-no-python-m.ts"))));
    let run_dir = run.run_dir();
    let (cache, dir) = (run.context.path("cache"), run_dir.to_str().unwrap().to_owned());
    let base = run.server.base_url_openai();
    let args = [
        "run",
        "specs/uv-pip.json",
        "--candidates",
        "4",
        "--concurrency",
        "1",
        "--model",
        "openai:gpt-test",
        "--base-url",
        &base,
        "--run-dir",
        &dir,
        "--cache-dir",
        cache.to_str().unwrap(),
    ];
    let output = run.context.command(&args).env("OPENAI_API_KEY", KEY).output().unwrap();
    let text = run.context.filter(&format!(
        "exit_code: {}\n----- stderr -----\n{}",
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stderr)
    ));
    assert_eq!(output.status.code(), Some(2), "{text}");
    insta::assert_snapshot!("run-error-key-refused", text);
    assert!(run.server.request_count() <= 3, "stopped at once: {} requests", run.server.request_count());
    assert_eq!(run.server.requests().iter().filter(|r| r.prompt_text().contains("(candidate 2).")).count(), 1, "a 401 is not retried");
    // The finished candidate is whole; nothing of the refused ones; no run-level report.
    assert!(run_dir.join("candidates/001/proposal.json").is_file() && run_dir.join("candidates/001/manifest.json").is_file());
    assert!(!run_dir.join("candidates/002").exists());
    for file in ["report.json", "report.md", "history.json"] {
        assert!(!run_dir.join(file).exists(), "{file} was written");
    }

    run.server.clear_requests();
    let output = run.context.command(&["run", "--resume", &dir]).env("OPENAI_API_KEY", GOOD_KEY).output().unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(run.server.request_count(), 3, "candidate 1 came from the cache");
    let report = read_json(&run_dir.join("report.json"));
    assert_eq!(report["attempts"].as_array().unwrap().len(), 4);
    assert_eq!(report["attempts"][0]["proposal"]["cached"], true);
}

#[test]
fn a_refused_key_stops_an_agent_run_and_resume_keeps_the_agent_proposer() {
    let run = AgentRun::new();
    refuse_bad_keys(&run.server, write("candidates/uv-pip/partial-no-python-m.ts"));
    let (code, _, stderr) = run.run("anthropic:claude-test", &["--candidates", "2", "--concurrency", "1"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("error: `anthropic:claude-test` refused the request: HTTP 401: Incorrect API key provided"), "{stderr}");
    assert!(stderr.contains("hint: check `ANTHROPIC_API_KEY`"), "{stderr}");
    assert!(!run.run_dir().join("report.json").exists());

    run.server.clear_requests();
    let dir = run.run_dir();
    let mut resume = run.context.command(&["run", "--resume", dir.to_str().unwrap()]);
    resume.env("ANTHROPIC_API_KEY", GOOD_KEY).env("ANTHROPIC_BASE_URL", run.server.base_url_anthropic());
    let output = resume.output().unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
    let requests = run.server.requests();
    assert_eq!(requests.len(), 1, "candidate 1's session came from the cache");
    assert!(
        !requests.is_empty() && requests.iter().all(|r| r.tool_names().contains(&"write_candidate".to_owned())),
        "the agent proposer was kept"
    );
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
fn hidden_scenarios_stay_closed_to_the_agent() {
    let run = AgentRun::new();
    let round_two = [
        Reply::tool_calls(vec![
            ("list".into(), json!({"path": "candidates/001/eval"})),
            ("read".into(), json!({"path": "candidates/001/manifest.json"})),
            ("read".into(), json!({"path": "candidates/001/eval/006-preserve-edit-args/assertions.result.json"})),
            ("search".into(), json!({"pattern": "preserve-edit-args"})),
        ]),
        write("candidates/turn-reminder/good-return-input.ts"),
    ];
    run.server.respond_with("*", move |request| {
        if round(request) == 1 {
            write("candidates/turn-reminder/partial-prepends.js")
        } else {
            round_two[(request.turn() - 1).min(1)].clone()
        }
    });
    let (run_dir, cache) = (run.run_dir(), run.context.path("cache"));
    let args = [
        "run",
        "specs/turn-reminder.json",
        "--proposer",
        "agent",
        "--model",
        "openai:gpt-test",
        "--candidates",
        "1",
        "--rounds",
        "2",
        "--run-dir",
        run_dir.to_str().unwrap(),
        "--cache-dir",
        cache.to_str().unwrap(),
    ];
    let output =
        run.context.command(&args).env("OPENAI_API_KEY", KEY).env("OPENAI_BASE_URL", run.server.base_url_openai()).output().unwrap();
    assert!(matches!(output.status.code(), Some(0 | 1)), "{}", String::from_utf8_lossy(&output.stderr));
    let hidden = run_dir.join("candidates/001/eval/006-preserve-edit-args/assertions.result.json");
    assert!(hidden.is_file(), "the hidden scenario was evaluated");
    let results = tool_results(&transcript(&run_dir, 2));
    assert!(results[0].1 && results[0].2.contains("001-mod-loads/") && !results[0].2.contains("preserve-edit-args"), "{}", results[0].2);
    assert!(!results[1].1 && !results[2].1, "{results:?}");
    assert_eq!(results[3].2, "no match for \"preserve-edit-args\"\n");
}
