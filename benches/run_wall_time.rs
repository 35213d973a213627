//! Wall time of one `modlearn run` round against a model that answers in
//! 2 s, with all 8 proposals in flight at once, against the same round
//! asked one proposal at a time (how Letta's learning loop runs), measured
//! in the same run. `cargo bench --bench run_wall_time`.
#![allow(clippy::print_stdout, reason = "benchmark output")]

use std::process::Command;
use std::time::{Duration, Instant};

use modlearn_testserver::{Reply, TestServer};

fn round(server: &TestServer, concurrency: &str) -> Duration {
    let dir = tempfile::tempdir().unwrap();
    let answer = format!(
        "```ts\n{}```",
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/candidates/uv-pip/partial-no-python-m.ts")).unwrap()
    );
    server.respond_with("*", move |_| Reply::text(answer.clone()).after(Duration::from_secs(2)));
    let started = Instant::now();
    let status = Command::new(env!("CARGO_BIN_EXE_modlearn"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", "specs/uv-pip.json", "--candidates", "8", "--model", "openai:bench-model"])
        .args(["--base-url", &server.base_url_openai(), "--concurrency", concurrency])
        .args(["--run-dir", dir.path().join("run").to_str().unwrap(), "--cache-dir", dir.path().join("cache").to_str().unwrap()])
        .env("OPENAI_API_KEY", "sk-bench")
        .output()
        .unwrap()
        .status;
    assert_eq!(status.code(), Some(1), "the partial candidates fail, as scripted");
    started.elapsed()
}

fn main() {
    let server = TestServer::start_blocking();
    let parallel = round(&server, "8");
    println!("modlearn run, 8 proposals at once, model answering in 2 s: {:.2} s wall (target < 2.6 s)", parallel.as_secs_f64());
    let sequential = round(&server, "1");
    println!("same round, one proposal at a time (Letta's loop): {:.2} s wall", sequential.as_secs_f64());
    println!("ratio: {:.3}", parallel.as_secs_f64() / sequential.as_secs_f64());
}
