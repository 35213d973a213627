//! The differential test against Letta Code's own learning harness: every (spec, candidate)
//! pair of `tests/letta-diff/cases.json` is judged by Letta's `runModLearning` (through
//! `tests/letta-diff/run-letta.ts`, importing Letta's code from the checkout in
//! `LETTA_CODE_DIR`) and by `modlearn eval --json`, and every check Letta judges must get the
//! same pass/fail from modlearn. Pairs marked `divergesUntil` must still diverge (so the mark
//! is dropped when the work it waits for lands). Skipped with a note when `LETTA_CODE_DIR` is
//! unset or `bun` is not on PATH; never run in CI. Set-up: README, "Checking against Letta".

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;

use crate::common::{TestContext, repo_root, run_bounded};

/// Letta has no time limit: a pair it has not judged by then is a failure, not a hang.
const LETTA_TIMEOUT: Duration = Duration::from_secs(120);

/// One candidate of a case, as `cases.json` lists it.
struct Pair {
    spec: String,
    candidate: String,
    /// Why it is expected to diverge, and until what lands.
    diverges_until: Option<String>,
    /// Compare the registrations of this many reloads with modlearn's `reload_idempotent`.
    reloads: Option<u64>,
}

fn pairs(manifest: &Value) -> Vec<Pair> {
    let mut pairs = Vec::new();
    for case in manifest["cases"].as_array().expect("cases.json: `cases` is an array") {
        let spec = case["spec"].as_str().expect("cases.json: every case has a `spec`").to_owned();
        for entry in case["candidates"].as_array().expect("cases.json: every case has `candidates`") {
            let (candidate, diverges_until) = match entry {
                Value::String(path) => (path.clone(), None),
                entry => (
                    entry["path"].as_str().expect("cases.json: a candidate object has a `path`").to_owned(),
                    entry["divergesUntil"].as_str().map(|until| format!("{until}: {}", entry["why"].as_str().unwrap_or("no reason given"))),
                ),
            };
            pairs.push(Pair { spec: spec.clone(), candidate, diverges_until, reloads: case["reloads"].as_u64() });
        }
    }
    pairs
}

/// `bun`, when it runs.
fn bun_available() -> bool {
    Command::new("bun").arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|s| s.success())
}

/// Runs `run-letta.ts` with `args`; its JSON, or why there is none. Letta runs mods
/// unsandboxed, so each run gets a fresh home directory: mods that keep state under `~` start
/// from a clean machine, as on modlearn's machine, and leave this one alone. Output goes
/// to files: a pipe nobody reads while the harness runs would fill and stall it.
fn run_letta(letta_dir: &Path, args: &[&str]) -> Result<Value, String> {
    let home = tempfile::tempdir().map_err(|error| error.to_string())?;
    let (stdout, stderr) = (home.path().join("stdout.json"), home.path().join("stderr.txt"));
    let mut command = Command::new("bun");
    command
        .arg(repo_root().join("tests/letta-diff/run-letta.ts"))
        .args(args)
        .env("LETTA_CODE_DIR", letta_dir)
        .env("HOME", home.path())
        .current_dir(repo_root());
    let status =
        run_bounded(&mut command, &stdout, &stderr, LETTA_TIMEOUT).map_err(|why| format!("Letta's harness (bun run-letta.ts): {why}"))?;
    if !status.success() {
        return Err(format!("run-letta.ts {args:?} failed: {}", std::fs::read_to_string(&stderr).unwrap_or_default()));
    }
    let output = std::fs::read(&stdout).map_err(|error| error.to_string())?;
    serde_json::from_slice(&output).map_err(|error| format!("run-letta.ts {args:?}: {error}"))
}

/// modlearn's checks of every candidate, by (spec, candidate path) and then by
/// `<scenario>: <label>` (Letta's labels), with the reload check's cycles when there is one.
type Judged = BTreeMap<(String, String), (BTreeMap<String, bool>, Option<Value>)>;

