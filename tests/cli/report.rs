//! `modlearn report` and `modlearn guide`: a stored run's reports and guide
//! rendered again from its artifacts, byte for byte what the run wrote;
//! `report.html` as a picture of the run; errors naming the file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use modlearn_testserver::{Reply, TestServer};

use crate::common::{Chromium, TestContext, repo_root, rgb};

const CANDIDATES: &[&str] = &[
    "candidates/uv-pip/partial-no-python-m.ts",
    "candidates/uv-pip/good-return-args.ts",
    "candidates/hostile/throws-in-activate.js",
    "candidates/uv-pip/broken-registers-nothing.js",
];

fn eval_run(context: &TestContext, candidates: &[&str]) -> PathBuf {
    let run_dir = context.path("run");
    let mut args = vec!["eval", "specs/uv-pip.json"];
    args.extend_from_slice(candidates);
    args.extend_from_slice(&["--run-dir", run_dir.to_str().unwrap(), "--handler-timeout", "300ms"]);
    let output = context.run(&args);
    assert!(output.code == 0 || output.code == 1, "{}", output.text);
    run_dir
}

/// Every file under `dir` whose name is in `names`, relative path → bytes.
fn files(dir: &Path, names: &[&str]) -> BTreeMap<String, Vec<u8>> {
    let mut found = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(current) = stack.pop() {
        for entry in std::fs::read_dir(&current).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if names.iter().any(|n| path.file_name().unwrap() == *n) {
                let relative = path.strip_prefix(dir).unwrap().display().to_string();
                found.insert(relative, std::fs::read(&path).unwrap());
            }
        }
    }
    found
}

const REPORTS: &[&str] = &["report.md", "report.json", "report.html"];

/// Deletes (or garbles) the reports, re-renders them, and requires the
/// exact bytes the run wrote.
fn assert_rerender_is_identical(context: &TestContext, run_dir: &Path) -> String {
    let written = files(run_dir, REPORTS);
    assert!(written.contains_key("report.html"), "the run writes report.html: {:?}", written.keys());
    for relative in written.keys() {
        if relative.ends_with(".md") || relative.ends_with(".html") {
            std::fs::remove_file(run_dir.join(relative)).unwrap();
        }
    }
    let output = context.run(&["report", run_dir.to_str().unwrap()]);
    assert_eq!(output.code, 0, "{}", output.text);
    let rendered = files(run_dir, REPORTS);
    assert_eq!(rendered.keys().collect::<Vec<_>>(), written.keys().collect::<Vec<_>>());
    for (relative, bytes) in &written {
        assert!(rendered[relative] == *bytes, "{relative} differs after `modlearn report`");
    }
    output.text
}

#[test]
fn report_rerenders_a_nested_eval_run_byte_for_byte() {
    let context = TestContext::new();
    let run_dir = eval_run(&context, CANDIDATES);
    let text = assert_rerender_is_identical(&context, &run_dir);
    insta::assert_snapshot!("report_rerender_output", text);
}

#[test]
fn report_rerenders_a_flat_eval_run_byte_for_byte() {
    let context = TestContext::new();
    let run_dir = eval_run(&context, &["candidates/uv-pip/good-return-args.ts"]);
    assert_rerender_is_identical(&context, &run_dir);
}

