//! `modlearn compare` with the settings every job shares: `--proposer agent`
//! and `--agent-steps`, `--eval-model` (its cost counted in the model's),
//! recorded in the comparison so `merge` refuses shards that differ; and a
//! key the API refuses, which stops the whole comparison (exit 2).

use std::path::{Path, PathBuf};

use modlearn_testserver::{Reply, TestServer};
use serde_json::json;

use crate::common::{Rendered, TestContext, read_json, repo_root};

const KEY: &str = "sk-test-COMPARE-SETTINGS-77af";
const SPEC: &str = "specs/prompt-install.json";
/// The compared model (an agent writing the mod).
const AGENT: &str = "openai:gpt-4o-mini";
/// The agent of the spec's prompt scenarios.
const EVAL: &str = "openai:gpt-4.1-mini";

fn write_good() -> Reply {
    let source = std::fs::read_to_string(repo_root().join("candidates/uv-pip/good-return-args.ts")).unwrap();
    Reply::tool_call("write_candidate", json!({ "source": source })).usage(800, 400)
}

/// The agent lists the directory, then writes a passing mod; the eval model
/// runs pip through Bash, then reports.
fn server() -> TestServer {
    let server = TestServer::start_blocking();
    server.session("gpt-4o-mini", vec![Reply::tool_call("list", json!({})).usage(500, 20), write_good()]);
    server.session(
        "gpt-4.1-mini",
        vec![
            Reply::tool_call("Bash", json!({ "command": "pip install requests" })).with_text("Installing.").usage(1000, 50),
            Reply::text("Installed requests.").usage(1200, 10),
        ],
    );
    server
}

/// `modlearn compare SPEC --model AGENT --repeat 2 ...` as shard `shard`.
fn compare(context: &TestContext, server: &TestServer, out: &Path, shard: &str, extra: &[&str]) -> Rendered {
    let base = server.base_url_openai();
    let cache = context.path("cache");
    let mut args = vec!["compare", SPEC, "--model", AGENT, "--candidates", "2", "--repeat", "2", "--shard", shard];
    args.extend_from_slice(&["--base-url", &base, "--out", out.to_str().unwrap(), "--cache-dir", cache.to_str().unwrap()]);
    args.extend_from_slice(extra);
    let mut command = context.command(&args);
    command.env("OPENAI_API_KEY", KEY).env_remove("OPENAI_BASE_URL");
    context.render(command)
}

const AGENT_AND_EVAL: &[&str] = &["--proposer", "agent", "--agent-steps", "3", "--eval-model", EVAL];

#[test]
fn agent_proposer_and_eval_model_reach_every_job_and_the_leaderboard() {
    let context = TestContext::new();
    let server = server();
    let shards: Vec<PathBuf> = ["a1", "a2"].iter().map(|name| context.path(name)).collect();
    for (i, out) in shards.iter().enumerate() {
        let rendered = compare(&context, &server, out, &format!("{}/2", i + 1), AGENT_AND_EVAL);
        assert_eq!(rendered.code, 0, "{}", rendered.text);
    }
    // Both shards' jobs were agent sessions: every request of the compared model offered the tools.
    let requests = server.requests();
    let proposals: Vec<_> = requests.iter().filter(|r| r.model() == Some("gpt-4o-mini")).collect();
    assert_eq!(proposals.len(), 2 * 2 * 2, "2 jobs x 2 candidates x 2 turns");
    assert!(proposals.iter().all(|r| r.tool_names().contains(&"write_candidate".to_owned())));
    assert!(requests.iter().any(|r| r.model() == Some("gpt-4.1-mini")), "the eval model ran the prompt scenarios");

    let job = shards[0].join("runs/openai-gpt-4o-mini/prompt-install/r1");
    let job_file = read_json(&job.join("job.json"));
    assert_eq!(
        (job_file["proposer"].as_str(), job_file["agentSteps"].as_u64(), job_file["evalModel"].as_str()),
        (Some("agent"), Some(3), Some(EVAL))
    );
    assert!(job.join("candidates/002/agent-transcript.jsonl").is_file(), "the agent's transcript is written per candidate");
    let report = read_json(&job.join("report.json"));
    assert_eq!(report["passed"], true, "{report}");
    assert_eq!(report["attempts"].as_array().unwrap().len(), 2, "both candidates are drawn although the first is perfect");
    let eval_cost: f64 = report["attempts"].as_array().unwrap().iter().map(|a| a["eval"]["costUsd"].as_f64().unwrap()).sum();
    assert!(eval_cost > 0.0, "{report}");

    let merged = context.path("merged");
    let rendered = context.run(&["merge", shards[0].to_str().unwrap(), shards[1].to_str().unwrap(), "--out", merged.to_str().unwrap()]);
    assert_eq!(rendered.code, 0, "{}", rendered.text);
    let leaderboard = read_json(&merged.join("leaderboard.json"));
    let settings = &leaderboard["comparison"];
    assert_eq!(
        (settings["proposer"].as_str(), settings["agentSteps"].as_u64(), settings["evalModel"].as_str()),
        (Some("agent"), Some(3), Some(EVAL))
    );
    let markdown = std::fs::read_to_string(merged.join("leaderboard.md")).unwrap();
    assert!(
        markdown.contains("Candidates are agent sessions of 3 step(s) at most. Prompt scenarios are run by `openai:gpt-4.1-mini`"),
        "{markdown}"
    );
    // The model's cost: its proposals and the eval model's turns judging its mods, over both jobs.
    let job_cost = |dir: &Path| {
        let report = read_json(
            &dir.join("runs/openai-gpt-4o-mini/prompt-install").join(if dir == shards[0] { "r1" } else { "r2" }).join("report.json"),
        );
        let eval: f64 = report["attempts"].as_array().unwrap().iter().map(|a| a["eval"]["costUsd"].as_f64().unwrap()).sum();
        report["learning"]["usage"]["costUsd"].as_f64().unwrap() + eval
    };
    let expected = job_cost(&shards[0]) + job_cost(&shards[1]);
    let cost = leaderboard["models"][0]["costUsd"].as_f64().unwrap();
    assert!((cost - expected).abs() < 1e-5 && cost > 2.0 * eval_cost - 1e-9, "{cost} vs {expected}");

    // A shard run with other settings is another comparison: merge refuses it.
    let other = context.path("c2");
    // Its completion requests get the agent's tool calls, no text: the job's proposals could not
    // be obtained, so it fails (exit 3); its shard.json is written all the same.
    let rendered = compare(&context, &server, &other, "2/2", &["--eval-model", EVAL]);
    assert_eq!(rendered.code, 3, "{}", rendered.text);
    let refused = context.path("refused");
    let rendered = context.run(&["merge", shards[0].to_str().unwrap(), other.to_str().unwrap(), "--out", refused.to_str().unwrap()]);
    assert_eq!(rendered.code, 2, "{}", rendered.text);
    assert!(!refused.exists(), "nothing is written");
    insta::assert_snapshot!("merge-error-different-proposer", rendered.text);
}

