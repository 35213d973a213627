//! Each mutant template, rendered and run by the real evaluator against a probe spec with one
//! scenario per behaviour: it must pass exactly the checks its description promises.

use std::collections::BTreeMap;
use std::path::Path;

use modlearn_mutants::{Mutant, MutantReport, run_mutants};
use modlearn_runner::EvalSettings;
use modlearn_spec::{load_spec, parse_spec, resolve_scenarios};

fn report_for(path: &Path) -> MutantReport {
    let loaded = load_spec(path).unwrap();
    let scenarios = resolve_scenarios(&loaded.spec);
    run_mutants(&loaded.spec, &scenarios, &EvalSettings::default())
}

/// The scenarios each mutant failed, by mutant name.
fn failed_scenarios(report: &MutantReport) -> BTreeMap<&'static str, Vec<String>> {
    report
        .mutants
        .iter()
        .map(|outcome| {
            let mut failed: Vec<String> = outcome.killed_by.iter().map(|check| check.scenario.clone()).collect();
            failed.dedup();
            (outcome.mutant.name(), failed)
        })
        .collect()
}

#[test]
fn each_mutant_passes_exactly_what_it_claims() {
    let report = report_for(Path::new("tests/fixtures/probe.json"));
    let failed = failed_scenarios(&report);
    let expect = |names: &[&str]| names.iter().map(|name| (*name).to_owned()).collect::<Vec<_>>();
    // Nothing registered: every behaviour check fails; loading and disposing are fine.
    assert_eq!(failed["noop"], expect(&["reminder", "rewrite-first", "rewrite-second", "preserve-other-tool", "preserve-other-command"]));
    // Handlers that change nothing pass the negative controls.
    assert_eq!(failed["all-handlers-passthrough"], expect(&["reminder", "rewrite-first", "rewrite-second"]));
    assert_eq!(
        failed["throws-in-activate"],
        expect(&["loads", "reminder", "rewrite-first", "rewrite-second", "preserve-other-tool", "preserve-other-command", "disposes"])
    );
    // The reminder text comes from the spec, so the reminder check passes.
    assert_eq!(failed["only-reminder"], expect(&["rewrite-first", "rewrite-second", "preserve-other-tool", "preserve-other-command"]));
    // The first example's args go onto every call: the first rewrite passes, everything else is overwritten.
    assert_eq!(failed["rewrite-everything"], expect(&["reminder", "rewrite-second", "preserve-other-tool", "preserve-other-command"]));
    // Right on every event check (both rewrites replayed, whatever the key order); only the
    // lifecycle check catches it.
    assert_eq!(failed["never-disposes"], expect(&["disposes"]));
    let never = report.mutants.iter().find(|outcome| outcome.mutant == Mutant::NeverDisposes).unwrap();
    assert!(never.killed_by[0].message.contains("interval"), "{:?}", never.killed_by);
    assert!(report.survivors().next().is_none());
    assert_eq!(report.reminder_source, "the first turn_start_injects_message assertion");
    assert_eq!(report.rewrite_source, "the first tool_start_rewrites_args assertion");
}

#[test]
fn without_a_lifecycle_check_never_disposes_survives_with_a_hint() {
    let text = std::fs::read_to_string("tests/fixtures/probe.json").unwrap();
    let mut spec: serde_json::Value = serde_json::from_str(&text).unwrap();
    spec["evaluation"]["scenarios"].as_array_mut().unwrap().pop();
    let loaded = parse_spec(&spec.to_string(), Path::new("probe-without-dispose.json")).unwrap();
    let report = run_mutants(&loaded.spec, &resolve_scenarios(&loaded.spec), &EvalSettings::default());
    let survivors: Vec<&str> = report.survivors().map(|outcome| outcome.mutant.name()).collect();
    assert_eq!(survivors, ["never-disposes"]);
    let survivor = report.survivors().next().unwrap();
    assert_eq!((survivor.score, survivor.max_score, survivor.hidden_score, survivor.hidden_max_score), (6, 6, 1, 1));
    assert!(survivor.kill_hint.as_deref().unwrap().contains("disposes_cleanly"));
    // Requirement 5 (clean up) is now checked by nothing.
    assert_eq!(report.uncovered, [5]);
}

#[test]
fn a_spec_without_examples_gets_generic_data_that_cannot_pass_by_luck() {
    let source = r#"{
      "name": "Cancel", "objective": "Cancel turns that ask for a delete", "requirements": ["Cancel delete turns"],
      "evaluation": { "scenarios": [
        { "name": "cancels", "assertions": [{ "type": "turn_start_cancels", "reasonContains": "delete" }] },
        { "name": "loads", "assertions": [{ "type": "mod_loads" }] }
      ] }
    }"#;
    let loaded = parse_spec(source, Path::new("cancel.json")).unwrap();
    let report = run_mutants(&loaded.spec, &resolve_scenarios(&loaded.spec), &EvalSettings::default());
    assert!(report.reminder_source.starts_with("generic"), "{}", report.reminder_source);
    assert!(report.rewrite_source.starts_with("generic"), "{}", report.rewrite_source);
    for outcome in &report.mutants {
        assert!(!outcome.survived, "{}", outcome.mutant.name());
        let cancels: Vec<_> = outcome.killed_by.iter().filter(|check| check.scenario == "cancels").collect();
        assert_eq!(cancels.len(), 1, "{}: {:?}", outcome.mutant.name(), outcome.killed_by);
    }
}

#[test]
fn spec_text_reaches_the_mutant_as_data_only() {
    // A reminder written to break out of a string literal must arrive verbatim, not run.
    let source = r#"{
      "name": "Quote", "objective": "o", "requirements": ["Remind"],
      "evaluation": { "scenarios": [
        { "name": "reminder", "assertions": [{ "type": "turn_start_injects_message",
          "contains": "\"); globalThis.injected = true; (\"\u2028`${1}`</script>" }] },
        { "name": "loads", "assertions": [{ "type": "mod_loads", "expectedLoadedCount": 1 }] }
      ] }
    }"#;
    let loaded = parse_spec(source, Path::new("quote.json")).unwrap();
    let report = run_mutants(&loaded.spec, &resolve_scenarios(&loaded.spec), &EvalSettings::default());
    let only = report.mutants.iter().find(|outcome| outcome.mutant == Mutant::OnlyReminder).unwrap();
    assert!(only.survived, "{:?}", only.killed_by);
}

/// Prompt markers without an eval model fail every mutant as "not run"; that kills none. A
/// mutant right on every check that ran survives, its unrun markers listed apart.
#[test]
fn unrun_prompt_markers_kill_nothing() {
    let report = report_for(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../specs/prompt-install.json"));
    assert!(!report.prompt_markers_ran());
    let never = report.mutants.iter().find(|outcome| outcome.mutant == Mutant::NeverDisposes).unwrap();
    assert!(never.survived, "only unrun markers fail it: {:?}", never.killed_by);
    assert!(never.killed_by.is_empty());
    assert_eq!(never.not_run.len(), 3);
    assert!(never.not_run.iter().all(|check| check.scenario == "install-from-requirements" && check.message.starts_with("not run:")));
    // A mutant killed by a check that ran stays killed, and its unrun markers are not counted as kills.
    let noop = report.mutants.iter().find(|outcome| outcome.mutant == Mutant::Noop).unwrap();
    assert!(!noop.survived);
    assert!(noop.killed_by.iter().all(|check| check.scenario != "install-from-requirements"), "{:?}", noop.killed_by);
    let survivors: Vec<&str> = report.survivors().map(|outcome| outcome.mutant.name()).collect();
    assert_eq!(survivors, ["never-disposes"]);
}