#[test]
fn report_html_shows_round_scores_the_check_grid_and_usage_without_scripts() {
    let context = TestContext::new();
    let server = TestServer::start_blocking();
    let partial = std::fs::read_to_string(repo_root().join("candidates/uv-pip/partial-no-python-m.ts")).unwrap();
    let good = std::fs::read_to_string(repo_root().join("candidates/uv-pip/good-return-args.ts")).unwrap();
    // One proposal per round: a second one in the stopping round may or may not be asked for.
    server.respond_with("*", move |request| {
        let source = if request.prompt_text().contains("Round 1 of 3") { &partial } else { &good };
        Reply::text(format!("```ts\n{source}```\n")).usage(1200, 300)
    });
    let run_dir = context.path("run");
    let base = server.base_url_openai();
    let cache = context.path("cache");
    let prices = context.path("prices.json");
    std::fs::write(&prices, r#"{"test-model": {"input": 1.0, "output": 2.0}}"#).unwrap();
    let output = context
        .command(&[
            "run",
            "specs/uv-pip.json",
            "--model",
            "openai:test-model",
            "--base-url",
            &base,
            "--candidates",
            "1",
            "--rounds",
            "3",
            "--run-dir",
            run_dir.to_str().unwrap(),
            "--cache-dir",
            cache.to_str().unwrap(),
            "--prices",
            prices.to_str().unwrap(),
        ])
        .env("OPENAI_API_KEY", "sk-test")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    assert_rerender_is_identical(&context, &run_dir);

    let html = std::fs::read_to_string(run_dir.join("report.html")).unwrap();
    for forbidden in ["<script", "src=\"http", "href=\"http", "<link", "@import"] {
        assert!(!html.contains(forbidden), "report.html must stand alone: found {forbidden}");
    }
    for part in [
        "Score per round",
        "round 1</text>",
        "round 2</text>",
        "Candidates against checks",
        "Tokens per round",
        "Cost per round",
        "$0.0036",
    ] {
        assert!(html.contains(part), "report.html lacks {part}:\n{html}");
    }
    // Model latency is measured, so it is the one number that changes between runs.
    let html = regex::Regex::new(r"\d+ ms").unwrap().replace_all(&html, "[N] ms");
    insta::assert_snapshot!("report_html", context.filter(&html));
}

/// report.html as a browser draws it: the reasons of failed checks as text on
/// the page (not only in tooltips), links to each candidate's report, the
/// maximum score on the axes, labels that tell the candidates apart, and
/// charts as wide as the page.
#[test]
fn report_html_in_headless_chromium_shows_reasons_links_and_the_full_scale() {
    let context = TestContext::new();
    let run_dir = eval_run(&context, CANDIDATES);
    let page = run_dir.join("report.html");
    let chromium = Chromium::new(&context);
    let dom = chromium.dom(&page);
    // Tooltips are <title> elements; the reasons must also be in table cells.
    let cells = regex::Regex::new(r"(?s)<title>.*?</title>").unwrap().replace_all(&dom, "");
    assert!(cells.contains("Why checks failed"), "{dom}");
    assert!(cells.contains("<td>`command` is \"python -m pip install flask\", expected \"uv pip install flask\"</td>"), "{cells}");
    for number in 1..=CANDIDATES.len() {
        let href = format!("candidates/{number:03}/report.md");
        assert!(cells.contains(&format!("<a href=\"{href}\">{href}</a>")), "link to {href}");
        assert!(run_dir.join(&href).is_file(), "{href} exists");
    }
    assert!(cells.contains(">max 11</text>"), "the bar chart marks the maximum");
    assert!(cells.contains(">11</text>"), "the score axis goes up to 11");
    let labels: Vec<String> =
        regex::Regex::new(r#"text-anchor="end">(#\d+[^<]*)</text>"#).unwrap().captures_iter(&cells).map(|c| c[1].to_owned()).collect();
    let mut distinct = labels.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), CANDIDATES.len(), "one label per candidate: {labels:?}");

    let shot = chromium.screenshot(&page, 1200, 2400);
    // The passing candidate's full bar: as wide as the page allows (1052 px of content less the labels).
    let pass = shot.longest_run(rgb("#1b9e77"));
    assert!(pass > 700, "the score bar of the passing candidate is {pass} px wide");
}

