//! What a new user runs into first: colour and table width, default run
//! directories, file permissions, directories of candidates, the cache
//! replay note and fresh samples, `--base-url` without a model, `init`,
//! `completions` and `--json`.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use modlearn_testserver::{Reply, TestServer};

use crate::common::{TestContext, read_json, repo_root};

const KEY: &str = "sk-test-usability-77a1";

fn fenced(file: &str) -> String {
    let source = std::fs::read_to_string(repo_root().join(file)).unwrap();
    format!("Here is the mod.\n\n```ts\n{source}```\n")
}

const WIDE: &[&str] = &[
    "eval",
    "specs/uv-pip.json",
    "candidates/uv-pip/partial-no-python-m.ts",
    "candidates/uv-pip/good-return-args.ts",
    "candidates/hostile/throws-in-handler.js",
    "candidates/uv-pip/partial-deprecated-status.js",
];

fn eval_into(context: &TestContext, dir: &str, extra: &[&str]) -> crate::common::Rendered {
    let run_dir = context.path(dir);
    let mut args = WIDE.to_vec();
    args.extend_from_slice(&["--run-dir", run_dir.to_str().unwrap(), "--handler-timeout", "300ms"]);
    args.extend_from_slice(extra);
    context.run(&args)
}

#[test]
fn tables_fit_80_columns_by_wrapping_paths_and_diagnostics() {
    let context = TestContext::new();
    let rendered = eval_into(&context, "run", &[]);
    assert_eq!(rendered.code, 0, "{}", rendered.text);
    for line in rendered.stdout.lines().filter(|line| line.starts_with(['┌', '│', '├', '└'])) {
        assert!(line.chars().count() <= 80, "{} columns: {line}", line.chars().count());
    }
    insta::assert_snapshot!("eval-table-80-columns", rendered.text);

    // A wider terminal (COLUMNS) gets the table on one line per candidate.
    let mut wide = context.command(&[WIDE, &["--run-dir", context.path("wide").to_str().unwrap(), "--handler-timeout", "300ms"]].concat());
    wide.env("COLUMNS", "160");
    let wide = context.render(wide);
    assert!(wide.stdout.contains("│ candidates/uv-pip/partial-deprecated-status.js │"), "{}", wide.text);
}

#[test]
fn colour_follows_the_flag_and_no_color() {
    let context = TestContext::new();
    let always = eval_into(&context, "always", &["--color", "always"]);
    assert!(always.stdout.contains("\x1b[32mPASS\x1b[0m"), "{}", always.stdout);
    assert!(always.stdout.contains("\x1b[31mFAIL\x1b[0m"), "{}", always.stdout);
    // Colour does not move the columns.
    let plain = eval_into(&context, "plain", &["--color", "never"]);
    let strip = regex::Regex::new("\x1b\\[[0-9;]*m").unwrap();
    let same = |text: &str| {
        strip
            .replace_all(text, "")
            .replace(context.path("always").to_str().unwrap(), "DIR")
            .replace(context.path("plain").to_str().unwrap(), "DIR")
    };
    assert_eq!(same(&always.stdout), same(&plain.stdout));
    assert!(!plain.stdout.contains('\x1b'));
    // Not a terminal: no colour by default, NO_COLOR or not.
    let auto = eval_into(&context, "auto", &[]);
    assert!(!auto.stdout.contains('\x1b'));
    let bad = context.run(&["eval", "--color", "sometimes", "specs/uv-pip.json", "candidates/uv-pip/good-return-args.ts"]);
    assert_eq!(bad.code, 2);
    insta::assert_snapshot!("usage-bad-color", bad.text);
}

