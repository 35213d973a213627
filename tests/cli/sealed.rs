//! Sealed engines (issue 9): hostile candidates, each run beside a good one.
//! Every run must end on its own, write `report.json`, leave the good
//! candidate's verdict exactly as it is alone, stay within its disk bound,
//! and never let the hostile candidate pass.

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::{TestContext, repo_root, run_bounded};

const FIXTURES: &str = "tests/cli/fixtures/sealed";

/// How long one hostile run may take, hangs included (the wall-clock kill
/// ends a stuck step after three times its 250 ms budget plus half a second).
const RUN_BOUND: Duration = Duration::from_secs(120);

/// The most a run directory may hold.
const DISK_BOUND: u64 = 8 << 20;

fn eval(context: &TestContext, run: &str, spec: &str, candidates: &[&str]) -> (i32, Value, Duration) {
    let run_dir = context.path(run);
    let mut command = context.command(&["eval", spec]);
    command.args(candidates).args(["--handler-timeout", "250ms", "--memory-limit", "32", "--json", "--run-dir"]);
    // Files, not pipes: a pipe nobody reads while the run goes on fills up and stalls it.
    let (stdout, stderr) = (context.path(&format!("{run}.stdout")), context.path(&format!("{run}.stderr")));
    command.arg(&run_dir);
    let started = Instant::now();
    let status =
        run_bounded(&mut command, &stdout, &stderr, RUN_BOUND).unwrap_or_else(|why| panic!("`modlearn eval {spec} {candidates:?}`: {why}"));
    let code = status.code().unwrap_or_else(|| panic!("modlearn died: {status:?}"));
    let report = std::fs::read_to_string(run_dir.join("report.json"))
        .unwrap_or_else(|error| panic!("no report.json ({error}): {}", std::fs::read_to_string(&stderr).unwrap_or_default()));
    let size = directory_size(&run_dir);
    assert!(size < DISK_BOUND, "{run}: the run directory holds {size} bytes");
    (code, serde_json::from_str(&report).unwrap(), started.elapsed())
}

fn directory_size(path: &Path) -> u64 {
    std::fs::read_dir(path)
        .unwrap()
        .map(|entry| {
            let entry = entry.unwrap();
            let metadata = entry.metadata().unwrap();
            if metadata.is_dir() { directory_size(&entry.path()) } else { metadata.len() }
        })
        .sum()
}

/// The verdict parts that must not depend on what else ran beside a candidate.
fn comparable(attempt: &Value) -> Value {
    let mut attempt = attempt.clone();
    for key in ["candidateIndex", "candidatePath", "artifactsDir", "durationMs"] {
        attempt.as_object_mut().unwrap().remove(key);
    }
    attempt
}

fn attempt<'a>(report: &'a Value, path: &str) -> &'a Value {
    report["attempts"].as_array().unwrap().iter().find(|a| a["candidatePath"] == path).unwrap()
}

fn faults(attempt: &Value) -> Vec<String> {
    attempt["diagnostics"].as_array().unwrap().iter().map(|d| d["fault"].as_str().unwrap().to_owned()).collect()
}

