//! Prompt scenarios run by an eval model (`--eval-model`) against a real model server on
//! 127.0.0.1, scripted turn by turn: the model's Bash call goes through the candidate's
//! `tool_start`, the mods' reminder reaches the model, `$MEMORY_DIR` is substituted, markers are
//! judged on the trace and the final message; `maxTurns`, `timeoutMs`, the response cache, eval
//! cost in the reports, refused keys, and what happens without an eval model.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use modlearn_testserver::{Reply, TestServer};
use serde_json::{Value, json};

use crate::common::{Rendered, TestContext, read, read_json};

const KEY: &str = "sk-test-EVAL-NEVER-LEAK-5e1a";
const SPEC: &str = "specs/prompt-install.json";
const GOOD: &str = "candidates/uv-pip/good-return-args.ts";
const NOOP: &str = "candidates/uv-pip/broken-registers-nothing.js";
const MODEL: &str = "gpt-4.1-mini";

struct PromptRun {
    context: TestContext,
    server: TestServer,
}

impl PromptRun {
    fn new() -> PromptRun {
        PromptRun { context: TestContext::new(), server: TestServer::start_blocking() }
    }

    /// The usual conversation: a Bash call, then the final message.
    fn install_session(&self) {
        self.server.session(
            MODEL,
            vec![
                Reply::tool_call("Bash", json!({ "command": "pip install requests" })).with_text("Installing.").usage(1000, 50),
                Reply::text("Installed requests.").usage(1200, 10),
            ],
        );
    }

    fn run_dir(&self, name: &str) -> PathBuf {
        self.context.path(name)
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut command = self.context.command(args);
        command.env("OPENAI_API_KEY", KEY).env_remove("OPENAI_BASE_URL");
        command
    }

    /// `modlearn eval SPEC CANDIDATES --eval-model openai:MODEL` against the server.
    fn eval(&self, spec: &str, candidates: &[&str], run_dir: &str, extra: &[&str]) -> Rendered {
        let (run_dir, cache) = (self.run_dir(run_dir), self.context.path("cache"));
        let base = self.server.base_url_openai();
        let model = format!("openai:{MODEL}");
        let mut args = vec!["eval", spec];
        args.extend_from_slice(candidates);
        args.extend_from_slice(&["--run-dir", run_dir.to_str().unwrap(), "--jobs", "1"]);
        args.extend_from_slice(&["--eval-model", &model, "--eval-base-url", &base, "--cache-dir", cache.to_str().unwrap()]);
        args.extend_from_slice(extra);
        render(&self.context, self.command(&args))
    }
}

fn render(context: &TestContext, command: Command) -> Rendered {
    let rendered = context.render(command);
    let stamp = regex::Regex::new(r"reports/[a-z-]+-\d{8}T\d{6}Z").unwrap();
    Rendered { text: stamp.replace_all(&rendered.text, "reports/[RUN]").into_owned(), ..rendered }
}

/// A check of `report.json` by label suffix: (passed, message).
fn check(report: &Value, candidate: usize, label_end: &str) -> (bool, String) {
    let scenarios = report["attempts"][candidate]["scenarios"].as_array().unwrap();
    let found = scenarios
        .iter()
        .flat_map(|scenario| scenario["checks"].as_array().unwrap())
        .find(|check| check["label"].as_str().unwrap().ends_with(label_end))
        .unwrap_or_else(|| panic!("no check ending in {label_end}: {scenarios:?}"));
    (found["passed"].as_bool().unwrap(), found["message"].as_str().unwrap().to_owned())
}