#[test]
fn colour_in_a_terminal_is_off_with_no_color() {
    // A pty through `script`, so stdout is a terminal.
    let context = TestContext::new();
    let run = |dir: &str, no_color: bool| {
        let command = format!(
            "{} eval specs/uv-pip.json candidates/uv-pip/good-return-args.ts --run-dir {} --handler-timeout 300ms",
            env!("CARGO_BIN_EXE_modlearn"),
            context.path(dir).display()
        );
        let mut script = std::process::Command::new("script");
        script.args(["-qec", &command, "/dev/null"]).current_dir(repo_root()).env_remove("NO_COLOR");
        if no_color {
            script.env("NO_COLOR", "1");
        }
        String::from_utf8_lossy(&script.output().expect("script (util-linux) runs").stdout).into_owned()
    };
    assert!(run("tty", false).contains("\x1b[32mPASS\x1b[0m"));
    let quiet = run("tty-no-color", true);
    assert!(quiet.contains("PASS") && !quiet.contains("\x1b[32m"), "{quiet:?}");
}

#[test]
fn default_run_directories_never_collide() {
    let context = TestContext::new();
    let spec = repo_root().join("specs/uv-pip.json");
    let candidate = repo_root().join("candidates/uv-pip/good-return-args.ts");
    let mut children = Vec::new();
    for _ in 0..3 {
        let mut command = context.command(&["eval", spec.to_str().unwrap(), candidate.to_str().unwrap(), "--json"]);
        command.current_dir(context.temp.path()).stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped());
        children.push(command.spawn().unwrap());
    }
    for child in children {
        let output = child.wait_with_output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    }
    let mut dirs: Vec<String> = std::fs::read_dir(context.path("reports"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    dirs.sort();
    assert_eq!(dirs.len(), 3, "{dirs:?}");
    let stamp = regex::Regex::new(r"^uv-pip-\d{8}T\d{6}Z(-\d+)?$").unwrap();
    assert!(dirs.iter().all(|dir| stamp.is_match(dir)), "{dirs:?}");
    for dir in &dirs {
        assert!(context.path("reports").join(dir).join("report.json").is_file(), "{dir}");
    }
    // A failing command leaves no empty directory behind.
    let mut failing = context.command(&["eval", spec.to_str().unwrap(), candidate.to_str().unwrap(), "--eval-model", "local:x"]);
    failing.current_dir(context.temp.path());
    assert_eq!(failing.output().unwrap().status.code(), Some(2));
    assert_eq!(std::fs::read_dir(context.path("reports")).unwrap().count(), 3);
}

#[test]
fn reports_are_readable_by_others() {
    let context = TestContext::new();
    let rendered = eval_into(&context, "run", &[]);
    assert_eq!(rendered.code, 0, "{}", rendered.text);
    for file in ["report.md", "report.json", "report.html", "history.json", "candidates/001/report.md"] {
        let mode = std::fs::metadata(context.path("run").join(file)).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode & 0o044, 0o044, "{file}: mode {mode:o}");
    }
}

