//! Bun's platform inside the engine: the probes print what Bun prints
//! (`js/tests/platform-probes/expected.json` is Bun's output), and whatever
//! a mod does through `node:fs`, `child_process` or `process.env` happens on
//! its machine, never on the host. This binary serves as the machine's helper
//! (`harness = false`), as the `modlearn` binary does.
#![allow(clippy::print_stderr, reason = "the Bun side reports a skip on stderr")]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use std::sync::Arc;

use modlearn_engine::{CandidateFile, Engine, EngineOptions, VIRTUAL_EPOCH_MS, WorldSeed};
use modlearn_machine::{Machine, MachinePlan};
use modlearn_types::Effect;
use serde_json::Value;

/// An engine on a fresh machine of its own.
fn engine(options: EngineOptions) -> Engine {
    Engine::with_machine(options, Arc::new(Machine::new(MachinePlan::default(), VIRTUAL_EPOCH_MS))).unwrap()
}

fn probes_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("js/tests/platform-probes")
}

fn expected() -> BTreeMap<String, Value> {
    let text = std::fs::read_to_string(probes_dir().join("expected.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The keys whose values differ, each with both values.
fn differences(actual: &BTreeMap<String, Value>, expected: &BTreeMap<String, Value>) -> Vec<String> {
    let mut out = Vec::new();
    for (key, want) in expected {
        match actual.get(key) {
            Some(got) if got == want => {}
            got => out.push(format!("{key}:\n  Bun:      {want}\n  modlearn: {}", got.map_or("(missing)".to_owned(), Value::to_string))),
        }
    }
    out.extend(actual.keys().filter(|key| !expected.contains_key(*key)).map(|key| format!("{key}: not in expected.json")));
    out
}

fn load(engine: &mut Engine, path: &Path, source: &str) -> bool {
    engine.load(&CandidateFile { path, source }).unwrap().loaded
}

fn probes_print_what_bun_prints() {
    let path = probes_dir().join("probes.mjs");
    let source = std::fs::read_to_string(&path).unwrap();
    let mut engine = engine(EngineOptions::default());
    assert!(load(&mut engine, &path, &source), "{:#?}", engine.snapshot().unwrap().diagnostics);
    let lines = engine.take_console().unwrap();
    let actual: BTreeMap<String, Value> = serde_json::from_str(&lines[0].text).unwrap();
    let diff = differences(&actual, &expected());
    assert!(diff.is_empty(), "{} probes differ from Bun:\n{}", diff.len(), diff.join("\n"));
}

/// The other half of the differential: Bun itself prints expected.json. Runs only where
/// `bun` is installed (`npm i -g bun`); CI does not need it.
fn bun_prints_the_expected_probes() {
    let output = match Command::new("bun").arg("run-bun.mjs").current_dir(probes_dir()).env("TZ", "UTC").output() {
        Ok(output) => output,
        Err(error) => {
            eprintln!("skipped: bun is not installed ({error}); `npm i -g bun` to run the Bun side of the probes");
            return;
        }
    };
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let actual: BTreeMap<String, Value> = serde_json::from_slice(&output.stdout).unwrap();
    let diff = differences(&actual, &expected());
    assert!(
        diff.is_empty(),
        "Bun's output moved from expected.json (regenerate with `TZ=UTC bun run-bun.mjs > expected.json` and review):\n{}",
        diff.join("\n")
    );
}

fn files_and_commands_happen_on_the_machine_and_nowhere_else() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.mjs");
    // A home of its own, so `~/.ssh/x` on this host can be checked.
    let host_home = dir.path().join("home");
    std::fs::create_dir_all(&host_home).unwrap();
    let source = r#"
import fs from "node:fs";
import os from "node:os";
import { execSync } from "node:child_process";
export function activate() {
  const results = [];
  const attempt = (label, fn) => { try { results.push(`${label}: ${fn() ?? "ok"}`); } catch (e) { results.push(`${label}: ${e.code ?? e.status}`); } };
  attempt("/etc/x", () => fs.writeFileSync("/etc/x", "pwned"));
  attempt("~/.ssh/x", () => { fs.mkdirSync(`${os.homedir()}/.ssh`, { recursive: true }); fs.writeFileSync(`${os.homedir()}/.ssh/x`, "key"); });
  attempt("../../x", () => fs.writeFileSync("../../x", "up"));
  attempt("relative", () => fs.writeFileSync("x", "here"));
  attempt("git", () => execSync("git rev-parse --abbrev-ref HEAD && cat x", { encoding: "utf8" }).trim().replace("\n", " "));
  attempt("link", () => { fs.symlinkSync("/workspace", "/tmp/w"); return fs.readFileSync("/tmp/w/x", "utf8"); });
  attempt("rm -rf ~", () => execSync("rm -rf ~ 2>/dev/null; ls -A ~ | wc -l", { encoding: "utf8" }).trim());
  console.log(results.join("\n"));
}
"#;
    std::fs::write(&path, source).unwrap();
    let mut engine = engine(EngineOptions::default());
    assert!(load(&mut engine, &path, source), "{:#?}", engine.snapshot().unwrap().diagnostics);
    let printed = engine.take_console().unwrap()[0].text.clone();
    assert_eq!(printed, "/etc/x: EROFS\n~/.ssh/x: ok\n../../x: EROFS\nrelative: ok\ngit: main here\nlink: here\nrm -rf ~: 0");
    // Nothing on the host: not beside the mod, not above it, not in /etc.
    assert!(!Path::new("/etc/x").exists());
    assert!(!dir.path().join("x").exists() && !dir.path().parent().unwrap().join("x").exists());
    assert!(!host_home.join(".ssh").exists());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2, "only m.mjs and home/ in the mod's directory");
}

fn a_mod_without_a_machine_is_told_so() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.mjs");
    let source = "import fs from 'node:fs';\nexport function activate() { try { fs.readFileSync('/workspace/x'); } catch (e) { console.log(e.code); } }";
    std::fs::write(&path, source).unwrap();
    let mut engine = Engine::new(EngineOptions::default()).unwrap();
    assert!(load(&mut engine, &path, source));
    assert_eq!(engine.take_console().unwrap()[0].text, "ERR_MODLEARN_NO_MACHINE");
}