#[test]
fn the_eval_model_drives_prompt_scenarios_and_the_rewrite_decides_the_trace_marker() {
    let run = PromptRun::new();
    run.install_session();
    let rendered = run.eval(SPEC, &[GOOD, NOOP], "run", &[]);
    assert_eq!(rendered.code, 0, "{}", rendered.text);
    insta::assert_snapshot!("prompt-eval-table", rendered.text);

    let run_dir = run.run_dir("run");
    let report = read_json(&run_dir.join("report.json"));
    assert_eq!((report["score"].as_u64(), report["maxScore"].as_u64()), (Some(7), Some(7)));
    assert_eq!(
        check(&report, 0, "required_trace_marker \"\\\"command\\\":\\\"uv pip install requests\\\"\""),
        (true, "found in trace entry 11 (event)".to_owned())
    );
    let (passed, message) = check(&report, 1, "required_trace_marker \"\\\"command\\\":\\\"uv pip install requests\\\"\"");
    assert!(!passed, "the candidate that rewrites nothing fails the trace marker");
    assert!(message.starts_with("not in the trace"), "{message}");
    // Both end with the model's final message.
    assert!(check(&report, 1, "required_result_marker \"Installed requests.\"").0);

    let scenario = run_dir.join("candidates/001/eval/003-install-from-requirements");
    insta::assert_snapshot!("prompt-trace-good", read(&scenario.join("trace.jsonl")));
    assert_eq!(read(&scenario.join("result.txt")), "Installed requests.");
    assert_eq!(read(&scenario.join("memory/requirements.txt")), "requests\n");
    insta::assert_snapshot!("prompt-report-md", run.context.filter(&read(&run_dir.join("report.md"))));
    let eval = &report["attempts"][0]["eval"];
    assert_eq!(eval["model"], format!("openai:{MODEL}"));
    assert_eq!((eval["sessions"].as_u64(), eval["turns"].as_u64(), eval["inputTokens"].as_u64()), (Some(1), Some(2), Some(2200)));
    assert!(eval["costUsd"].as_f64().unwrap() > 0.0, "{eval}");
    assert!(report["attempts"][0].get("proposal").is_none(), "eval cost is not a proposal's");

    // What the model was sent: the substituted prompt, the environment's tools, the mod's
    // reminder (appended at turn_start), and the rewritten command's result.
    let requests = run.server.requests();
    assert_eq!(requests.len(), 4, "two turns per candidate");
    let first = &requests[0];
    assert_eq!(first.tool_names(), ["Bash", "Read", "Write", "Edit"]);
    let prompt = first.prompt_text();
    assert!(
        prompt.contains("listed in /home/user/.letta/eval/003-install-from-requirements/memory/requirements.txt, then say"),
        "{prompt}"
    );
    assert!(!prompt.contains("MEMORY_DIR"), "{prompt}");
    assert!(prompt.contains("<system-reminder>\n<system-reminder>Install Python packages with `uv pip install <package>`."), "{prompt}");
    assert!(!requests[2].prompt_text().contains("uv pip install <package>"), "the no-op candidate injects nothing");
    let messages = first.body["messages"].as_array().unwrap();
    assert_eq!(messages[0]["role"], "system");
    assert!(messages[0]["content"].as_str().unwrap().contains("coding agent running headless"), "{}", messages[0]);
    assert_eq!(requests[1].turn(), 2);
    assert_eq!(requests[1].last_tool_results().len(), 1);
    assert_eq!(first.header("authorization"), Some(format!("Bearer {KEY}").as_str()));
    for file in ["report.json", "report.md", "candidates/001/eval/003-install-from-requirements/trace.jsonl"] {
        assert!(!read(&run_dir.join(file)).contains(KEY), "{file} leaks the key");
    }

    // A re-evaluation is answered by the response cache: no request, the same verdicts and traces.
    let again = run.eval(SPEC, &[GOOD, NOOP], "again", &[]);
    assert_eq!(again.code, 0, "{}", again.text);
    assert_eq!(run.server.request_count(), 4, "every turn came from the cache");
    let cached = read_json(&run.run_dir("again").join("report.json"));
    assert_eq!(cached["attempts"][0]["scenarios"], report["attempts"][0]["scenarios"]);
    assert_eq!(cached["attempts"][0]["eval"]["cachedTurns"], 2);
    assert_eq!(
        read(&run.run_dir("again").join("candidates/001/eval/003-install-from-requirements/trace.jsonl")),
        read(&scenario.join("trace.jsonl"))
    );
}

/// A spec of one prompt scenario with `fields` merged in.
fn one_prompt_spec(run: &PromptRun, fields: Value) -> String {
    let mut scenario = json!({
        "name": "bounded",
        "prompt": "List the files in $MEMORY_DIR.",
        "memoryFiles": { "notes.md": "hello" },
        "requiredResultMarkers": ["Done."],
    });
    scenario.as_object_mut().unwrap().extend(fields.as_object().unwrap().clone());
    let spec = json!({
        "name": "Bounded", "objective": "o", "requirements": ["r"],
        "evaluation": { "scenarios": [{ "name": "loads", "assertions": [{ "type": "mod_loads" }] }, scenario] }
    });
    let path = run.context.path("bounded.json");
    std::fs::write(&path, serde_json::to_string_pretty(&spec).unwrap()).unwrap();
    path.display().to_string()
}

