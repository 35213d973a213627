//! `proposer-guide.md`: what the next proposer should read first. Goes
//! beyond Letta's guide: a pass/fail matrix of every visible check against
//! every candidate, the most common failure causes, and where to look first.

use std::collections::BTreeMap;
use std::fmt::Write;

use modlearn_types::RunReport;
use modlearn_types::untrusted::md_code;

/// Renders the guide. `history_path` and `report_hint` are shown as paths
/// the proposer can open.
pub fn render_proposer_guide(report: &RunReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Proposer guide: {}\n", report.spec.name);
    out.push_str("Read this before writing the next candidate. Details of every earlier candidate are in `history.json` and `history.md`; each candidate's own `report.md` shows expected against actual values for every failed check.\n\n");
    let attempts = &report.attempts;
    if attempts.is_empty() {
        out.push_str("No candidate has been evaluated yet.\n");
        return out;
    }
    let best = attempts
        .iter()
        .max_by(|a, b| a.visible_score.cmp(&b.visible_score).then(b.candidate_index.cmp(&a.candidate_index)))
        .expect("attempts is not empty");
    out.push_str("## Status\n\n");
    let passing = attempts.iter().filter(|a| a.visible_score == a.visible_max_score && a.error.is_none()).count();
    let _ = writeln!(out, "- Candidates so far: {} ({} passing every visible check)", attempts.len(), passing);
    let _ = writeln!(
        out,
        "- Best so far: candidate {} `{}` with {}/{}",
        best.candidate_index, best.candidate_path, best.visible_score, best.visible_max_score
    );

    // Rows: every visible check label, in spec order.
    let mut rows: Vec<(String, String)> = Vec::new();
    for attempt in attempts {
        for scenario in attempt.scenarios.iter().filter(|s| !s.hidden) {
            for check in &scenario.checks {
                let key = (scenario.name.clone(), check.label.clone());
                if !rows.contains(&key) {
                    rows.push(key);
                }
            }
        }
    }
    out.push_str("\n## Check matrix\n\n| Scenario | Check |");
    for attempt in attempts {
        let _ = write!(out, " #{} |", attempt.candidate_index);
    }
    out.push_str("\n|---|---|");
    out.push_str(&"---|".repeat(attempts.len()));
    out.push('\n');
    let mut failures: BTreeMap<(String, String), Vec<(usize, String)>> = BTreeMap::new();
    for (scenario_name, label) in &rows {
        let _ = write!(out, "| `{scenario_name}` | {label} |");
        for attempt in attempts {
            let check =
                attempt.scenarios.iter().find(|s| &s.name == scenario_name).and_then(|s| s.checks.iter().find(|c| &c.label == label));
            let cell = match check {
                Some(check) if check.passed => "ok",
                Some(check) if check.unchecked => "-",
                Some(check) => {
                    failures
                        .entry((scenario_name.clone(), label.clone()))
                        .or_default()
                        .push((attempt.candidate_index, check.message.clone()));
                    "FAIL"
                }
                None => "-",
            };
            let _ = write!(out, " {cell} |");
        }
        out.push('\n');
    }

    out.push_str("\n## Most common failure causes\n\n");
    let mut ranked: Vec<_> = failures.iter().collect();
    ranked.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(b.0)));
    let mut causes = 0;
    for ((scenario, label), failed_by) in ranked.iter().take(5) {
        causes += 1;
        let (first, message) = &failed_by[0];
        let _ = writeln!(
            out,
            "{causes}. `{scenario}` {label}: failed by {} of {} (e.g. candidate {first}: {})",
            failed_by.len(),
            attempts.len(),
            md_code(message)
        );
    }
    let mut faults: BTreeMap<String, usize> = BTreeMap::new();
    for attempt in attempts {
        let mut kinds: Vec<String> = attempt.diagnostics.iter().map(|d| format!("{} {}", d.phase, d.fault.as_str())).collect();
        kinds.sort();
        kinds.dedup();
        for kind in kinds {
            *faults.entry(kind).or_default() += 1;
        }
    }
    for (kind, count) in &faults {
        causes += 1;
        let _ = writeln!(out, "{causes}. diagnostics `{kind}` in {count} of {} candidates", attempts.len());
    }
    if causes == 0 {
        out.push_str("None: every visible check passed.\n");
    }

    out.push_str("\n## Where to look first\n\n");
    let load_failures =
        attempts.iter().filter(|a| a.diagnostics.iter().any(|d| matches!(d.phase.as_str(), "import" | "transpile" | "activate"))).count();
    if load_failures * 2 > attempts.len() {
        out.push_str("- Most candidates fail to load: get a minimal mod that imports and activates with no diagnostics first (see the diagnostics' hints).\n");
    }
    let no_handler = failures.values().flatten().filter(|(_, m)| m.starts_with("no ") && m.contains("handler")).count();
    if no_handler > 0 {
        out.push_str("- Some checks found no handler: every `tool_start` check needs a registered `tool_start` handler, even for tools the mod leaves alone.\n");
    }
    if let Some(((scenario, label), _)) = ranked.first() {
        let _ = writeln!(
            out,
            "- The most failed check is `{scenario}` {label}: read its expected and actual values in the failing candidates' `report.md`."
        );
    }
    if best.visible_score > 0 {
        let dir = if best.artifacts_dir.is_empty() { String::from(".") } else { best.artifacts_dir.clone() };
        let _ = writeln!(out, "- Start from the best candidate so far (`{dir}/mods/`) and fix what it fails rather than starting over.");
    }
    out
}