fn run_modlearn(context: &TestContext, run: &str, spec: &str, candidates: &[&str]) -> Judged {
    let run_dir = context.path(run);
    let mut args = vec!["eval", spec];
    args.extend_from_slice(candidates);
    args.extend_from_slice(&["--run-dir", run_dir.to_str().unwrap(), "--jobs", "2", "--json"]);
    let rendered = context.run(&args);
    let report: Value = serde_json::from_str(&rendered.stdout).unwrap_or_else(|error| panic!("{error}: {}", rendered.text));
    let mut judged = Judged::new();
    for attempt in report["attempts"].as_array().unwrap() {
        let mut checks = BTreeMap::new();
        let mut reload = None;
        for scenario in attempt["scenarios"].as_array().unwrap() {
            for check in scenario["checks"].as_array().unwrap() {
                let label = format!("{}: {}", scenario["name"].as_str().unwrap(), check["label"].as_str().unwrap());
                checks.insert(label, check["passed"].as_bool().unwrap());
                if check["type"] == "reload_idempotent" {
                    reload = Some(check["details"]["cycles"].clone());
                }
            }
        }
        judged.insert((spec.to_owned(), attempt["candidatePath"].as_str().unwrap().to_owned()), (checks, reload));
    }
    judged
}

/// What modlearn's reload cycles registered, in the shape run-letta.ts prints.
fn modlearn_cycles(cycles: &Value) -> Value {
    let cycles: Vec<Value> = cycles
        .as_array()
        .unwrap()
        .iter()
        .map(|cycle| {
            let registrations = &cycle["registrations"];
            serde_json::json!({
                "loaded": cycle["loaded"],
                "events": registrations["events"],
                "tools": registrations["tools"],
                "commands": registrations["commands"],
            })
        })
        .collect();
    Value::Array(cycles)
}

