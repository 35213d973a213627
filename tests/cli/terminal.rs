//! `modlearn run` as a user sees it: in a real terminal (tmux) the progress
//! moves while a slow model thinks, finished candidates get a line each, and
//! Ctrl-C stops the run and says how to resume it; without a terminal, one
//! line per candidate and round.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use modlearn_testserver::{RecordedRequest, Reply, TestServer};

use crate::common::{TestContext, repo_root};

const KEY: &str = "sk-test-terminal-0c1d";

fn partial() -> String {
    let source = std::fs::read_to_string(repo_root().join("candidates/uv-pip/partial-no-python-m.ts")).unwrap();
    format!("Here is the mod.\n\n```ts\n{source}```\n")
}

fn seed(request: &RecordedRequest) -> u64 {
    request.body["seed"].as_u64().unwrap_or(0)
}

/// A tmux server of its own (private socket) running one command in a pane
/// that stays after the command exits, so its exit status can be read.
struct Tmux {
    socket: PathBuf,
}

impl Tmux {
    fn start(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Tmux {
        let socket = dir.join("tmux.sock");
        let config = dir.join("tmux.conf");
        std::fs::write(&config, "set -g remain-on-exit on\nset -g history-limit 5000\n").unwrap();
        let mut command = Command::new("tmux");
        command.arg("-S").arg(&socket).arg("-f").arg(&config);
        command.args(["new-session", "-d", "-s", "t", "-x", "150", "-y", "50", "-c"]).arg(repo_root());
        command.arg(env!("CARGO_BIN_EXE_modlearn")).args(args);
        command.env_remove("MODLEARN_LOG").env_remove("NO_COLOR").env("TERM", "xterm-256color");
        for (name, value) in env {
            command.env(name, value);
        }
        let status = command.status().expect("tmux runs (scripts/bootstrap installs it)");
        assert!(status.success(), "tmux new-session failed");
        Tmux { socket }
    }

    fn tmux(&self, args: &[&str]) -> String {
        let output = Command::new("tmux").arg("-S").arg(&self.socket).args(args).output().unwrap();
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    /// The pane's text, scrollback included.
    fn screen(&self) -> String {
        self.tmux(&["capture-pane", "-p", "-J", "-S", "-", "-t", "t"])
    }

    /// The exit status, once the command has exited.
    fn exit_status(&self) -> Option<i32> {
        // A process killed by a signal has no status: -N for signal N.
        let state = self.tmux(&["display-message", "-p", "-t", "t", "#{pane_dead}:#{pane_dead_status}:#{pane_dead_signal}"]);
        let parts: Vec<&str> = state.trim().split(':').collect();
        if parts.first() != Some(&"1") {
            return None;
        }
        let number = |at: usize| parts.get(at).and_then(|s| s.parse::<i32>().ok());
        // tmux (3.3a) can mark the pane dead on the pty's end and then miss the
        // SIGCHLD, leaving the command an unreaped zombie with no status: read
        // the status the kernel keeps for the zombie instead.
        number(1).or_else(|| number(2).map(|signal| -signal)).or_else(|| self.zombie_status())
    }

    fn zombie_status(&self) -> Option<i32> {
        let pid = self.tmux(&["display-message", "-p", "-t", "t", "#{pane_pid}"]);
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", pid.trim())).ok()?;
        // Fields after the command name; field 3 (state) comes first, field 52 is exit_code.
        let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
        if fields.first() != Some(&"Z") {
            return None;
        }
        let status: i32 = fields.get(52 - 3)?.parse().ok()?;
        Some(if status & 0x7f == 0 { (status >> 8) & 0xff } else { -(status & 0x7f) })
    }

    fn wait_for_exit(&self, within: Duration) -> i32 {
        let deadline = Instant::now() + within;
        while Instant::now() < deadline {
            if let Some(status) = self.exit_status() {
                return status;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("still running after {within:?}:\n{}", self.screen());
    }

    fn wait_for_text(&self, text: &str, within: Duration) -> String {
        let deadline = Instant::now() + within;
        loop {
            let screen = self.screen();
            if screen.contains(text) {
                return screen;
            }
            assert!(Instant::now() < deadline, "no {text:?} after {within:?}:\n{screen}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn ctrl_c(&self) {
        self.tmux(&["send-keys", "-t", "t", "C-c"]);
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux").arg("-S").arg(&self.socket).arg("kill-server").status();
    }
}

/// The bar's clock (`... 0/2 3s`), if the bar is on screen.
fn clock(screen: &str) -> Option<u64> {
    let bar = regex::Regex::new(r"\] \d+/\d+ (\d+)s").unwrap();
    bar.captures_iter(screen).last().map(|c| c[1].parse().unwrap())
}

fn run_args(context: &TestContext, server: &TestServer, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = ["run", "specs/uv-pip.json", "--model", "openai:test-model", "--base-url"].map(str::to_owned).to_vec();
    args.push(server.base_url_openai());
    for (flag, value) in [("--run-dir", context.path("run")), ("--cache-dir", context.path("cache"))] {
        args.push(flag.to_owned());
        args.push(value.display().to_string());
    }
    args.extend(extra.iter().map(|s| (*s).to_owned()));
    args
}

#[test]
fn in_a_terminal_the_clock_ticks_while_the_model_is_slow_and_each_candidate_gets_a_line() {
    let context = TestContext::new();
    let server = TestServer::start_blocking();
    // Candidate 1 comes after a second, candidate 2 only after five.
    server.respond_with("*", |request| {
        let delay = if seed(request) == 1 { 1000 } else { 5000 };
        Reply::text(partial()).after(Duration::from_millis(delay))
    });
    let args = run_args(&context, &server, &["--candidates", "2", "--handler-timeout", "500ms"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let tmux = Tmux::start(context.temp.path(), &args, &[("OPENAI_API_KEY", KEY)]);

    let first = tmux.wait_for_text("#1 9/11 candidates/001/mods/uv-pip.ts", Duration::from_secs(20));
    assert!(first.contains("round 1/1: asking `openai:test-model` for 2 candidate(s)"), "{first}");
    assert!(regex::Regex::new(r"FAIL \[\s+\d+\.\ds\] #1 9/11").unwrap().is_match(&first), "{first}");
    let before = clock(&first).unwrap_or_else(|| panic!("a bar with a clock:\n{first}"));
    // Nothing happens for the next seconds but waiting for candidate 2: the clock still moves.
    std::thread::sleep(Duration::from_millis(2200));
    let later = tmux.screen();
    assert!(tmux.exit_status().is_none(), "candidate 2 is not in yet:\n{later}");
    let after = clock(&later).unwrap_or_else(|| panic!("the bar is still there:\n{later}"));
    assert!(after >= before + 2, "the clock went from {before}s to {after}s:\n{later}");

    assert_eq!(tmux.wait_for_exit(Duration::from_secs(30)), 1);
    let end = tmux.screen();
    assert!(end.contains("#2 9/11 candidates/002/mods/uv-pip.ts"), "{end}");
    assert!(end.contains("round 1/1 ["), "a line for the finished round:\n{end}");
    assert!(end.contains("report.html"), "{end}");
}

#[test]
fn without_a_terminal_each_candidate_and_round_gets_one_line() {
    let context = TestContext::new();
    let server = TestServer::start_blocking();
    server.respond_with("*", |request| if seed(request) == 2 { Reply::no_code() } else { Reply::text(partial()) });
    let args = run_args(&context, &server, &["--candidates", "2", "--rounds", "2", "--concurrency", "1", "--jobs", "1"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut command = context.command(&args);
    command.env("OPENAI_API_KEY", KEY);
    let output = command.output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    let timeless = regex::Regex::new(r"\[\s*\d+\.\ds\]").unwrap().replace_all(&stderr, "[TIME]").into_owned();
    insta::assert_snapshot!("run-progress-lines", context.filter(&timeless));
}

#[test]
fn ctrl_c_stops_the_run_and_prints_the_resume_command() {
    let context = TestContext::new();
    let server = TestServer::start_blocking();
    server.respond_with("*", |_| Reply::text(partial()).after(Duration::from_secs(30)));
    let args = run_args(&context, &server, &["--candidates", "2"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let tmux = Tmux::start(context.temp.path(), &args, &[("OPENAI_API_KEY", KEY)]);
    tmux.wait_for_text("round 1/1: asking", Duration::from_secs(20));
    while server.request_count() < 2 {
        std::thread::sleep(Duration::from_millis(20));
    }
    let pressed = Instant::now();
    tmux.ctrl_c();
    assert_eq!(tmux.wait_for_exit(Duration::from_secs(5)), 130);
    assert!(pressed.elapsed() < Duration::from_secs(3), "requests in flight are not waited for: {:?}", pressed.elapsed());
    let screen = tmux.screen();
    let run_dir = context.path("run");
    let resume = format!("modlearn run --resume {}", run_dir.display());
    assert!(screen.replace('\n', "").contains(&resume), "{screen}");
    assert!(!run_dir.join("report.json").exists(), "an interrupted run is not finished");

    // The printed command goes on from there.
    server.respond_with("*", |_| Reply::text(partial()));
    let mut again = context.command(&["run", "--resume", run_dir.to_str().unwrap()]);
    again.env("OPENAI_API_KEY", KEY);
    let output = again.output().unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(run_dir.join("report.json").is_file());
}

#[test]
fn a_second_ctrl_c_exits_without_waiting_for_candidates_being_judged() {
    let context = TestContext::new();
    let server = TestServer::start_blocking();
    // A mod whose activate never returns: with a 30 s budget per handler it is judged for minutes.
    server.respond_with("*", |_| Reply::text("```js\nexport function activate(letta) { while (true) {} }\n```\n"));
    let args = run_args(&context, &server, &["--candidates", "1", "--handler-timeout", "30s"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let tmux = Tmux::start(context.temp.path(), &args, &[("OPENAI_API_KEY", KEY)]);
    tmux.wait_for_text("round 1/1: asking", Duration::from_secs(20));
    while server.request_count() < 1 {
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(500));
    tmux.ctrl_c();
    tmux.wait_for_text("Ctrl-C again to exit at once", Duration::from_secs(5));
    std::thread::sleep(Duration::from_millis(1000));
    assert_eq!(tmux.exit_status(), None, "the first Ctrl-C waits for the candidate being judged:\n{}", tmux.screen());
    let pressed = Instant::now();
    tmux.ctrl_c();
    assert_eq!(tmux.wait_for_exit(Duration::from_secs(5)), 130);
    assert!(pressed.elapsed() < Duration::from_secs(2), "took {:?}", pressed.elapsed());
    assert!(tmux.screen().contains("interrupted again: exiting without waiting"), "{}", tmux.screen());
}