/// (attack, spec, good candidate, a fault the attack's diagnostics must show, if any).
const ATTACKS: &[(&str, &str, &str, Option<&str>)] = &[
    ("deep-nesting.ts", "specs/uv-pip.json", "candidates/uv-pip/good-return-args.ts", None),
    ("abort-listener-loop.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", Some("timeout")),
    ("tojson-getter-loop.js", "specs/uv-pip.json", "candidates/uv-pip/good-return-args.ts", Some("timeout")),
    ("proxy-args-loop.js", "specs/uv-pip.json", "candidates/uv-pip/good-return-args.ts", Some("timeout")),
    ("overrides-intrinsics.js", "specs/uv-pip.json", "candidates/uv-pip/good-return-args.ts", None),
    ("atomics-wait.js", "specs/uv-pip.json", "candidates/uv-pip/good-return-args.ts", None),
    ("native-loop.js", "specs/uv-pip.json", "candidates/uv-pip/good-return-args.ts", Some("timeout")),
    ("forges-judge.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("wasm-grow.js", "specs/uv-pip.json", "candidates/uv-pip/good-return-args.ts", None),
    ("huge-messages.js", "specs/uv-pip.json", "candidates/uv-pip/good-return-args.ts", None),
    ("reads-host-clues.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("forges-json-arrays.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("hides-promise-stack-limit.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("hides-promise-stack-prepare.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("forges-aborted.js", "specs/lifecycle.json", "candidates/lifecycle/good-notes.ts", None),
    ("hides-global-growth.ts", "specs/lifecycle.json", "candidates/lifecycle/good-notes.ts", None),
    ("wide-messages.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("chatty.js", "specs/uv-pip.json", "candidates/uv-pip/good-return-args.ts", None),
    ("escaped-chatty.js", "specs/uv-pip.json", "candidates/uv-pip/good-return-args.ts", None),
    ("many-slow-handlers.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", Some("timeout")),
    // Forging the machine the world assertions judge (each runs rm -rf, or writes nothing).
    ("world-proto-command.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-proto-files.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-subarray.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-long-command.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-dispose-rm.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-timer-rm.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-rm-variants.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-args-iterator.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-args-proxy.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-timers-module.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-timers-promises.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-content-charcode.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-arraybuffer-slice.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-path-split.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-git-reset.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-rm-quoted.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-stdin-spawnsync.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-stdin-execsync.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-stdin-spawn.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-script-file.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-process-exit.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-rm-eval.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    // Reaching the host's objects through what every one of them inherits.
    ("proto-host-forges-replies.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("proto-steals-expected.js", "specs/uv-pip.json", "candidates/uv-pip/good-return-args.ts", None),
    ("proto-hides-disposer.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("recorded-flag.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", Some("exception")),
    ("under-budget-handlers.js", "specs/uv-pip.json", "candidates/uv-pip/good-return-args.ts", Some("timeout")),
    // What the judge reads of a mod's values and errors.
    ("own-slice-input.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("error-hasinstance.js", "specs/uv-pip.json", "candidates/uv-pip/good-return-args.ts", Some("host_access")),
    ("forged-recorded-error.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("hides-map-growth.ts", "specs/lifecycle.json", "candidates/lifecycle/good-notes.ts", None),
    ("hides-growth-on-builtin.js", "specs/lifecycle.json", "candidates/lifecycle/good-notes.ts", None),
    ("hides-nested-growth.ts", "specs/lifecycle.json", "candidates/lifecycle/good-notes.ts", None),
    ("hides-function-growth.ts", "specs/lifecycle.json", "candidates/lifecycle/good-notes.ts", None),
    ("hides-growth-on-node-module.ts", "specs/lifecycle.json", "candidates/lifecycle/good-notes.ts", None),
    ("hides-growth-in-process-argv.ts", "specs/lifecycle.json", "candidates/lifecycle/good-notes.ts", None),
    ("hides-growth-in-existing-property.ts", "specs/lifecycle.json", "candidates/lifecycle/good-notes.ts", None),
    ("hides-growth-in-buffer-bytes.ts", "specs/lifecycle.json", "candidates/lifecycle/good-notes.ts", None),
    ("process-env-growth.ts", "specs/lifecycle.json", "candidates/lifecycle/good-notes.ts", None),
    ("process-listener-growth.ts", "specs/lifecycle.json", "candidates/lifecycle/good-notes.ts", None),
    ("cwd-growth.ts", "specs/lifecycle.json", "candidates/lifecycle/good-notes.ts", None),
    ("env-proxy-target-growth.ts", "specs/lifecycle.json", "candidates/lifecycle/good-notes.ts", None),
    ("console-label-growth.ts", "specs/lifecycle.json", "candidates/lifecycle/good-notes.ts", None),
    ("accessor-setting-growth.ts", "specs/lifecycle.json", "candidates/lifecycle/good-notes.ts", None),
    ("process-config-growth.ts", "specs/lifecycle.json", "candidates/lifecycle/good-notes.ts", None),
    // Promises the engine makes itself, seen through its promise hook.
    ("hides-promise-in-thenable.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("hides-promise-self-await.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("hides-promise-fake-executor.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("hides-promise-in-executor.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("hides-promise-in-static-callback.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("hides-promise-in-newtarget.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    // Mod functions the host calls (listeners, timers) run under a frame it counts as the mod's.
    ("hides-promise-in-bound-listener.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("bound-constructor-microtask.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("bound-constructor-next-tick.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("bound-constructor-reaction.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("bound-with-resolvers-reaction.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("reaction-events-once.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("reaction-promisify.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("host-named-function.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("reaction-emit-eval.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("client-proxy-reaction.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("abort-timeout-heartbeat.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("hides-promise-in-host-named-eval.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("hides-mod-in-host-named-eval.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("hides-timer-in-refresh.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("species-hides-promise.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("tojson-forges-input.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("lone-surrogate.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("hides-promise-under-native-frames.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("hides-promise-newline-name.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("hides-promise-in-stack-format.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("hides-promise-stack-overflow.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("species-forges-input.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("hides-promise-below-backtrace.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("hides-promise-data-url.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    // Code eval compiles inside host code is named after the host module: its import() must
    // still reach no internal module.
    ("imports-host-via-eval.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("imports-world-via-timer-eval.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    // Round 14: state on prototypes only an instance leads to, and host functions other than
    // the Node built-ins' own (console.log, structuredClone, util.format, util.inspect's custom
    // hook, querystring) as the reaction that builds a promise that never settles.
    ("growth-on-bufferlist-proto.ts", "specs/lifecycle.json", "candidates/lifecycle/good-notes.ts", None),
    ("growth-on-headers-iterator-proto.ts", "specs/lifecycle.json", "candidates/lifecycle/good-notes.ts", None),
    ("growth-on-readable-iterator-proto.ts", "specs/lifecycle.json", "candidates/lifecycle/good-notes.ts", None),
    ("reaction-console-log-tojson.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("reaction-structured-clone.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("reaction-inspect-custom.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("reaction-querystring.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("reaction-util-format.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    // Round 15: a script piped into sh as input the log cannot read (a Blob, a stream, a
    // descriptor), a command word a glob spells, brace lists and $'...' quoting, and state piled
    // into a built-in's own collections (diagnostics channels, open descriptors).
    ("world-stdin-unreadable.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-rm-glob.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-rm-brace-ansi-c.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("growth-diagnostics-channel.ts", "specs/lifecycle.json", "candidates/lifecycle/good-notes.ts", None),
    ("growth-open-descriptors.ts", "specs/lifecycle.json", "candidates/lifecycle/good-notes.ts", None),
    // Rounds 16 and 17: directories above the kept paths renamed, files renamed over kept
    // ones, flags from variables, wrapper arguments, interpreters, scripts fed to a shell's
    // stdin, line continuations, options after a quoted separator, git's global options, a
    // promise made inside a species constructor, and module state of BroadcastChannel and dns.
    // Code that runs later: a signal listener, a handler of an event no scenario dispatches;
    // listeners on process and its streams left after dispose; a dispose failure hidden by
    // flooding the diagnostic ring.
    ("world-signal-rm.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-unemitted-event-rm.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("leaves-stdin-listener.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("floods-diagnostic-ring.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("dsh-undeclared-get.js", "specs/dsh-secret-guard.json", "candidates/dsh-secret-guard/good-exports.js", None),
    ("dsh-undeclared-root-get.js", "specs/dsh-secret-guard.json", "candidates/dsh-secret-guard/good-exports.js", None),
    ("dsh-undeclared-root-property.js", "specs/dsh-secret-guard.json", "candidates/dsh-secret-guard/good-exports.js", None),
    ("pi-select-yes-still-blocks.ts", "specs/pi-permission-gate.json", "candidates/pi-permission-gate/good-select.ts", None),
    ("world-rename-ancestor.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-rename-over-kept.js", "tests/cli/fixtures/sealed/branch-state-seeded.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-rm-flags-from-variable.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-wrapper-args-and-interpreters.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-stdin-end.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-exec-stdin-write.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-rm-line-continuation.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-rm-quoted-separator.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-git-global-options.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("hides-promise-species-constructor.ts", "specs/lifecycle.json", "candidates/lifecycle/good-notes.ts", None),
    ("growth-broadcast-channel.ts", "specs/lifecycle.json", "candidates/lifecycle/good-notes.ts", None),
    ("growth-dns-servers.ts", "specs/lifecycle.json", "candidates/lifecycle/good-notes.ts", None),
    // Round 18: what the virtual machine cannot run or does not have (a shell that stops early,
    // a syntax error, git's config and hooks, PATH and BASH_ENV, interpreters as the shell,
    // task runners, Workers, a refused Bun.$), removals it refused for want of the file, and
    // /proc's links to the paths kept.
    ("world-r18-shell-rm-missing-kept.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-r18-unmodelled-substitution.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-r18-unsupported-stops-shell.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-r18-syntax-error-late.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-r18-trap-string.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-r18-proc-self-root-alias.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-r18-worker-eval.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-r18-npm-run-script.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-r18-path-hijack-git.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-r18-git-env-fsmonitor.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-r18-git-c-fsmonitor-script.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-r18-gitconfig-alias.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-r18-bash-env.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-r18-shell-option-python.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-r18-bun-shell-denied.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-r18-bun-file-delete.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-r18-git-rm.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-r18-ln-sf-over-kept.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("world-r18-unmodelled-deleters.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    // Round 19: module state of node:worker_threads and node:util that outlives a reload.
    ("growth-environment-data.ts", "specs/lifecycle.json", "candidates/lifecycle/good-notes.ts", None),
    ("growth-deprecations-warned.ts", "specs/lifecycle.json", "candidates/lifecycle/good-notes.ts", None),
    // One native call that ignores termination and outlasts the budget, where the engine's own
    // stop races the kill from outside (see `a_mod_racing_its_budget_gets_one_verdict`).
    ("races-budget-in-dispose.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", Some("timeout")),
    ("races-budget-in-handler.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", Some("timeout")),
    // Round 20: damage where no check looks (the machine outlives the scenario), tools, commands
    // and permission checks no scenario runs, code planted where later programs run it (a
    // second mod, Python's start-up hooks), and a DSH read log flooded past its bound.
    ("wipe-in-unchecked-scenario.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("unrun-tool.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("plants-mod.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("plants-usercustomize.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    ("dsh-floods-read-log.js", "specs/dsh-secret-guard.json", "candidates/dsh-secret-guard/good-exports.js", None),
    // Handles a mod leaves open (file watchers, a readline on stdin, channel subscribers), and a
    // watcher whose callback the machine never calls.
    ("leaves-file-watchers.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("leaves-readline-on-stdin.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("leaves-channel-subscriber.js", "specs/turn-reminder.json", "candidates/turn-reminder/good-push-disposer.js", None),
    ("watch-runs-later.js", "specs/branch-state.json", "candidates/branch-state/good-fs-state.js", None),
    // Replies too many values for modlearn to keep, however few bytes they cost the engine.
    ("reply-flood.js", "specs/uv-pip.json", "candidates/uv-pip/good-return-args.ts", Some("out_of_memory")),
];

#[test]
fn no_hostile_candidate_takes_the_run_down_or_passes() {
    let context = TestContext::new();
    let mut alone = std::collections::BTreeMap::new();
    for (attack, spec, good, expected_fault) in ATTACKS {
        let good_verdict = alone.entry((*spec, *good)).or_insert_with(|| {
            let (code, report, _) = eval(&context, &format!("alone-{}", attack), spec, &[good]);
            assert_eq!(code, 0, "{good} passes {spec} alone");
            comparable(&report["attempts"][0])
        });
        let attack_path = format!("{FIXTURES}/{attack}");
        let (code, report, elapsed) = eval(&context, attack, spec, &[&attack_path, good]);
        assert_eq!(code, 0, "{attack}: the good candidate is still selected");
        assert_eq!(&comparable(attempt(&report, good)), good_verdict, "{attack}: the good candidate's verdict changed");
        let hostile = attempt(&report, &attack_path);
        assert_eq!(hostile["passed"], false, "{attack} passed");
        assert_eq!(report["selected"]["candidatePath"], *good, "{attack} was selected");
        if let Some(fault) = expected_fault {
            assert!(faults(hostile).iter().any(|f| f == fault), "{attack}: no {fault} diagnostic in {:?}", faults(hostile));
        }
        eprintln!("{attack}: {:.1} s, hostile {}/{}", elapsed.as_secs_f64(), hostile["score"], hostile["maxScore"]);
    }
}

#[test]
fn a_mod_racing_its_budget_gets_one_verdict() {
    // Whether the engine stops the call at its budget or the kill from outside does, the
    // scenario ends the same way and the next one starts on a new engine: run after run, the
    // same file gets the same verdict (module state on globalThis included).
    let context = TestContext::new();
    for attack in ["races-budget-in-dispose.js", "races-budget-in-handler.js"] {
        let path = format!("{FIXTURES}/{attack}");
        let verdicts: Vec<Value> = (0..4)
            .map(|run| {
                let (_, report, _) = eval(&context, &format!("{attack}-{run}"), "specs/turn-reminder.json", &[&path]);
                comparable(&report["attempts"][0])
            })
            .collect();
        assert_eq!(verdicts[0]["passed"], false, "{attack} passed");
        for (run, verdict) in verdicts.iter().enumerate().skip(1) {
            assert_eq!(verdict, &verdicts[0], "{attack}: run {run} differs from run 0");
        }
    }
}

/// Good mods that use what the judge watches, as Node and Bun let them: each must score in full.
const FAIR: &[(&str, &str)] = &[
    ("abort-signal-timeout.ts", "specs/lifecycle.json"),
    ("events-once-signal.ts", "specs/lifecycle.json"),
    ("promisify-set-timeout.ts", "specs/lifecycle.json"),
    ("tool-appends-log.ts", "specs/lifecycle.json"),
    ("abort-signal-any-timeout.ts", "specs/lifecycle.json"),
    ("process-set-max-listeners.ts", "specs/lifecycle.json"),
    ("typeof-deno.ts", "specs/lifecycle.json"),
    ("bun-file-write.ts", "specs/lifecycle.json"),
    ("channel-descriptor-tick.ts", "specs/lifecycle.json"),
];

#[test]
fn fair_mods_that_use_what_the_judge_watches_pass() {
    let context = TestContext::new();
    for (fair, spec) in FAIR {
        let path = format!("tests/cli/fixtures/fair/{fair}");
        let (code, report, _) = eval(&context, fair, spec, &[&path]);
        let attempt = &report["attempts"][0];
        assert_eq!((code, &attempt["score"]), (0, &attempt["maxScore"]), "{fair} does not pass {spec}: {attempt}");
    }
}

#[test]
fn a_forging_mod_is_judged_as_it_is() {
    // The judge sees the interval each mod leaks, whatever the mod did to hide it.
    let context = TestContext::new();
    for forger in ["forges-judge.js", "forges-json-arrays.js"] {
        let attack = format!("{FIXTURES}/{forger}");
        let (_, report, _) = eval(&context, forger, "specs/turn-reminder.json", &[&attack]);
        let checks: Vec<&Value> = report["attempts"][0]["scenarios"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|scenario| scenario["checks"].as_array().unwrap())
            .collect();
        let disposes = checks.iter().find(|check| check["type"] == "disposes_cleanly").expect("a disposes_cleanly check");
        assert_eq!(disposes["passed"], false, "{forger}: {disposes}");
        assert!(disposes["message"].as_str().unwrap().contains("interval"), "{forger}: {disposes}");
    }
}

#[test]
fn a_mod_cannot_choose_the_seed_it_is_judged_with() {
    // A request that leaves out the seed must not read one from Object.prototype.
    let context = TestContext::new();
    let attack = format!("{FIXTURES}/forges-seed.js");
    let (_, report, _) = eval(&context, "seed", "specs/lifecycle.json", &[&attack]);
    let checks: Vec<&Value> =
        report["attempts"][0]["scenarios"].as_array().unwrap().iter().flat_map(|scenario| scenario["checks"].as_array().unwrap()).collect();
    for kind in ["deterministic", "isolated_conversations"] {
        let check = checks.iter().find(|check| check["type"] == kind).unwrap_or_else(|| panic!("a {kind} check"));
        assert_eq!(check["passed"], false, "{check}");
    }
}

#[test]
fn host_clues_do_not_reach_mods() {
    let context = TestContext::new();
    let attack = format!("{FIXTURES}/reads-host-clues.js");
    let (_, report, _) = eval(&context, "clues", "specs/turn-reminder.json", &[&attack]);
    // What the mod saw, as it reported it in the messages it injected.
    let seen = &report["attempts"][0]["scenarios"][1]["checks"][0]["details"]["finalInput"][0]["content"];
    let seen = seen.as_str().unwrap_or_else(|| panic!("the mod reported nothing: {report}"));
    let root = repo_root().display().to_string();
    assert!(!seen.contains(&root) && !seen.contains("/tmp"), "a host path reached the mod: {seen}");
    assert_eq!(
        seen,
        "file:///home/user/.letta/mods/reads-host-clues.js?load=2 | /home/user/.letta/mods/reads-host-clues.js | /home/user/.letta/mods | 0 | 0 | no Temporal | one Date | one Date"
    );
}

#[test]
fn an_oversized_candidate_is_judged_not_evaluated() {
    let context = TestContext::new();
    let huge = context.path("huge.js");
    let mut source = String::from("export function activate(letta) {}\n");
    while source.len() < 8 << 20 {
        source.push_str(&format!("// {}\n", "y".repeat(1000)));
    }
    std::fs::write(&huge, source).unwrap();
    let huge = huge.to_str().unwrap().to_owned();
    let good = "candidates/uv-pip/good-return-args.ts";
    let (code, report, _) = eval(&context, "huge", "specs/uv-pip.json", &[&huge, good]);
    assert_eq!(code, 0);
    let hostile = attempt(&report, &huge);
    assert_eq!(hostile["passed"], false);
    assert!(hostile.to_string().contains("candidates are at most 1024 KiB"), "{hostile}");
}

#[test]
fn run_directories_have_one_owner() {
    let context = TestContext::new();
    let good = "candidates/uv-pip/good-return-args.ts";
    // A file where the run directory should be: refused before any work.
    let file = context.path("a-file");
    std::fs::write(&file, "x").unwrap();
    let rendered = context.run(&["eval", "specs/uv-pip.json", good, "--run-dir", file.to_str().unwrap()]);
    assert_eq!(rendered.code, 2, "{}", rendered.text);
    insta::assert_snapshot!("sealed-run-dir-is-a-file", rendered.text);
    // A directory holding someone else's files.
    let foreign = context.path("foreign");
    std::fs::create_dir(&foreign).unwrap();
    std::fs::write(foreign.join("report.md"), "mine").unwrap();
    let rendered = context.run(&["eval", "specs/uv-pip.json", good, "--run-dir", foreign.to_str().unwrap()]);
    assert_eq!(rendered.code, 2, "{}", rendered.text);
    assert_eq!(std::fs::read_to_string(foreign.join("report.md")).unwrap(), "mine");
    insta::assert_snapshot!("sealed-run-dir-not-empty", rendered.text);
    // Two writers at once: the second is refused at once.
    let shared = context.path("shared");
    let slow = format!("{FIXTURES}/native-loop.js");
    let mut first = context.command(&["eval", "specs/uv-pip.json", &slow, good, "--handler-timeout", "250ms", "--run-dir"]);
    first.arg(&shared).stdout(Stdio::null()).stderr(Stdio::null());
    let mut first = first.spawn().unwrap();
    let lock = shared.join(".modlearn.lock");
    let started = Instant::now();
    while !lock.exists() && started.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let rendered = context.run(&["eval", "specs/uv-pip.json", good, "--run-dir", shared.to_str().unwrap()]);
    assert_eq!(rendered.code, 2, "{}", rendered.text);
    insta::assert_snapshot!("sealed-run-dir-busy", rendered.text);
    assert!(first.wait().unwrap().success());
}

#[test]
fn non_regular_files_and_outward_links_are_refused() {
    let context = TestContext::new();
    let fifo = context.path("fifo.js");
    let status = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(status.success());
    let rendered = context.run(&["eval", "specs/uv-pip.json", fifo.to_str().unwrap()]);
    assert_eq!(rendered.code, 2, "{}", rendered.text);
    insta::assert_snapshot!("sealed-fifo-candidate", rendered.text);
    let zero = context.path("zero.js");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let rendered = context.run(&["eval", "specs/uv-pip.json", zero.to_str().unwrap()]);
    assert_eq!(rendered.code, 2, "{}", rendered.text);
    let outward = context.path("outward.js");
    std::os::unix::fs::symlink(repo_root().join("candidates/uv-pip/good-return-args.ts"), &outward).unwrap();
    let rendered = context.run(&["eval", "specs/uv-pip.json", outward.to_str().unwrap()]);
    assert_eq!(rendered.code, 2, "{}", rendered.text);
    insta::assert_snapshot!("sealed-outward-link", rendered.text);
    let spec_fifo = context.path("spec.json");
    let status = std::process::Command::new("mkfifo").arg(&spec_fifo).status().unwrap();
    assert!(status.success());
    let rendered = context.run(&["validate", spec_fifo.to_str().unwrap()]);
    assert_eq!(rendered.code, 2, "{}", rendered.text);
    let rendered = context.run(&["validate", "/dev/zero"]);
    assert_eq!(rendered.code, 2, "{}", rendered.text);
}

#[test]
fn nonsense_durations_are_usage_errors() {
    let context = TestContext::new();
    let rendered =
        context.run(&["eval", "specs/uv-pip.json", "candidates/uv-pip/good-return-args.ts", "--handler-timeout", "18446744073709551615s"]);
    assert_eq!(rendered.code, 2, "{}", rendered.text);
    insta::assert_snapshot!("sealed-nonsense-duration", rendered.text);
}