#[test]
fn letta_and_modlearn_give_the_same_verdict_on_every_check() {
    let Some(letta_dir) = std::env::var_os("LETTA_CODE_DIR").map(PathBuf::from) else {
        eprintln!("letta_diff: skipped (set LETTA_CODE_DIR to a letta-code checkout with `bun install` done; see README)");
        return;
    };
    if !bun_available() {
        eprintln!("letta_diff: skipped (`bun` is not on PATH: `npm i -g bun`)");
        return;
    }
    let manifest: Value = serde_json::from_str(&crate::common::read(&repo_root().join("tests/letta-diff/cases.json"))).unwrap();
    let pairs = pairs(&manifest);
    let context = TestContext::new();
    let mut by_spec: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for pair in &pairs {
        by_spec.entry(pair.spec.as_str()).or_default().push(pair.candidate.as_str());
    }
    let mut modlearn = Judged::new();
    for (run, (spec, candidates)) in by_spec.iter().enumerate() {
        modlearn.extend(run_modlearn(&context, &format!("run-{run}"), spec, candidates));
    }

    // Letta's harness, two pairs at a time (2 cores).
    let letta: Vec<Result<(Value, Option<Value>), String>> = std::thread::scope(|scope| {
        let chunks: Vec<_> = pairs
            .chunks(pairs.len().div_ceil(2).max(1))
            .map(|chunk| {
                let letta_dir = &letta_dir;
                scope.spawn(move || {
                    chunk
                        .iter()
                        .map(|pair| {
                            let judged = run_letta(letta_dir, &[&pair.spec, &pair.candidate])?;
                            let reloads = match pair.reloads {
                                Some(n) => Some(run_letta(letta_dir, &["--reload", &n.to_string(), &pair.candidate])?),
                                None => None,
                            };
                            Ok((judged, reloads))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        chunks.into_iter().flat_map(|chunk| chunk.join().expect("a Letta runner thread panicked")).collect()
    });

    let (mut compared, mut agreed, mut modlearn_only) = (0, 0, 0);
    let mut problems = Vec::new();
    let mut expected_divergences = Vec::new();
    for (pair, letta) in pairs.iter().zip(letta) {
        let name = format!("{} × {}", pair.spec, pair.candidate);
        let (letta, letta_reloads) = match letta {
            Ok(judged) => judged,
            Err(error) => {
                problems.push(format!("{name}: {error}"));
                continue;
            }
        };
        let Some((checks, reload)) = modlearn.get(&(pair.spec.clone(), pair.candidate.clone())) else {
            problems.push(format!("{name}: modlearn reported no attempt"));
            continue;
        };
        let mut differences = Vec::new();
        let letta_checks = letta["checks"].as_array().unwrap();
        for check in letta_checks {
            let label = check["label"].as_str().unwrap();
            let passed = check["passed"].as_bool().unwrap();
            compared += 1;
            match checks.get(label) {
                Some(&ours) if ours == passed => agreed += 1,
                Some(&ours) => differences.push(format!(
                    "`{label}`: Letta {} ({}), modlearn {}",
                    verdict(passed),
                    check["message"].as_str().unwrap_or_default(),
                    verdict(ours)
                )),
                None => differences.push(format!("`{label}`: judged by Letta, missing from modlearn")),
            }
        }
        modlearn_only += checks.len().saturating_sub(letta_checks.len());
        if let Some(letta_cycles) = letta_reloads {
            compared += 1;
            match reload.as_ref().map(modlearn_cycles) {
                Some(ours) if ours == letta_cycles["cycles"] => agreed += 1,
                Some(ours) => differences.push(format!("reloads: Letta registered {}, modlearn {ours}", letta_cycles["cycles"])),
                None => differences.push("reloads: the spec has no reload_idempotent check".to_owned()),
            }
        }
        match (&pair.diverges_until, differences.is_empty()) {
            (None, true) => {}
            (None, false) => problems.push(format!("{name} diverges:\n    {}", differences.join("\n    "))),
            (Some(until), false) => expected_divergences.push(format!("{name} ({until}): {} check(s)", differences.len())),
            (Some(until), true) => problems.push(format!("{name} is marked to diverge until {until}, but it agrees now: drop the mark")),
        }
    }
    eprintln!(
        "letta_diff: {} pair(s), {compared} check(s) compared, {agreed} agree, {} expected divergence(s), \
         {modlearn_only} modlearn-only check(s) not compared",
        pairs.len(),
        expected_divergences.len()
    );
    for divergence in &expected_divergences {
        eprintln!("letta_diff: expected to diverge: {divergence}");
    }
    assert!(problems.is_empty(), "modlearn and Letta's harness disagree:\n  {}", problems.join("\n  "));
}

fn verdict(passed: bool) -> &'static str {
    if passed { "passes" } else { "fails" }
}

/// Every env file Letta ships (its docs' examples and its env skill's template) and every spec
/// of this corpus that Letta's own env validator accepts must load in modlearn: Letta users'
/// files work unchanged.
#[test]
fn every_env_letta_accepts_loads() {
    let Some(letta_dir) = std::env::var_os("LETTA_CODE_DIR").map(PathBuf::from) else {
        eprintln!("letta_diff envs: skipped (set LETTA_CODE_DIR to a letta-code checkout; see README)");
        return;
    };
    if !bun_available() {
        eprintln!("letta_diff envs: skipped (`bun` is not on PATH: `npm i -g bun`)");
        return;
    }
    let validator = letta_dir.join("src/skills/builtin/generating-mod-envs/scripts/validate-mod-env.ts");
    let json_files = |dir: PathBuf| -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|error| panic!("{}: {error}", dir.display()))
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|extension| extension == "json"))
            .collect();
        files.sort();
        files
    };
    let shipped: Vec<PathBuf> =
        [letta_dir.join("docs/examples/mods/learning"), letta_dir.join("src/skills/builtin/generating-mod-envs/assets")]
            .into_iter()
            .flat_map(json_files)
            .collect();
    let manifest: Value = serde_json::from_str(&crate::common::read(&repo_root().join("tests/letta-diff/cases.json"))).unwrap();
    let ours: std::collections::BTreeSet<PathBuf> = pairs(&manifest).into_iter().map(|pair| repo_root().join(pair.spec)).collect();
    let context = TestContext::new();
    let (mut accepted, mut refused_by_letta) = (0, Vec::new());
    for env in shipped.iter().chain(ours.iter().filter(|path| !shipped.contains(path))) {
        let letta = Command::new("bun").arg(&validator).arg(env).current_dir(&letta_dir).output().unwrap();
        if !letta.status.success() {
            refused_by_letta.push(env.display().to_string());
            continue;
        }
        accepted += 1;
        let rendered = context.run(&["validate", env.to_str().unwrap()]);
        assert_eq!(rendered.code, 0, "Letta's validator accepts {} and modlearn refuses it:\n{}", env.display(), rendered.text);
    }
    assert!(shipped.len() >= 3, "Letta ships its example envs and template: {shipped:?}");
    eprintln!(
        "letta_diff envs: {accepted} env file(s) Letta's validator accepts all load ({} shipped by Letta); {} it refuses not compared: {refused_by_letta:?}",
        shipped.len(),
        refused_by_letta.len()
    );
}
