//! The mutant report as text: the mutant table, why each survivor survives, and the coverage
//! table.

use modlearn_mutants::{MutantOutcome, MutantReport, RequirementCoverage};

use crate::printer::{Column, Stream, table, width};

/// Failed checks listed per mutant before the rest are counted.
const KILLS_SHOWN: usize = 3;
/// Requirement text shown in tables, in characters.
const REQUIREMENT_WIDTH: usize = 60;

struct MutantRow {
    mutant: &'static str,
    result: &'static str,
    score: String,
    hidden: String,
    killed_by: String,
}

struct CoverageRow {
    number: usize,
    requirement: String,
    checked_by: String,
}

/// The mutant table, fit to the terminal's width (the checks that killed each wrap).
fn mutant_table(rows: &[MutantRow]) -> String {
    let cells = |cell: fn(&MutantRow) -> String| rows.iter().map(cell).collect::<Vec<_>>();
    let mut columns = vec![
        Column::new("mutant", cells(|row| row.mutant.to_owned())),
        Column::new("result", cells(|row| row.result.to_owned())),
        Column::new("score", cells(|row| row.score.clone())),
    ];
    // Without hidden scenarios the column would say `-` on every row.
    if rows.iter().any(|row| row.hidden != "-") {
        columns.push(Column::new("hidden", cells(|row| row.hidden.clone())));
    }
    columns.push(Column::wrapping("killed by", cells(|row| row.killed_by.clone())));
    table(columns, width(Stream::Stdout))
}

/// The coverage table, fit to the terminal's width (requirements and checks wrap).
fn coverage_table(rows: &[CoverageRow]) -> String {
    let cells = |cell: fn(&CoverageRow) -> String| rows.iter().map(cell).collect::<Vec<_>>();
    table(
        vec![
            Column::new("#", cells(|row| row.number.to_string())),
            Column::wrapping("requirement", cells(|row| row.requirement.clone())),
            Column::wrapping("checked by", cells(|row| row.checked_by.clone())),
        ],
        width(Stream::Stdout),
    )
}

/// Everything `modlearn validate --mutants` prints after the summary line.
pub fn mutant_report(report: &MutantReport) -> String {
    let survivors: Vec<&MutantOutcome> = report.survivors().collect();
    let mut out = format!(
        "mutants: {} killed, {} survived\nmutant data: reminder text: {}; rewrite args: {}\n",
        report.mutants.len() - survivors.len(),
        survivors.len(),
        report.reminder_source,
        report.rewrite_source
    );
    if !report.prompt_markers_ran() {
        out.push_str(
            "prompt scenarios did not run (no `--eval-model`): their markers fail every mutant as not run, which kills none; \
             a mutant that passes every check that ran survives\n",
        );
    }
    out.push_str(&mutant_table(&report.mutants.iter().map(mutant_row).collect::<Vec<_>>()));

    if !survivors.is_empty() {
        out.push_str("\nsurvivors:\n");
        for survivor in survivors {
            out.push_str(&format!("- {}: {}\n", survivor.mutant.name(), survivor.description));
            if let Some(why) = &survivor.why {
                out.push_str(&format!("  why: {why}\n"));
            }
            out.push_str(&format!("  requirements nothing checks: {}\n", unchecked(report)));
            if !survivor.not_run.is_empty() {
                out.push_str(&format!(
                    "  not run: {} prompt marker check(s); pass `--eval-model PROVIDER:NAME` to run them, they may kill it\n",
                    survivor.not_run.len()
                ));
            }
            if let Some(hint) = &survivor.kill_hint {
                out.push_str(&format!("  to kill it: {hint}\n"));
            }
        }
    }

    let inferred = report.coverage.iter().flat_map(|row| &row.covered_by).any(|check| check.inferred);
    out.push_str("\nrequirement coverage");
    if inferred {
        out.push_str(" (~ inferred from shared words; set `covers` on a scenario to state it)");
    }
    out.push_str(":\n");
    out.push_str(&coverage_table(&report.coverage.iter().map(coverage_row).collect::<Vec<_>>()));
    if !report.uncovered.is_empty() {
        let numbers: Vec<String> = report.uncovered.iter().map(usize::to_string).collect();
        out.push_str(&format!("uncovered: requirement(s) {}\n", numbers.join(", ")));
    }
    out
}

fn mutant_row(outcome: &MutantOutcome) -> MutantRow {
    let mut killed_by: Vec<String> = outcome
        .killed_by
        .iter()
        .take(KILLS_SHOWN)
        .map(|check| {
            let hidden = if check.hidden { " (hidden)" } else { "" };
            format!("{}{hidden}: {}", check.scenario, check.label)
        })
        .collect();
    if outcome.killed_by.len() > KILLS_SHOWN {
        killed_by.push(format!("(+{} more)", outcome.killed_by.len() - KILLS_SHOWN));
    }
    MutantRow {
        mutant: outcome.mutant.name(),
        result: if outcome.survived { "SURVIVED" } else { "killed" },
        score: format!("{}/{}", outcome.score, outcome.max_score),
        hidden: if outcome.hidden_max_score == 0 {
            "-".to_owned()
        } else {
            format!("{}/{}", outcome.hidden_score, outcome.hidden_max_score)
        },
        killed_by: match (killed_by.is_empty(), outcome.not_run.len()) {
            (false, _) => killed_by.join("\n"),
            (true, 0) => "-".to_owned(),
            (true, not_run) => format!("- ({not_run} prompt marker check(s) not run)"),
        },
    }
}

/// The requirements no assertion checks, each with the start of its text.
fn unchecked(report: &MutantReport) -> String {
    if report.uncovered.is_empty() {
        return "none".to_owned();
    }
    let listed: Vec<String> = report
        .uncovered
        .iter()
        .filter_map(|number| report.coverage.get(number - 1))
        .map(|row| format!("{} ({})", row.number, shorten(&row.text)))
        .collect();
    listed.join("; ")
}

fn coverage_row(row: &RequirementCoverage) -> CoverageRow {
    let checked_by: Vec<String> = row
        .covered_by
        .iter()
        .map(|check| format!("{}: {}{}", check.scenario, check.label, if check.inferred { " ~" } else { "" }))
        .collect();
    CoverageRow {
        number: row.number,
        requirement: shorten(&row.text),
        checked_by: if checked_by.is_empty() { "UNCOVERED".to_owned() } else { checked_by.join("\n") },
    }
}

/// The first [`REQUIREMENT_WIDTH`] characters of one line of `text`, with `…` when cut.
fn shorten(text: &str) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= REQUIREMENT_WIDTH {
        return flat;
    }
    let cut: String = flat.chars().take(REQUIREMENT_WIDTH - 1).collect();
    format!("{}…", cut.trim_end())
}
