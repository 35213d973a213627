//! `modlearn compare` and `modlearn merge` against a real model server on
//! 127.0.0.1: a strong model answering with passing mods and a weak one
//! answering with partly wrong ones, ranked and tested; shards merged into
//! the unsharded leaderboard; merges that must be refused; the budget and
//! resuming; and the HTML page rendered by headless Chromium.

use std::path::{Path, PathBuf};
use std::process::Command;

use modlearn_testserver::{RecordedRequest, Reply, TestServer};
use serde_json::Value;

use crate::common::{TestContext, repo_root};

const KEY: &str = "sk-test-compare-4b1d3c";
const STRONG: &str = "openai:gpt-4.1-mini";
const WEAK: &str = "openai:gpt-4o-mini";

fn fenced(file: &str) -> String {
    let source = std::fs::read_to_string(repo_root().join(file)).unwrap();
    format!("Here is the mod.\n\n```ts\n{source}```\n")
}

fn seed(request: &RecordedRequest) -> u64 {
    request.body["seed"].as_u64().unwrap_or(0)
}

/// The spec a prompt is about, from its objective.
fn is_uv_pip(request: &RecordedRequest) -> bool {
    request.prompt_text().contains("Route pip installs through uv")
}

/// A server where `gpt-4.1-mini` writes passing mods and `gpt-4o-mini`
/// partly wrong ones (its second candidate of the first repeat passes, so
/// pass@2 differs from pass@1). Answers come at once, in any order: compare
/// draws every candidate of a round and counts candidate 001 as the first,
/// whichever is judged first.
fn server() -> TestServer {
    let server = TestServer::start_blocking();
    server.respond_with("gpt-4.1-mini", |request| {
        let file =
            if is_uv_pip(request) { "candidates/uv-pip/good-return-args.ts" } else { "candidates/turn-reminder/good-return-input.ts" };
        Reply::text(fenced(file)).usage(1200, 300)
    });
    server.respond_with("gpt-4o-mini", |request| {
        let good = seed(request) == 2;
        let file = match (is_uv_pip(request), good) {
            (true, true) => "candidates/uv-pip/good-return-args.ts",
            (true, false) => "candidates/uv-pip/partial-no-python-m.ts",
            (false, true) => "candidates/turn-reminder/good-return-input.ts",
            (false, false) => "candidates/turn-reminder/partial-no-observer.js",
        };
        Reply::text(fenced(file)).usage(1000, 250)
    });
    server
}

struct Compare<'a> {
    context: &'a TestContext,
    server: &'a TestServer,
}

impl Compare<'_> {
    fn command(&self, out: &Path, cache: &str, extra: &[&str]) -> Command {
        let base = self.server.base_url_openai();
        let cache = self.context.path(cache);
        let mut args = vec!["compare", "specs/uv-pip.json", "specs/turn-reminder.json", "--model", STRONG, "--model", WEAK];
        let (out, cache) = (out.to_str().unwrap().to_owned(), cache.to_str().unwrap().to_owned());
        args.extend_from_slice(&["--candidates", "2", "--repeat", "3", "--base-url", &base, "--out", &out, "--cache-dir", &cache]);
        args.extend_from_slice(&["--handler-timeout", "500ms"]);
        args.extend_from_slice(extra);
        let mut command = self.context.command(&args);
        command.env("OPENAI_API_KEY", KEY);
        command
    }

    fn run(&self, out: &Path, cache: &str, extra: &[&str]) -> (i32, String, String) {
        let output = self.command(out, cache, extra).output().unwrap();
        (
            output.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&output.stdout).into_owned(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    }
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))).unwrap()
}

/// The leaderboard without its timings (the only part allowed to differ).
fn without_timings(mut leaderboard: Value) -> Value {
    leaderboard.as_object_mut().unwrap().remove("timings").expect("leaderboard.json has timings");
    leaderboard
}

/// leaderboard.md with the timing numbers replaced.
fn stable_markdown(text: &str) -> String {
    let timings = regex::Regex::new(r"\| \d+ ms \| [\d.]+ ms \|").unwrap();
    timings.replace_all(text, "| [LATENCY] | [EVALUATION] |").into_owned()
}

