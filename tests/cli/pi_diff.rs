//! Differential test against Pi itself: every Pi extension of the corpus (tests/pi-diff/, written
//! for Pi 1.6) and of the curated specs is judged by the real `@earendil-works/pi-coding-agent`
//! runtime under Bun (scripts/pi-diff/judge.mjs drives real Pi sessions, reading what reaches the
//! provider) and by modlearn, and every check both judge must agree. The corpus leaves no check
//! uncompared. Skipped with a note when `PI_CODING_AGENT_DIR` (an npm install of Pi 1.6.0, see
//! scripts/pi-diff/README.md) is not set or Bun is missing: CI has no Pi.

use crate::host_diff::{Driver, available, compare};

const CORPUS: &[(&str, &str)] = &[("tests/pi-diff/spec.json", "tests/pi-diff/extensions")];

const CURATED: &[(&str, &str)] = &[
    ("specs/pi-protected-paths.json", "candidates/pi-protected-paths"),
    ("specs/pi-todo.json", "candidates/pi-todo"),
    ("specs/pi-permission-gate.json", "candidates/pi-permission-gate"),
];

#[test]
fn pi_and_modlearn_give_the_same_verdict_on_every_check() {
    let Some(install) = std::env::var_os("PI_CODING_AGENT_DIR").map(std::path::PathBuf::from) else {
        eprintln!("pi_diff: skipped (set PI_CODING_AGENT_DIR to an npm install of @earendil-works/pi-coding-agent@1.6.0)");
        return;
    };
    if !available("bun") {
        eprintln!("pi_diff: skipped (Pi 1.6 needs Node 22.19 or Bun; install Bun with `npm i -g bun`)");
        return;
    }
    let driver = Driver { runtime: "bun", script: "scripts/pi-diff/judge.mjs", env: "PI_CODING_AGENT_DIR" };
    let corpus = compare(&driver, &install, CORPUS, &[]);
    eprintln!("{}", corpus.summary("pi_diff corpus"));
    let curated = compare(&driver, &install, CURATED, &[]);
    eprintln!("{}", curated.summary("pi_diff curated"));
    assert!(corpus.compared > 500, "too few checks compared: {}", corpus.compared);
    assert_eq!(corpus.skipped_total(), 0, "the corpus leaves checks uncompared");
    let differences = [corpus.differences, curated.differences].concat();
    assert!(differences.is_empty(), "modlearn and Pi disagree:\n{}", differences.join("\n"));
}