fn the_hosts_environment_never_reaches_a_mod() {
    // SAFETY: this test binary sets the variable before any engine thread reads the environment.
    unsafe { std::env::set_var("MODLEARN_TEST_SECRET", "hunter2-secret") };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.mjs");
    let source = r#"
import { execSync } from "node:child_process";
export function activate() {
  console.log(JSON.stringify({ secret: process.env.MODLEARN_TEST_SECRET ?? null, all: JSON.stringify(process.env), mode: process.env.MODE, home: process.env.HOME, command: execSync("env").toString() }));
}
"#;
    std::fs::write(&path, source).unwrap();
    let mut seed = WorldSeed::default();
    seed.env.insert("MODE".to_owned(), "review".to_owned());
    let mut engine = engine(EngineOptions { world: seed, ..Default::default() });
    assert!(load(&mut engine, &path, source));
    let printed: Value = serde_json::from_str(&engine.take_console().unwrap()[0].text).unwrap();
    assert_eq!(printed["secret"], Value::Null);
    assert!(!printed["all"].as_str().unwrap().contains("hunter2"));
    assert_eq!(printed["mode"], "review");
    assert_eq!(printed["home"], "/home/user");
    let command = printed["command"].as_str().unwrap();
    assert!(!command.contains("hunter2") && command.contains("MODE=review\n"), "{command}");
    let reads: Vec<String> = engine
        .snapshot()
        .unwrap()
        .world
        .effects
        .iter()
        .filter_map(|effect| match effect {
            Effect::EnvRead { name, found, .. } => Some(format!("{name}:{found}")),
            _ => None,
        })
        .collect();
    // The secret's read is recorded (and found nothing); JSON.stringify enumerates, then reads each variable.
    assert_eq!(reads[..2], ["MODLEARN_TEST_SECRET:false", "*:true"]);
    assert_eq!(reads[reads.len() - 2..], ["MODE:true", "HOME:true"]);
    assert!(reads.iter().all(|read| !read.contains("hunter2")));
}

/// In debug builds of deno_core 0.413 the third generation panicked ("no registered import
/// edge"); see the deno_core profile override in the workspace Cargo.toml.
fn a_builtin_stays_importable_across_load_generations() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.js");
    let source = "import fs from 'fs';\nimport { join } from 'node:path';\nexport function activate(l) { l.events.on('turn_start', () => {}); return fs.existsSync(join('/workspace', 'uv.lock')); }";
    std::fs::write(&path, source).unwrap();
    let options = EngineOptions { step_timeout: std::time::Duration::from_millis(300), ..Default::default() };
    let mut engine = engine(options);
    for _ in 0..3 {
        engine.new_generation().unwrap();
        assert!(load(&mut engine, &path, source), "{:#?}", engine.snapshot().unwrap().diagnostics);
    }
}

fn main() {
    modlearn_machine::testing::main(&[
        ("probes_print_what_bun_prints", probes_print_what_bun_prints),
        ("bun_prints_the_expected_probes", bun_prints_the_expected_probes),
        ("files_and_commands_happen_on_the_machine_and_nowhere_else", files_and_commands_happen_on_the_machine_and_nowhere_else),
        ("a_mod_without_a_machine_is_told_so", a_mod_without_a_machine_is_told_so),
        ("the_hosts_environment_never_reaches_a_mod", the_hosts_environment_never_reaches_a_mod),
        ("a_builtin_stays_importable_across_load_generations", a_builtin_stays_importable_across_load_generations),
    ]);
}