#[test]
fn max_turns_bounds_the_model_turns() {
    let run = PromptRun::new();
    run.server.session(MODEL, vec![Reply::tool_call("Bash", json!({ "command": "ls $MEMORY_DIR" }))]);
    let spec = one_prompt_spec(&run, json!({ "maxTurns": 3 }));
    let rendered = run.eval(&spec, &[GOOD], "run", &[]);
    assert_eq!(rendered.code, 1, "{}", rendered.text);
    assert_eq!(run.server.request_count(), 3, "three assistant turns, then the session ends");
    let trace = read(&run.run_dir("run").join("eval/002-bounded/trace.jsonl"));
    let driver: Value =
        trace.lines().map(|line| serde_json::from_str::<Value>(line).unwrap()).find(|entry| entry["type"] == "driver").unwrap();
    assert_eq!((driver["modelTurns"].as_u64(), driver["end"].as_str()), (Some(3), Some("maxTurns")));
    // `$MEMORY_DIR` in the model's own arguments is the scenario's memory directory too.
    assert!(trace.contains("\"command\":\"ls /home/user/.letta/eval/002-bounded/memory\""), "{trace}");
    let report = read_json(&run.run_dir("run").join("report.json"));
    assert_eq!(check(&report, 0, "required_result_marker \"Done.\""), (false, "the result lacks it: \"\"".to_owned()));
}

#[test]
fn a_session_past_its_timeout_stops_and_fails_its_markers() {
    let run = PromptRun::new();
    run.server.session(MODEL, vec![Reply::text("Done.").after(Duration::from_secs(5))]);
    let spec = one_prompt_spec(&run, json!({ "timeoutMs": 400 }));
    let started = Instant::now();
    let rendered = run.eval(&spec, &[GOOD], "run", &[]);
    assert!(started.elapsed() < Duration::from_secs(4), "the session did not wait for the answer");
    assert_eq!(rendered.code, 1, "{}", rendered.text);
    let report = read_json(&run.run_dir("run").join("report.json"));
    assert_eq!(
        check(&report, 0, "required_result_marker \"Done.\""),
        (false, "the session stopped early (the 400 ms of timeoutMs ran out), so its result is incomplete".to_owned())
    );
    assert!(check(&report, 0, "mod_loads").0, "the assertions still count");
}

#[test]
fn a_mods_continue_gets_another_model_turn() {
    let run = PromptRun::new();
    run.server.session(MODEL, vec![Reply::text("Installed requests."), Reply::text("Done.")]);
    let candidate = run.context.path("continues.js");
    std::fs::write(
        &candidate,
        "export function activate(letta) {\n  letta.events.on('turn_end', (event) => event.assistantMessage === 'Installed requests.' ? { continue: 'Verify it.' } : undefined);\n}\n",
    )
    .unwrap();
    let spec = one_prompt_spec(&run, json!({ "requiredTraceMarkers": ["\"origin\":\"continue\""] }));
    let rendered = run.eval(&spec, &[candidate.to_str().unwrap()], "run", &[]);
    assert_eq!(rendered.code, 0, "{}", rendered.text);
    let requests = run.server.requests();
    assert_eq!(requests.len(), 2);
    assert!(requests[1].prompt_text().ends_with("Installed requests.\nVerify it."), "{}", requests[1].prompt_text());
}

#[test]
fn without_an_eval_model_prompt_markers_fail_and_say_how_to_run_them() {
    let context = TestContext::new();
    let run_dir = context.path("run");
    let rendered = context.run(&["eval", SPEC, GOOD, "--run-dir", run_dir.to_str().unwrap()]);
    assert_eq!(rendered.code, 1, "{}", rendered.text);
    let report = read_json(&run_dir.join("report.json"));
    assert_eq!((report["score"].as_u64(), report["maxScore"].as_u64()), (Some(4), Some(7)));
    insta::assert_snapshot!("prompt-not-run-report", context.filter(&read(&run_dir.join("report.md"))));
}