#[test]
fn bad_proposer_and_eval_model_flags_are_refused_before_anything_runs() {
    let context = TestContext::new();
    let server = server();
    let out = context.path("out");
    for (name, extra) in [
        ("agent-steps-without-agent", &["--agent-steps", "3"][..]),
        ("local-eval-model", &["--eval-model", "local:smollm2-135m"][..]),
        ("bad-eval-base-url", &["--eval-model", EVAL, "--eval-base-url", "ftp://nowhere"][..]),
    ] {
        let rendered = compare(&context, &server, &out, "1/1", extra);
        assert_eq!(rendered.code, 2, "{name}: {}", rendered.text);
        assert!(!out.exists(), "{name}: nothing is written");
        insta::assert_snapshot!(format!("compare-error-{name}"), rendered.text);
    }
    assert_eq!(server.request_count(), 0);
}

/// No leaderboard, manifest or job report after a refused key: only the
/// unfinished job directories a rerun starts afresh.
fn assert_nothing_counted(out: &Path) {
    assert!(!out.join("leaderboard.json").exists() && !out.join("shard.json").exists());
    let jobs: Vec<PathBuf> = walk(&out.join("runs")).into_iter().filter(|path| path.ends_with("job.json")).collect();
    assert!(!jobs.is_empty(), "the job was started");
    for job in jobs {
        assert!(!job.with_file_name("report.json").exists(), "{}: no job report", job.display());
    }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    entries.flatten().flat_map(|entry| if entry.path().is_dir() { walk(&entry.path()) } else { vec![entry.path()] }).collect()
}

#[test]
fn a_refused_key_stops_the_comparison_with_exit_2() {
    let context = TestContext::new();
    let refused = Reply::status(401).body(r#"{"error": {"message": "Incorrect API key provided", "type": "invalid_request_error"}}"#);
    let server = server();
    server.respond_with("gpt-4o-mini", move |_| refused.clone());
    let out = context.path("refused-model");
    let rendered = compare(&context, &server, &out, "1/1", &[]);
    assert_eq!(rendered.code, 2, "{}", rendered.text);
    assert_nothing_counted(&out);
    assert!(!rendered.text.contains(KEY), "the key never reaches the output");
    insta::assert_snapshot!("compare-refused-key", rendered.text);

    // The eval model's key refused: the flag named is --eval-model.
    let server = server_with_refused_eval();
    let out = context.path("refused-eval");
    let rendered = compare(&context, &server, &out, "1/1", &["--eval-model", EVAL, "--eval-base-url", &server.base_url_openai()]);
    assert_eq!(rendered.code, 2, "{}", rendered.text);
    assert_nothing_counted(&out);
    insta::assert_snapshot!("compare-refused-eval-key", rendered.text);
}

fn server_with_refused_eval() -> TestServer {
    let server = TestServer::start_blocking();
    let source = std::fs::read_to_string(repo_root().join("candidates/uv-pip/good-return-args.ts")).unwrap();
    server.respond_with("gpt-4o-mini", move |_| Reply::text(format!("```ts\n{source}```\n")));
    server.respond_with("gpt-4.1-mini", |_| Reply::status(401).body(r#"{"error": {"message": "invalid api key"}}"#));
    server
}