#[test]
fn eval_takes_a_directory_as_check_does() {
    let context = TestContext::new();
    let dir = context.path("mods");
    std::fs::create_dir_all(dir.join("nested")).unwrap();
    std::fs::copy(repo_root().join("candidates/uv-pip/good-return-args.ts"), dir.join("b-good.ts")).unwrap();
    std::fs::copy(repo_root().join("candidates/uv-pip/partial-no-python-m.ts"), dir.join("nested/a-partial.ts")).unwrap();
    std::fs::write(dir.join("notes.md"), "not a mod").unwrap();
    std::fs::write(dir.join("types.d.ts"), "export {};").unwrap();
    let run_dir = context.path("run");
    let (spec, dir, run) = ("specs/uv-pip.json", dir.to_str().unwrap(), run_dir.to_str().unwrap());
    let rendered = context.run(&["eval", spec, dir, "candidates/hostile/throws-in-handler.js", "--run-dir", run, "--json"]);
    assert_eq!(rendered.code, 0, "{}", rendered.text);
    let report: serde_json::Value = serde_json::from_str(&rendered.stdout).unwrap();
    let paths: Vec<String> =
        report["attempts"].as_array().unwrap().iter().map(|a| context.filter(a["candidatePath"].as_str().unwrap())).collect();
    assert_eq!(paths, ["[TEMP_DIR]/mods/b-good.ts", "[TEMP_DIR]/mods/nested/a-partial.ts", "candidates/hostile/throws-in-handler.js"]);
    let empty = context.path("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let rendered = context.run(&["eval", spec, empty.to_str().unwrap(), "--run-dir", context.path("never").to_str().unwrap()]);
    assert_eq!(rendered.code, 2);
    insta::assert_snapshot!("eval-error-empty-dir", rendered.text);
}

struct Served {
    context: TestContext,
    server: TestServer,
}

impl Served {
    fn new() -> Served {
        let served = Served { context: TestContext::new(), server: TestServer::start_blocking() };
        served.server.respond_with("*", |_| Reply::text(fenced("candidates/uv-pip/partial-no-python-m.ts")).usage(100, 20));
        served
    }

    fn run(&self, dir: &str, extra: &[&str]) -> (i32, String) {
        let base = self.server.base_url_openai();
        let run_dir = self.context.path(dir);
        let cache = self.context.path("cache");
        let mut args = vec!["run", "specs/uv-pip.json", "--model", "openai:test-model", "--base-url", &base, "--candidates", "2"];
        args.extend_from_slice(&["--run-dir", run_dir.to_str().unwrap(), "--handler-timeout", "300ms"]);
        if !extra.contains(&"--no-cache") {
            args.extend_from_slice(&["--cache-dir", cache.to_str().unwrap()]);
        }
        args.extend_from_slice(extra);
        let mut command = self.context.command(&args);
        command.env("OPENAI_API_KEY", KEY);
        let output = command.output().unwrap();
        (output.status.code().unwrap_or(-1), self.context.filter(&String::from_utf8_lossy(&output.stderr)))
    }
}

#[test]
fn a_rerun_says_it_replays_the_cache_and_seed_or_no_cache_ask_again() {
    let served = Served::new();
    let (code, first) = served.run("first", &[]);
    assert_eq!(code, 1, "{first}");
    assert!(!first.contains("replayed"), "{first}");
    assert_eq!(served.server.request_count(), 2);

    let (code, again) = served.run("again", &[]);
    assert_eq!(code, 1, "{again}");
    assert_eq!(served.server.request_count(), 2, "the rerun asks nothing");
    assert!(again.contains("#1 9/11 candidates/001/mods/uv-pip.ts (from cache)"), "{again}");
    let note = again.lines().find(|line| line.starts_with("note:")).unwrap_or_else(|| panic!("{again}"));
    insta::assert_snapshot!("run-replay-note", note);

    let (code, seeded) = served.run("seeded", &["--seed", "1"]);
    assert_eq!(code, 1, "{seeded}");
    assert_eq!(served.server.request_count(), 4, "--seed 1 asks for new samples");
    let seeds: Vec<u64> = served.server.requests()[2..].iter().map(|r| r.body["seed"].as_u64().unwrap()).collect();
    assert_eq!(seeds.iter().min(), Some(&1_000_001), "{seeds:?}");
    assert!(!seeded.contains("replayed"), "{seeded}");
    assert_eq!(read_json(&served.context.path("seeded/run.json"))["seed"], 1);

    let (code, fresh) = served.run("fresh", &["--no-cache"]);
    assert_eq!(code, 1, "{fresh}");
    assert_eq!(served.server.request_count(), 6, "--no-cache asks again");
    assert!(!fresh.contains("replayed"), "{fresh}");
    assert!(served.context.path("fresh/responses").is_dir(), "the run caches its own answers, for --resume");
}

#[test]
fn base_url_without_a_model_is_refused() {
    let context = TestContext::new();
    let server = TestServer::start_blocking();
    let run_dir = context.path("run");
    // No --model and no MODLEARN_MODEL: the embedded model would run, so the URL would go
    // unused; the run is refused before any model is loaded.
    let base = server.base_url_openai();
    let mut command =
        context.command(&["run", "specs/uv-pip.json", "--candidates", "1", "--base-url", &base, "--run-dir", run_dir.to_str().unwrap()]);
    command.env_remove("MODLEARN_MODEL");
    let rendered = context.render(command);
    assert_eq!(rendered.code, 2);
    let warning = rendered.text.replace(&base, "[BASE_URL]");
    insta::assert_snapshot!("run-base-url-without-model", warning);
    assert_eq!(server.request_count(), 0);
}

#[test]
fn init_writes_a_spec_that_validates_with_negative_controls() {
    let context = TestContext::new();
    let out = context.path("specs/reminder.json");
    let rendered = context.run(&["init", "Remind the agent to run the tests before editing files.", "--out", out.to_str().unwrap()]);
    assert_eq!(rendered.code, 0, "{}", rendered.text);
    insta::assert_snapshot!("init-output", rendered.text);
    insta::assert_snapshot!("init-spec", std::fs::read_to_string(&out).unwrap());
    // Placeholders left are refused, each named by its JSON path, and no mutant run calls the
    // spec strong while they are there.
    let validated = context.run(&["validate", out.to_str().unwrap()]);
    assert_eq!(validated.code, 2, "{}", validated.text);
    insta::assert_snapshot!("init-placeholders-left", context.filter(&validated.text));
    assert_eq!(context.run(&["validate", "--mutants", out.to_str().unwrap()]).code, 2);
    // Written, the spec validates, and its negative controls kill every built-in mutant
    // (only-reminder by the preserved tool calls, never-disposes by the dispose check).
    let written = std::fs::read_to_string(&out)
        .unwrap()
        .replace("TODO(modlearn init): the behaviour", "The mod injects the reminder; the behaviour")
        .replace("TODO(modlearn init): text the mod must inject, or replace this assertion (see `modlearn schema`)", "run the tests");
    std::fs::write(&out, written).unwrap();
    let validated = context.run(&["validate", out.to_str().unwrap()]);
    assert_eq!(validated.code, 0, "{}", validated.text);
    assert!(!validated.text.contains("warning"), "{}", validated.text);
    let mutants = context.run(&["validate", "--mutants", "--json", out.to_str().unwrap()]);
    assert_eq!(mutants.code, 0, "{}", mutants.text);
    let report: serde_json::Value = serde_json::from_str(&mutants.stdout).unwrap_or_else(|e| panic!("{e}: {}", mutants.text));
    let mutants = report["mutants"].as_array().unwrap();
    assert_eq!(mutants.len(), 6);
    for mutant in mutants {
        assert_eq!(mutant["survived"], false, "{mutant}");
    }
    assert_eq!(report["uncovered"], serde_json::json!([]));
    let again = context.run(&["init", "Something else", "--out", out.to_str().unwrap()]);
    assert_eq!(again.code, 2);
    insta::assert_snapshot!("init-error-exists", again.text);
    let json = context.run(&["init", "Something else", "--out", out.to_str().unwrap(), "--force", "--json"]);
    assert_eq!(json.code, 0, "{}", json.text);
    let written: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(written["spec"]["objective"], "Something else");
    assert_eq!(written["spec"], read_json(&out));
}

#[test]
fn completions_are_generated_for_each_shell() {
    let context = TestContext::new();
    for (shell, marker) in [
        ("bash", "complete -F _modlearn"),
        ("zsh", "#compdef modlearn"),
        ("fish", "complete -c modlearn"),
        ("powershell", "Register-ArgumentCompleter"),
        ("elvish", "edit:completion:arg-completer[modlearn]"),
    ] {
        let rendered = context.run(&["completions", shell]);
        assert_eq!(rendered.code, 0, "{shell}: {}", rendered.text);
        assert!(rendered.stdout.contains(marker), "{shell}: {}", rendered.stdout);
        for command in ["eval", "run", "compare", "init", "completions"] {
            assert!(rendered.stdout.contains(command), "{shell} completes `{command}`");
        }
    }
    // bash loads it and completes a subcommand.
    let script = context.path("modlearn.bash");
    std::fs::write(&script, context.run(&["completions", "bash"]).stdout).unwrap();
    let probe = format!(
        "source {}; COMP_WORDS=(modlearn compl); COMP_CWORD=1; _modlearn modlearn compl modlearn; echo \"${{COMPREPLY[@]}}\"",
        script.display()
    );
    let output = std::process::Command::new("bash").args(["-c", &probe]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), "completions", "{}", String::from_utf8_lossy(&output.stderr));
}