#[test]
fn two_models_are_ranked_and_the_paired_test_calls_the_difference() {
    let context = TestContext::new();
    let server = server();
    let compare = Compare { context: &context, server: &server };
    let out = context.path("compare");
    let (code, stdout, stderr) = compare.run(&out, "cache", &[]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");

    let leaderboard = read_json(&out.join("leaderboard.json"));
    let models = leaderboard["models"].as_array().unwrap();
    assert_eq!(models[0]["model"], STRONG, "the strong model ranks first");
    assert_eq!(models[1]["model"], WEAK);
    assert_eq!(models[0]["firstPassRate"], 1.0);
    assert_eq!(models[1]["firstPassRate"], 0.0);
    // pass@2 of the weak model: 2 of its 6 runs drew a passing second candidate, each 1 - C(1,2)/C(2,2) = 1.
    assert_eq!(leaderboard["k"], serde_json::json!([1, 2]));
    let weak_pass_at_2 = models[1]["passAtK"][1].as_f64().unwrap();
    assert!((weak_pass_at_2 - 2.0 / 6.0).abs() < 1e-6, "{weak_pass_at_2}");
    assert_eq!(leaderboard["jobs"]["finished"], 12);

    let pair = &leaderboard["pairs"][0];
    assert_eq!(pair["first"], STRONG);
    // uv-pip: 2 checks the partial mod fails, turn-reminder: 2; three repeats each.
    assert_eq!(pair["firstOnly"], 12);
    assert_eq!(pair["secondOnly"], 0);
    assert_eq!(pair["significant"], true);
    assert!(pair["mcnemarP"].as_f64().unwrap() < 0.001);
    assert!(pair["difference"]["low"].as_f64().unwrap() > 0.0, "the interval excludes zero: {pair}");
    assert!(pair["verdict"].as_str().unwrap().starts_with("openai:gpt-4.1-mini better than openai:gpt-4o-mini, p="));

    // Every job is a run directory like `modlearn run` writes.
    for dir in ["runs/openai-gpt-4-1-mini/uv-pip/r1", "runs/openai-gpt-4o-mini/turn-reminder/r3"] {
        let report = read_json(&out.join(dir).join("report.json"));
        assert_eq!(report["kind"], "modlearn_run_report", "{dir}");
        assert!(out.join(dir).join("proposer-guide.md").is_file(), "{dir}");
    }
    // Repeats ask with fresh seeds, so the cache does not answer them all alike.
    let mut seeds: Vec<u64> = server.requests().iter().filter(|r| r.model() == Some("gpt-4o-mini")).map(seed).collect();
    seeds.sort();
    seeds.dedup();
    assert_eq!(seeds, vec![1, 2, 1_000_001, 1_000_002, 2_000_001, 2_000_002]);

    let junit = std::fs::read_to_string(out.join("leaderboard.junit.xml")).unwrap();
    assert!(junit.contains(r#"<testsuites name="modlearn compare" tests="4" failures="2""#), "{junit}");
    assert!(junit.contains(r#"<testcase name="uv-pip" classname="openai:gpt-4.1-mini"/>"#), "{junit}");
    assert!(junit.contains(r#"<failure message="1/3 run(s) pass">"#), "{junit}");

    insta::assert_snapshot!("compare-leaderboard.junit.xml", junit);
    let markdown = std::fs::read_to_string(out.join("leaderboard.md")).unwrap();
    insta::assert_snapshot!("compare-leaderboard.md", stable_markdown(&markdown));
    insta::assert_snapshot!("compare-stdout", context.filter(&stdout));

    // A rerun with the same --out asks nothing and gives the same leaderboard.
    let asked = server.request_count();
    let (code, _, stderr) = compare.run(&out, "cache", &[]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(server.request_count(), asked, "finished jobs are not run again");
    assert_eq!(without_timings(read_json(&out.join("leaderboard.json"))), without_timings(leaderboard));
}

#[test]
fn sharded_compare_and_merge_equal_the_unsharded_leaderboard() {
    let context = TestContext::new();
    let server = server();
    let compare = Compare { context: &context, server: &server };
    let whole = context.path("whole");
    let (code, _, stderr) = compare.run(&whole, "cache-whole", &[]);
    assert_eq!(code, 0, "{stderr}");
    let shards: Vec<PathBuf> = (1..=2).map(|i| context.path(&format!("shard-{i}"))).collect();
    for (i, shard) in shards.iter().enumerate() {
        let (code, stdout, stderr) = compare.run(shard, &format!("cache-shard-{i}"), &["--shard", &format!("{}/2", i + 1)]);
        assert_eq!(code, 0, "{stderr}");
        assert!(stdout.starts_with(&format!("shard {}/2: 6/6 job(s) finished", i + 1)), "{stdout}");
        // Rerun as --json: nothing is asked again, and stdout is the manifest.
        let (code, stdout, _) = compare.run(shard, &format!("cache-shard-{i}"), &["--shard", &format!("{}/2", i + 1), "--json"]);
        assert_eq!(code, 0);
        assert_eq!(serde_json::from_str::<Value>(&stdout).unwrap(), read_json(&shard.join("shard.json")));
        assert!(!shard.join("leaderboard.json").exists(), "a shard alone writes no leaderboard");
        let manifest = read_json(&shard.join("shard.json"));
        assert_eq!(manifest["jobs"].as_array().unwrap().len(), 6);
    }
    let merged = context.path("merged");
    let output = context
        .command(&["merge", shards[1].to_str().unwrap(), shards[0].to_str().unwrap(), "--out", merged.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let text = |dir: &Path| {
        let mut json = without_timings(read_json(&dir.join("leaderboard.json")));
        json.as_object_mut().unwrap().insert("timings".to_owned(), Value::Null);
        serde_json::to_string_pretty(&json).unwrap()
    };
    assert_eq!(text(&merged), text(&whole), "merged shards give the unsharded leaderboard, byte for byte");
    let markdown = |dir: &Path| stable_markdown(&std::fs::read_to_string(dir.join("leaderboard.md")).unwrap());
    assert_eq!(markdown(&merged), markdown(&whole));
    assert_eq!(
        std::fs::read_to_string(merged.join("leaderboard.junit.xml")).unwrap(),
        std::fs::read_to_string(whole.join("leaderboard.junit.xml")).unwrap()
    );
}

/// Runs `compare` of both models on uv-pip once, as shard `shard` (or whole).
fn small_shard(context: &TestContext, server: &TestServer, name: &str, shard: &str, candidates: &str) -> PathBuf {
    let out = context.path(name);
    let cache = context.path("cache");
    let base = server.base_url_openai();
    let mut args = vec!["compare", "specs/uv-pip.json", "--model", STRONG, "--model", WEAK, "--candidates", candidates];
    let (out_text, cache_text) = (out.to_str().unwrap().to_owned(), cache.to_str().unwrap().to_owned());
    args.extend_from_slice(&["--base-url", &base, "--out", &out_text, "--cache-dir", &cache_text, "--shard", shard]);
    let output = context.command(&args).env("OPENAI_API_KEY", KEY).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    out
}

#[test]
fn merge_refuses_shards_that_do_not_belong_together() {
    let context = TestContext::new();
    let server = server();
    let first = small_shard(&context, &server, "first", "1/2", "1");
    let second = small_shard(&context, &server, "second", "2/2", "1");
    let other = small_shard(&context, &server, "other", "2/2", "2");
    let three = small_shard(&context, &server, "three", "1/3", "1");
    let path = |dir: &PathBuf| dir.to_str().unwrap().to_owned();
    let merged = context.path("merged");
    for (name, dirs) in [
        ("different-comparisons", vec![path(&first), path(&other)]),
        ("overlapping", vec![path(&first), path(&first)]),
        ("missing", vec![path(&second)]),
        ("different-counts", vec![path(&first), path(&three)]),
        ("not-a-compare-dir", vec![path(&first), context.path("nowhere").to_str().unwrap().to_owned()]),
    ] {
        let mut args = vec!["merge".to_owned()];
        args.extend(dirs);
        args.extend(["--out".to_owned(), path(&merged)]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let rendered = context.run(&args);
        assert_eq!(rendered.code, 2, "{name}: {}", rendered.text);
        assert!(!merged.exists(), "{name}: nothing is written");
        insta::assert_snapshot!(format!("merge-error-{name}"), rendered.text);
    }
    let rendered = context.run(&["merge", &path(&second), &path(&first), "--out", &path(&merged)]);
    assert_eq!(rendered.code, 0, "{}", rendered.text);
    assert!(merged.join("leaderboard.html").is_file());
}

#[test]
fn compare_refuses_bad_input() {
    let context = TestContext::new();
    let out = context.path("out");
    let out_text = out.to_str().unwrap();
    for (name, args) in [
        ("bad-shard", vec!["compare", "specs/uv-pip.json", "--model", STRONG, "--shard", "3/2", "--out", out_text]),
        ("same-model-twice", vec!["compare", "specs/uv-pip.json", "--model", STRONG, "--model", STRONG, "--out", out_text]),
        ("missing-spec", vec!["compare", "specs/nope.json", "--model", STRONG, "--out", out_text]),
        ("no-model", vec!["compare", "specs/uv-pip.json"]),
    ] {
        let mut command = context.command(&args);
        command.env("OPENAI_API_KEY", KEY);
        let rendered = context.render(command);
        assert_eq!(rendered.code, 2, "{name}: {}", rendered.text);
        assert!(!out.exists(), "{name}: nothing is written");
        insta::assert_snapshot!(format!("compare-error-{name}"), rendered.text);
    }
}

#[test]
fn the_budget_stops_jobs_and_a_rerun_resumes_them() {
    let context = TestContext::new();
    let server = server();
    let compare = Compare { context: &context, server: &server };
    let out = context.path("compare");
    let (code, stdout, _) = compare.run(&out, "cache", &["--max-usd", "0"]);
    assert_eq!(code, 1, "{stdout}");
    assert_eq!(server.request_count(), 0, "a spent budget asks nothing");
    let leaderboard = read_json(&out.join("leaderboard.json"));
    assert_eq!(leaderboard["jobs"]["finished"], 0);
    assert_eq!(leaderboard["jobs"]["notRun"].as_array().unwrap().len(), 12);
    assert!(stdout.contains("not run (budget spent): runs/openai-gpt-4-1-mini/uv-pip/r1,"), "{stdout}");
    let junit = std::fs::read_to_string(out.join("leaderboard.junit.xml")).unwrap();
    assert!(junit.contains(r#"skipped="4""#), "{junit}");

    let (code, stdout, stderr) = compare.run(&out, "cache", &["--json"]);
    assert_eq!(code, 0, "{stderr}");
    let written = read_json(&out.join("leaderboard.json"));
    assert_eq!(written["jobs"]["finished"], 12);
    assert_eq!(serde_json::from_str::<Value>(&stdout).unwrap(), written, "--json prints leaderboard.json");
    // Another comparison cannot reuse the directory.
    let rendered = context.render(compare.command(&out, "cache", &["--rounds", "2"]));
    assert_eq!(rendered.code, 2);
    insta::assert_snapshot!("compare-error-other-comparison-in-out", rendered.text);
}

#[test]
fn help_of_compare_and_merge() {
    let context = TestContext::new();
    for command in ["compare", "merge"] {
        let rendered = context.run(&[command, "--help"]);
        assert_eq!(rendered.code, 0);
        insta::assert_snapshot!(format!("help-{command}"), rendered.text);
    }
}

/// `#rrggbb` as bytes.
fn rgb(hex: &str) -> [u8; 3] {
    let value = u32::from_str_radix(hex.trim_start_matches('#'), 16).unwrap();
    [(value >> 16) as u8, (value >> 8) as u8, value as u8]
}

/// The fill of the first bar of the page's first chart (the best model's pass-rate bar).
fn first_bar_colour(html: &str) -> [u8; 3] {
    let fill = regex::Regex::new(r#"<rect [^>]*fill="(#[0-9a-f]{6})""#).unwrap();
    rgb(&fill.captures(html).expect("a bar")[1])
}

#[test]
fn leaderboard_html_renders_its_charts_in_headless_chromium() {
    let chromium = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|name| Command::new(name).arg("--version").output().is_ok_and(|o| o.status.success()))
        .unwrap_or_else(|| panic!("Chromium is not installed: run scripts/bootstrap (it installs the Debian package `chromium`)"));
    let context = TestContext::new();
    let server = server();
    let out = small_shard(&context, &server, "compare", "1/1", "2");
    let page = out.join("leaderboard.html");
    let html = std::fs::read_to_string(&page).unwrap();
    for forbidden in ["<script", "http://", "https://", "<link", "@import", "url("] {
        let outside_svg_namespace = html.replace("http://www.w3.org/2000/svg", "");
        assert!(!outside_svg_namespace.contains(forbidden), "the page must not fetch anything: found `{forbidden}`");
    }
    let url = format!("file://{}", page.canonicalize().unwrap().display());
    let profile = context.path("chromium-profile");
    let base_args = |extra: &[&str]| {
        let mut command = Command::new(chromium);
        command.args(["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run"]);
        command.arg(format!("--user-data-dir={}", profile.display()));
        command.args(extra).arg(&url);
        command
    };
    // The DOM after Chromium parsed it: the charts are real SVG elements.
    let dom = base_args(&["--dump-dom"]).output().unwrap();
    let dom = String::from_utf8_lossy(&dom.stdout);
    let verdict = dom.find("<h2>Verdict</h2>").expect("a verdict section");
    assert!(verdict < dom.find("<svg").unwrap(), "the verdict comes before the charts");
    assert!(dom[verdict..].find("Ranked first: ").is_some_and(|at| verdict + at < dom.find("<svg").unwrap()), "{dom}");
    assert!(dom.matches("<svg").count() >= 4, "bar charts and the heat map are SVG: {dom}");
    assert!(dom.contains("<rect"), "{dom}");
    assert!(dom.contains(STRONG) && dom.contains(WEAK));

    let png = context.path("leaderboard.png");
    let shot = base_args(&[&format!("--screenshot={}", png.display()), "--window-size=1200,1800"]).output().unwrap();
    assert!(png.is_file(), "no screenshot: {}", String::from_utf8_lossy(&shot.stderr));
    if let Some(keep) = std::env::var_os("MODLEARN_KEEP_SCREENSHOT") {
        // For looking at the page by eye.
        std::fs::copy(&png, keep).unwrap();
    }
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut pixels).unwrap();
    assert_eq!((info.width, info.height), (1200, 1800));
    let channels = info.color_type.samples();
    let count = |colour: [u8; 3]| {
        pixels[..info.buffer_size()]
            .chunks(channels)
            .filter(|pixel| pixel[..3].iter().zip(colour).all(|(&got, want)| got.abs_diff(want) <= 3))
            .count()
    };
    // The best model's 100% bar: a full-width bar of its series colour.
    let bar = first_bar_colour(&html);
    assert!(count(bar) > 3000, "pass-rate bar colour {bar:?}: {} pixels", count(bar));
    // The charts use the page's width (1052 px of content), not a fixed 640.
    let longest = (0..info.height as usize)
        .map(|y| {
            let row = &pixels[y * info.width as usize * channels..(y + 1) * info.width as usize * channels];
            row.chunks(channels)
                .fold((0usize, 0usize), |(run, best), pixel| {
                    let run = if pixel[..3].iter().zip(bar).all(|(&got, want)| got.abs_diff(want) <= 3) { run + 1 } else { 0 };
                    (run, best.max(run))
                })
                .1
        })
        .max()
        .unwrap_or(0);
    assert!(longest > 700, "the 100% bar is {longest} px wide");
    // The heat map: the strong model's 100% cell in the pass colour, the weak model's 0% cell in the fail colour.
    for (what, colour) in [("pass", rgb("#1b9e77")), ("fail", rgb("#d55e00"))] {
        assert!(html.contains(&format!("fill=\"#{:02x}{:02x}{:02x}\"", colour[0], colour[1], colour[2])), "{what} colour in the page");
        assert!(count(colour) > 500, "heat-map {what} cells on screen: {} pixels", count(colour));
    }
}

/// Issue 11: against an unreachable `--base-url` no job is finished. Each is
/// failed with the reason and left out of every number, the command exits 3,
/// and a rerun with the right URL and the same `--out` runs them.
#[test]
fn an_unreachable_endpoint_fails_jobs_and_a_rerun_runs_them() {
    let context = TestContext::new();
    let out = context.path("compare");
    let cache = context.path("cache");
    let (out_arg, cache_arg) = (out.to_str().unwrap(), cache.to_str().unwrap());
    let run = |base: &str| {
        let args = [
            "compare",
            "specs/uv-pip.json",
            "--model",
            STRONG,
            "--model",
            WEAK,
            "--candidates",
            "1",
            "--base-url",
            base,
            "--out",
            out_arg,
            "--cache-dir",
            cache_arg,
            "--handler-timeout",
            "500ms",
        ];
        let mut command = context.command(&args);
        command.env("OPENAI_API_KEY", KEY);
        context.render(command)
    };
    let dead = crate::common::unreachable_base_url();
    let rendered = run(&dead.url);
    assert_eq!(rendered.code, 3, "{}", rendered.text);
    let leaderboard = read_json(&out.join("leaderboard.json"));
    assert_eq!(leaderboard["jobs"]["finished"], 0);
    let failed = leaderboard["jobs"]["failed"].as_array().unwrap();
    assert_eq!(failed.len(), 2);
    assert!(failed[0]["reason"].as_str().unwrap().starts_with("candidate 001: no answer from the model: "), "{}", failed[0]);
    assert!(leaderboard["pairs"][0]["items"] == 0, "nothing of a failed job is paired");
    let port = regex::Regex::new(r"127\.0\.0\.1:\d+").unwrap();
    insta::assert_snapshot!("compare-unreachable", port.replace_all(&rendered.text, "[LOCALHOST]"));

    let server = server();
    let rendered = run(&server.base_url_openai());
    assert_eq!(rendered.code, 0, "{}", rendered.text);
    let leaderboard = read_json(&out.join("leaderboard.json"));
    assert_eq!(leaderboard["jobs"]["finished"], 2);
    assert!(leaderboard["jobs"].get("failed").is_none());
    assert_eq!(server.request_count(), 2, "both failed jobs ran again");
}