/// A run whose prompt scenario is driven by an eval model: report.html shows the eval model's
/// spending apart from the proposals' (summary row, per-round columns, its own cost bars), and
/// `modlearn report` renders it again byte for byte.
#[test]
fn report_html_shows_the_eval_models_cost_apart_from_proposals() {
    let context = TestContext::new();
    let server = TestServer::start_blocking();
    let good = std::fs::read_to_string(repo_root().join("candidates/uv-pip/good-return-args.ts")).unwrap();
    server.script("test-model", vec![Reply::text(format!("```ts\n{good}```\n")).usage(1200, 300)]);
    server.session(
        "agent-model",
        vec![
            Reply::tool_call("Bash", serde_json::json!({ "command": "pip install requests" })).with_text("Installing.").usage(1000, 50),
            Reply::text("Installed requests.").usage(1200, 10),
        ],
    );
    let (run_dir, cache, prices) = (context.path("run"), context.path("cache"), context.path("prices.json"));
    std::fs::write(&prices, r#"{"test-model": {"input": 1.0, "output": 2.0}, "agent-model": {"input": 0.5, "output": 1.0}}"#).unwrap();
    let base = server.base_url_openai();
    let output = context
        .command(&[
            "run",
            "specs/prompt-install.json",
            "--model",
            "openai:test-model",
            "--base-url",
            &base,
            "--candidates",
            "1",
            "--eval-model",
            "openai:agent-model",
            "--run-dir",
            run_dir.to_str().unwrap(),
            "--cache-dir",
            cache.to_str().unwrap(),
            "--prices",
            prices.to_str().unwrap(),
        ])
        .env("OPENAI_API_KEY", "sk-test")
        .env_remove("OPENAI_BASE_URL")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    assert_rerender_is_identical(&context, &run_dir);

    let html = std::fs::read_to_string(run_dir.join("report.html")).unwrap();
    let eval_row = "openai:agent-model (the agent of prompt scenarios): 1 session(s), 2 turn(s) (0 cached), 2200 tokens in, 60 out, $0.0012 (eval cost, apart from proposals)";
    for part in [
        eval_row,
        "Eval cost",
        "Cost per round (USD): proposals and eval model",
        "round 1 eval</text>",
        "round 1 proposals</text>",
        "$0.0018",
    ] {
        assert!(html.contains(part), "report.html lacks {part}:\n{html}");
    }
    let html = regex::Regex::new(r"\d+ ms").unwrap().replace_all(&html, "[N] ms");
    insta::assert_snapshot!("report_html_eval_model", context.filter(&html));
}

#[test]
fn guide_rewrites_the_proposer_guide_and_history_from_history_json() {
    let context = TestContext::new();
    let run_dir = eval_run(&context, CANDIDATES);
    let guide_files = ["proposer-guide.md", "history.md"];
    let written = files(&run_dir, &guide_files);
    assert_eq!(written.len(), 2);
    std::fs::write(run_dir.join("proposer-guide.md"), "stale").unwrap();
    std::fs::remove_file(run_dir.join("history.md")).unwrap();
    // The guide comes from history.json and the scenario results, not from report.json.
    std::fs::remove_file(run_dir.join("report.json")).unwrap();
    let output = context.run(&["guide", run_dir.to_str().unwrap()]);
    assert_eq!(output.code, 0, "{}", output.text);
    insta::assert_snapshot!("guide_rewrite_output", output.text);
    let rewritten = files(&run_dir, &guide_files);
    for (name, bytes) in &written {
        assert!(rewritten[name] == *bytes, "{name} differs after `modlearn guide`:\n{}", String::from_utf8_lossy(&rewritten[name]));
    }
}

#[test]
fn stored_run_errors_name_the_file_and_exit_2() {
    let context = TestContext::new();
    let not_there = context.path("nope");
    let missing = context.run(&["report", not_there.to_str().unwrap()]);
    assert_eq!(missing.code, 2);
    insta::assert_snapshot!("report_error_missing_dir", missing.text);

    let empty = context.path("empty");
    std::fs::create_dir(&empty).unwrap();
    let no_report = context.run(&["report", empty.to_str().unwrap()]);
    assert_eq!(no_report.code, 2);
    insta::assert_snapshot!("report_error_not_a_run", no_report.text);
    let no_history = context.run(&["guide", empty.to_str().unwrap()]);
    assert_eq!(no_history.code, 2);
    insta::assert_snapshot!("guide_error_not_a_run", no_history.text);

    let stopped = context.path("stopped");
    std::fs::create_dir(&stopped).unwrap();
    std::fs::write(stopped.join("history.json"), "{}").unwrap();
    let unfinished = context.run(&["report", stopped.to_str().unwrap()]);
    assert_eq!(unfinished.code, 2);
    insta::assert_snapshot!("report_error_unfinished_run", unfinished.text);

    let run_dir = eval_run(&context, CANDIDATES);
    let report_md = std::fs::read(run_dir.join("report.md")).unwrap();
    let report_json = run_dir.join("report.json");
    let text = std::fs::read_to_string(&report_json).unwrap();
    std::fs::write(&report_json, text.replacen("\"score\": ", "\"score\": \"many\", \"was\": ", 1)).unwrap();
    let corrupt = context.run(&["report", run_dir.to_str().unwrap()]);
    assert_eq!(corrupt.code, 2);
    assert_eq!(std::fs::read(run_dir.join("report.md")).unwrap(), report_md, "nothing rewritten");
    insta::assert_snapshot!("report_error_corrupt_json", corrupt.text);

    let scenario = run_dir.join("candidates/002/eval/001-mod-loads/assertions.result.json");
    std::fs::write(&scenario, "{\"scenario\": 3}").unwrap();
    let corrupt_scenario = context.run(&["guide", run_dir.to_str().unwrap()]);
    assert_eq!(corrupt_scenario.code, 2);
    insta::assert_snapshot!("guide_error_corrupt_scenario", corrupt_scenario.text);
}