#[test]
fn report_guide_and_bench_print_json_on_request() {
    let context = TestContext::new();
    let rendered = eval_into(&context, "run", &[]);
    assert_eq!(rendered.code, 0);
    let run_dir = context.path("run");
    for command in ["report", "guide"] {
        let rendered = context.run(&[command, run_dir.to_str().unwrap(), "--json"]);
        assert_eq!(rendered.code, 0, "{}", rendered.text);
        let written: Vec<String> = serde_json::from_str(&rendered.stdout).unwrap_or_else(|e| panic!("{e}: {}", rendered.text));
        assert!(!written.is_empty());
        assert!(written.iter().all(|path| Path::new(path).is_file()), "{written:?}");
    }
    let bench = context.run(&["bench", "specs/uv-pip.json", "candidates/uv-pip/good-return-args.ts", "--copies", "2", "--json"]);
    assert_eq!(bench.code, 0, "{}", bench.text);
    let report: serde_json::Value = serde_json::from_str(&bench.stdout).unwrap_or_else(|e| panic!("{e}: {}", bench.text));
    assert_eq!(report["evaluations"], 2);
    assert!(report["msPerCandidate"].as_f64().unwrap() > 0.0);
    assert!(report["latencyMs"]["p95"].as_f64().is_some());
}