#[test]
fn a_local_eval_model_is_refused() {
    let context = TestContext::new();
    let run_dir = context.path("run");
    let rendered = context.run(&["eval", SPEC, GOOD, "--run-dir", run_dir.to_str().unwrap(), "--eval-model", "local:smollm2-135m"]);
    assert_eq!(rendered.code, 2);
    assert!(!run_dir.exists(), "nothing is written");
    insta::assert_snapshot!("prompt-local-eval-model", rendered.text);
    let rendered =
        context.run(&["run", SPEC, "--candidates", "1", "--run-dir", run_dir.to_str().unwrap(), "--eval-model", "local:smollm2-135m"]);
    assert_eq!(rendered.code, 2, "{}", rendered.text);
    assert!(!run_dir.exists(), "nothing is written");
    // The provider's own host needs a key; the error names the eval model's flags.
    let mut command = context.command(&["eval", SPEC, GOOD, "--run-dir", run_dir.to_str().unwrap(), "--eval-model", "openai:gpt-4.1-mini"]);
    command.env_remove("OPENAI_API_KEY").env_remove("OPENAI_BASE_URL");
    let rendered = render(&context, command);
    assert_eq!(rendered.code, 2);
    assert!(!run_dir.exists(), "nothing is written");
    insta::assert_snapshot!("prompt-eval-model-without-key", rendered.text);
}

