//! The README's console examples are what the tool prints: each `$ modlearn
//! eval|validate|run` command in a ```console block of the tour is run and its
//! output compared with the block, times and run directories aside.

use std::time::Duration;

use modlearn_testserver::{Reply, TestServer};

use crate::common::{TestContext, repo_root};

/// The run directory the README shows.
const SHOWN_RUN_DIR: &str = "reports/uv-pip-20261130T120000Z";

/// `(command, output)` of every `$ modlearn ...` in the README's console blocks that has output.
fn examples() -> Vec<(String, String)> {
    let readme = std::fs::read_to_string(repo_root().join("README.md")).unwrap();
    let mut examples = Vec::new();
    for block in readme.split("```console\n").skip(1) {
        let block = &block[..block.find("```").unwrap()];
        let mut current: Option<(String, String)> = None;
        for line in block.lines() {
            if let Some(command) = line.strip_prefix("$ ") {
                examples.extend(current.take());
                current = Some((command.to_owned(), String::new()));
            } else if let Some((_, output)) = &mut current {
                output.push_str(line);
                output.push('\n');
            }
        }
        examples.extend(current);
    }
    examples.retain(|(_, output)| !output.trim().is_empty() && !output.contains("...\n"));
    examples
}

/// Times and trailing blank lines differ from run to run; nothing else may.
fn normal(text: &str) -> String {
    let times = regex::Regex::new(r"\[\s*\d+\.\ds\]").unwrap();
    format!("{}\n", times.replace_all(text, "[TIME]").trim_end())
}

#[test]
fn the_readme_console_examples_are_what_modlearn_prints() {
    let examples = examples();
    let commands: Vec<&str> = examples.iter().map(|(command, _)| command.as_str()).collect();
    assert!(commands.iter().any(|c| c.starts_with("modlearn eval")), "{commands:?}");
    assert!(commands.iter().any(|c| c.contains("modlearn run")), "{commands:?}");
    let context = TestContext::new();
    let server = TestServer::start_blocking();
    // The run example: a partial mod, an answer without code, then a passing mod.
    let answers = ["candidates/uv-pip/partial-no-python-m.ts", "", "candidates/uv-pip/good-return-args.ts"];
    server.respond_with("*", move |request| {
        let seed = request.body["seed"].as_u64().unwrap_or(1) as usize;
        match answers.get(seed - 1).copied().unwrap_or("") {
            "" => Reply::text("Sorry, I would rather explain the approach in words.").usage(900, 40),
            file => Reply::text(format!("```ts\n{}```\n", std::fs::read_to_string(repo_root().join(file)).unwrap())).usage(1200, 300),
        }
        .after(Duration::from_millis(100))
    });
    for (index, (command, shown)) in examples.iter().enumerate() {
        let words: Vec<&str> = command.split_whitespace().collect();
        let start = words.iter().position(|word| *word == "modlearn").expect("a modlearn command");
        let mut args: Vec<String> = words[start + 1..].iter().map(|w| (*w).to_owned()).collect();
        let run_dir = context.path(&format!("run-{index}"));
        if matches!(args[0].as_str(), "eval" | "run") {
            args.extend(["--run-dir".to_owned(), run_dir.display().to_string()]);
        }
        if args[0] == "run" {
            // One request at a time, judged in order, so the lines come in the order shown.
            for extra in [
                "--base-url",
                &server.base_url_openai(),
                "--cache-dir",
                &context.path("cache").display().to_string(),
                "--concurrency",
                "1",
                "--jobs",
                "1",
            ] {
                args.push(extra.to_owned());
            }
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let mut process = context.command(&args);
        process.env("OPENAI_API_KEY", "sk-test-readme").env_remove("MODLEARN_MODEL");
        let output = process.output().unwrap();
        let printed = format!("{}{}", String::from_utf8_lossy(&output.stderr), String::from_utf8_lossy(&output.stdout));
        let printed = printed.replace(&run_dir.display().to_string(), SHOWN_RUN_DIR);
        assert_eq!(normal(&printed), normal(shown), "README example `{command}` (exit {:?})", output.status.code());
    }
}