#[test]
fn each_request_has_a_time_limit_and_a_slow_server_is_named() {
    let context = TestContext::new();
    let server = TestServer::start_blocking();
    server.respond_with("*", |_| Reply::no_code().after(std::time::Duration::from_secs(30)));
    let run_dir = context.path("run");
    let base = server.base_url_openai();
    let mut command = context.command(&[
        "run",
        "specs/uv-pip.json",
        "--candidates",
        "1",
        "--model",
        "openai:slow",
        "--base-url",
        &base,
        "--request-timeout",
        "300ms",
        "--no-cache",
        "--run-dir",
        run_dir.to_str().unwrap(),
    ]);
    command.env("OPENAI_API_KEY", KEY);
    let rendered = context.render(command);
    let origin = base.trim_end_matches("/v1");
    assert!(rendered.text.contains(&format!("{origin} did not answer within 0.3 s")), "{}", rendered.text);
    assert!(server.request_count() >= 1);
    // Kept for --resume: the limit is the run's, not this invocation's.
    let state = std::fs::read_to_string(run_dir.join("run.json")).unwrap_or_default();
    assert!(state.contains("\"requestTimeoutMs\": 300"), "{state}");
}

#[test]
fn a_server_that_refuses_connections_is_named() {
    let context = TestContext::new();
    // Port 9 (discard) has nothing listening on loopback.
    let run_dir = context.path("run");
    let mut command = context.command(&[
        "run",
        "specs/uv-pip.json",
        "--candidates",
        "1",
        "--model",
        "openai:m",
        "--base-url",
        "http://127.0.0.1:9/v1",
        "--no-cache",
        "--run-dir",
        run_dir.to_str().unwrap(),
    ]);
    command.env("OPENAI_API_KEY", KEY);
    let rendered = context.render(command);
    assert!(rendered.text.contains("cannot connect to http://127.0.0.1:9"), "{}", rendered.text);
    assert!(rendered.text.contains("0 judged, 1 not judged"), "{}", rendered.text);
}