#[test]
fn a_refused_key_stops_the_evaluation_with_what_to_fix() {
    let run = PromptRun::new();
    run.server.session(MODEL, vec![Reply::status(401).body(r#"{"error":{"message":"invalid api key"}}"#)]);
    let rendered = run.eval(SPEC, &[GOOD, NOOP], "run", &[]);
    assert_eq!(rendered.code, 2, "{}", rendered.text);
    assert!(!run.run_dir("run").join("report.json").exists());
    assert!(!run.run_dir("run").join("candidates/001/report.json").exists(), "no incomplete verdict is written");
    assert_eq!(run.server.request_count(), 1, "nothing is asked after the refusal");
    insta::assert_snapshot!("prompt-refused-key", rendered.text);
}

#[test]
fn run_counts_the_eval_cost_apart_from_proposals() {
    let run = PromptRun::new();
    run.install_session();
    let code = std::fs::read_to_string(crate::common::repo_root().join(GOOD)).unwrap();
    run.server.script("gpt-test", vec![Reply::text(format!("```ts\n{code}\n```")).usage(500, 500)]);
    let (run_dir, cache) = (run.run_dir("run"), run.context.path("cache"));
    let base = run.server.base_url_openai();
    let model = format!("openai:{MODEL}");
    let args = [
        "run",
        SPEC,
        "--candidates",
        "1",
        "--model",
        "openai:gpt-test",
        "--base-url",
        &base,
        "--eval-model",
        &model,
        "--run-dir",
        run_dir.to_str().unwrap(),
        "--cache-dir",
        cache.to_str().unwrap(),
    ];
    let rendered = render(&run.context, run.command(&args));
    assert_eq!(rendered.code, 0, "{}", rendered.text);
    let report = read_json(&run_dir.join("report.json"));
    assert_eq!(report["passed"], true);
    let attempt = &report["attempts"][0];
    assert_eq!(attempt["proposal"]["model"], "openai:gpt-test");
    assert_eq!((attempt["eval"]["turns"].as_u64(), attempt["eval"]["inputTokens"].as_u64()), (Some(2), Some(2200)));
    assert_eq!(report["learning"]["usage"]["inputTokens"], 500, "proposal usage only");
    let state = read_json(&run_dir.join("run.json"));
    assert_eq!(state["evalModel"], model, "a resumed run keeps the eval model");
    let markdown = read(&run_dir.join("report.md"));
    assert!(
        markdown.contains("- Eval model: `openai:gpt-4.1-mini` (the agent of prompt scenarios): 1 session(s), 2 turn(s)"),
        "{markdown}"
    );
}

#[test]
fn anthropic_tool_use_drives_the_session_too() {
    let run = PromptRun::new();
    run.server.session(
        "claude-test",
        vec![Reply::tool_call("Bash", json!({ "command": "python -m pip install requests" })), Reply::text("Installed requests.")],
    );
    let (run_dir, cache) = (run.run_dir("run"), run.context.path("cache"));
    let base = run.server.base_url_anthropic();
    let args = [
        "eval",
        SPEC,
        GOOD,
        "--run-dir",
        run_dir.to_str().unwrap(),
        "--eval-model",
        "anthropic:claude-test",
        "--eval-base-url",
        &base,
        "--cache-dir",
        cache.to_str().unwrap(),
    ];
    let mut command = run.context.command(&args);
    command.env("ANTHROPIC_API_KEY", KEY);
    let rendered = render(&run.context, command);
    assert_eq!(rendered.code, 0, "{}", rendered.text);
    let requests = run.server.requests();
    assert_eq!(requests.len(), 2);
    // The reminder is a user text block where the mod added it; the instructions are `system`.
    assert!(requests[0].body["system"].as_str().unwrap().contains("coding agent running headless"));
    assert!(requests[0].prompt_text().contains("<system-reminder>\n<system-reminder>Install Python packages"));
    assert_eq!(requests[1].last_tool_results().len(), 1);
    assert!(!requests[1].last_tool_results()[0].is_error);
}

#[test]
fn the_eval_models_spending_counts_against_max_usd() {
    let run = PromptRun::new();
    // 10k tokens in at $0.40 per million: each turn costs $0.004, over the budget at once.
    run.server.session(MODEL, vec![Reply::tool_call("Bash", json!({ "command": "pip install requests" })).usage(10_000, 10)]);
    let code = std::fs::read_to_string(crate::common::repo_root().join(GOOD)).unwrap();
    run.server.script("gpt-test", vec![Reply::text(format!("```ts\n{code}\n```"))]);
    let (run_dir, cache) = (run.run_dir("run"), run.context.path("cache"));
    let base = run.server.base_url_openai();
    let model = format!("openai:{MODEL}");
    // `--max-usd` needs every model priced: the proposer's answers cost nothing here.
    let prices = run.context.path("prices.json");
    std::fs::write(&prices, r#"{"gpt-test": {"input": 0, "output": 0}}"#).unwrap();
    let args = [
        "run",
        SPEC,
        "--candidates",
        "1",
        "--rounds",
        "2",
        "--model",
        "openai:gpt-test",
        "--base-url",
        &base,
        "--eval-model",
        &model,
        "--max-usd",
        "0.001",
        "--prices",
        prices.to_str().unwrap(),
        "--run-dir",
        run_dir.to_str().unwrap(),
        "--cache-dir",
        cache.to_str().unwrap(),
    ];
    let rendered = render(&run.context, run.command(&args));
    assert_eq!(rendered.code, 1, "{}", rendered.text);
    assert_eq!(run.server.request_count(), 2, "one proposal, one eval turn, then the budget is spent");
    let report = read_json(&run_dir.join("report.json"));
    assert_eq!(report["learning"]["stopped"], "budget spent");
    assert_eq!(
        check(&report, 0, "required_result_marker \"Installed requests.\""),
        (false, "the session stopped early (the --max-usd budget is spent), so its result is incomplete".to_owned())
    );
}

#[test]
fn a_refused_eval_key_stops_a_run_and_says_how_to_go_on() {
    let run = PromptRun::new();
    run.server.session(MODEL, vec![Reply::status(403).body(r#"{"error":{"message":"no access"}}"#)]);
    let code = std::fs::read_to_string(crate::common::repo_root().join(GOOD)).unwrap();
    run.server.script("gpt-test", vec![Reply::text(format!("```ts\n{code}\n```"))]);
    let (run_dir, cache) = (run.run_dir("run"), run.context.path("cache"));
    let base = run.server.base_url_openai();
    let model = format!("openai:{MODEL}");
    let args = [
        "run",
        SPEC,
        "--candidates",
        "2",
        "--concurrency",
        "1",
        "--jobs",
        "1",
        "--model",
        "openai:gpt-test",
        "--base-url",
        &base,
        "--eval-model",
        &model,
        "--run-dir",
        run_dir.to_str().unwrap(),
        "--cache-dir",
        cache.to_str().unwrap(),
    ];
    let rendered = render(&run.context, run.command(&args));
    assert_eq!(rendered.code, 2, "{}", rendered.text);
    assert!(!run_dir.join("report.json").exists());
    assert!(!run_dir.join("candidates/001/report.json").exists(), "no incomplete verdict is written");
    let eval_requests = run.server.requests().iter().filter(|request| request.model() == Some(MODEL)).count();
    // One evaluation at a time: the second candidate's session starts after the refusal.
    assert_eq!(eval_requests, 1, "nothing is asked of the eval model after the refusal");
    insta::assert_snapshot!("prompt-run-refused-eval-key", rendered.text);
}
