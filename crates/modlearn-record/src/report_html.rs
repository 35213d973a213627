//! `report.html`: the run as pictures. Scores per round, every candidate's
//! score, the pass/fail grid of candidates against checks, and usage and
//! cost per round; built from the same [`RunReport`] as `report.md`, with
//! the charts of [`crate::html`], so it needs no script and no network.

use std::collections::BTreeSet;

use modlearn_types::{Attempt, RunReport};

use crate::html::{Bar, BarChart, Color, HeatCell, HeatMap, LegendEntry, LineChart, Markup, Page, Series, Table, escape};

mod eval;

use eval::EvalTotals;

/// Renders `report.html`.
pub fn render_run_html(report: &RunReport) -> String {
    let verdict = if report.passed { "PASS" } else { "FAIL" };
    let mut page = Page::new(&format!("modlearn report: {}", report.spec.name));
    let selected = match &report.selected {
        Some(s) => format!("candidate {} ({})", s.candidate_index, s.candidate_path),
        None => "none".to_owned(),
    };
    let mut summary = Table::new(&["", ""])
        .row(&["Result", &format!("{verdict} ({}/{})", report.score, report.max_score)])
        .row(&["Spec", &format!("{} ({} scenarios)", report.spec.path, report.spec.scenarios)]);
    if !report.spec.host.is_empty() {
        summary = summary.row(&["Judged against", &report.spec.host]);
    }
    summary = summary.row(&["Selected", &selected]).row(&["Candidates", &report.attempts.len().to_string()]);
    if let Some(promoted) = &report.promoted_to {
        summary = summary.row(&["Promoted to", promoted]);
    }
    if let Some(learning) = &report.learning {
        let usage = &learning.usage;
        summary = summary
            .row(&["Model", &learning.model])
            .row(&[
                "Rounds",
                &format!(
                    "{} of {} ({} per round); stopped: {}",
                    learning.rounds_run, learning.rounds_planned, learning.candidates_per_round, learning.stopped
                ),
            ])
            .row(&[
                "Usage",
                &format!(
                    "{} proposal(s), {} tokens in, {} out, ${:.4}, {} ms of model time",
                    usage.proposals, usage.input_tokens, usage.output_tokens, usage.cost_usd, usage.latency_ms
                ),
            ]);
    }
    if let Some(eval) = eval::summary(report) {
        summary = summary.row(&["Eval model", &eval]);
    }
    page = page.table(&summary);

    page = page.heading(2, "Scores").markup(round_chart(report)).markup(candidate_chart(report));
    page = page.heading(2, "Checks").markup(check_grid(report));
    // The grid's tooltips say why a check failed; here it is without hovering.
    if let Some(failures) = failure_table(report) {
        page = page.heading(3, "Why checks failed").table(&failures);
    }
    if let Some(learning) = &report.learning {
        page = page.heading(2, "Usage and cost per round");
        // The eval model's usage gets its own columns and bars: it is not the proposals'.
        let eval_total = EvalTotals::of(&report.attempts);
        let mut headers = vec!["Round", "Proposals", "Tokens in", "Tokens out", "Cost", "Model time"];
        if eval_total.is_some() {
            headers.extend(["Eval tokens in", "Eval tokens out", "Eval cost"]);
        }
        let mut table = Table::new(&headers);
        for column in 1..headers.len() {
            table = table.numeric_column(column);
        }
        let mut tokens = BarChart::new("Tokens per round (in + out)");
        let cost_title = if eval_total.is_some() { "Cost per round (USD): proposals and eval model" } else { "Cost per round (USD)" };
        let mut cost = BarChart::new(cost_title);
        for (index, totals) in learning.per_round.iter().enumerate() {
            let round = (index + 1).to_string();
            let mut row = vec![
                round.clone(),
                totals.proposals.to_string(),
                totals.input_tokens.to_string(),
                totals.output_tokens.to_string(),
                format!("${:.4}", totals.cost_usd),
                format!("{} ms", totals.latency_ms),
            ];
            let proposals = if eval_total.is_some() { " proposals" } else { "" };
            let total = totals.input_tokens + totals.output_tokens;
            let label = format!("{total} ({} in, {} out)", totals.input_tokens, totals.output_tokens);
            tokens = tokens.bar(Bar::new(&format!("round {round}{proposals}"), total as f64).value_label(&label).color(Color::series(0)));
            cost = cost.bar(
                Bar::new(&format!("round {round}{proposals}"), totals.cost_usd)
                    .value_label(&format!("${:.4}", totals.cost_usd))
                    .color(Color::series(1)),
            );
            if eval_total.is_some() {
                let eval = EvalTotals::of_round(report, index as u32 + 1);
                row.extend([eval.input_tokens.to_string(), eval.output_tokens.to_string(), format!("${:.4}", eval.cost_usd)]);
                let total = eval.input_tokens + eval.output_tokens;
                let label = format!("{total} ({} in, {} out)", eval.input_tokens, eval.output_tokens);
                tokens = tokens.bar(Bar::new(&format!("round {round} eval"), total as f64).value_label(&label).color(eval::eval_color()));
                cost = cost.bar(
                    Bar::new(&format!("round {round} eval"), eval.cost_usd)
                        .value_label(&format!("${:.4}", eval.cost_usd))
                        .color(eval::eval_color()),
                );
            }
            table = table.row(&row);
        }
        page = page.table(&table).markup(tokens.render());
        // Unpriced models cost nothing: an all-zero chart would say nothing.
        if learning.usage.cost_usd + eval_total.map_or(0.0, |eval| eval.cost_usd) > 0.0 {
            page = page.markup(cost.render());
        }
    } else if let Some((table, chart)) = eval::per_candidate(report) {
        page = page.heading(2, "Eval model usage and cost").table(&table);
        if let Some(chart) = chart {
            page = page.markup(chart);
        }
    }
    page = page.heading(2, "Candidates");
    let mut table =
        Table::new(&["#", "Round", "Candidate", "Result", "Score", "Hidden", "Diagnostics", "Report"]).numeric_column(0).numeric_column(1);
    for attempt in &report.attempts {
        let text = |text: &str| Markup::text(text);
        table = table.row_markup(vec![
            text(&attempt.candidate_index.to_string()),
            text(&attempt.round.to_string()),
            text(&attempt.candidate_path),
            text(result_word(attempt)),
            text(&format!("{}/{}", attempt.score, attempt.max_score)),
            text(&format!("{}/{}", attempt.hidden_score, attempt.hidden_max_score)),
            text(&diagnostics(attempt)),
            report_link(attempt),
        ]);
    }
    page.table(&table).note("Written by modlearn from report.json; `modlearn report <RUN-DIR>` renders it again.").render()
}

fn result_word(attempt: &Attempt) -> &'static str {
    attempt.result_word()
}

/// A link to the candidate's own report.md (relative: the run directory moves as a whole).
fn report_link(attempt: &Attempt) -> Markup {
    if attempt.artifacts_dir.is_empty() {
        return Markup::text("-");
    }
    let href = format!("{}/report.md", attempt.artifacts_dir.trim_end_matches('/'));
    Markup::trusted(format!("<a href=\"{}\">{}</a>", escape(&href), escape(&href)))
}

/// Failed checks and unjudged candidates with their reasons, one row each; none when all passed.
fn failure_table(report: &RunReport) -> Option<Table> {
    let labels = candidate_labels(report);
    let mut table = Table::new(&["Candidate", "Check", "Why"]);
    let mut rows = 0;
    for (attempt, label) in report.attempts.iter().zip(&labels) {
        if let Some(error) = &attempt.error {
            table = table.row(&[label.as_str(), "not judged", &clip(error)]);
            rows += 1;
        }
        for scenario in &attempt.scenarios {
            for check in scenario.checks.iter().filter(|check| check.failed()) {
                let hidden = if scenario.hidden { " (hidden)" } else { "" };
                table = table.row(&[label.as_str(), &format!("{} › {}{hidden}", scenario.name, check.label), &clip(&check.message)]);
                rows += 1;
            }
        }
    }
    (rows > 0).then_some(table)
}

/// A reason cut to a readable length (report.md has it whole).
fn clip(text: &str) -> String {
    const MAX: usize = 400;
    if text.chars().count() <= MAX {
        return text.to_owned();
    }
    let cut: String = text.chars().take(MAX - 1).collect();
    format!("{cut}…")
}

/// A short label per candidate that tells them apart: `#N` and the file name when
/// names differ, the shortest path tail that does when they collide, and just
/// `#N` (with the round) when every candidate has the same file (a run's).
fn candidate_labels(report: &RunReport) -> Vec<String> {
    let paths: Vec<Vec<&str>> = report.attempts.iter().map(|a| a.candidate_path.split(['/', '\\']).collect()).collect();
    let names: BTreeSet<&str> = paths.iter().filter_map(|parts| parts.last().copied()).collect();
    let multi_round = rounds(report).len() > 1;
    report
        .attempts
        .iter()
        .zip(&paths)
        .map(|(attempt, parts)| {
            let number = format!("#{}", attempt.candidate_index);
            if names.len() <= 1 && report.attempts.len() > 1 {
                return if multi_round { format!("{number} (round {})", attempt.round) } else { number };
            }
            let longest = paths.iter().map(Vec::len).max().unwrap_or(1);
            let tail = (1..=longest)
                .map(|k| parts[parts.len().saturating_sub(k)..].join("/"))
                .find(|tail| {
                    paths.iter().filter(|other| other[other.len().saturating_sub(tail.split('/').count())..].join("/") == *tail).count()
                        == 1
                })
                .unwrap_or_else(|| parts.join("/"));
            format!("{number} {tail}")
        })
        .collect()
}

fn rounds(report: &RunReport) -> Vec<u32> {
    report.attempts.iter().map(|a| a.round).collect::<BTreeSet<_>>().into_iter().collect()
}

/// Best and mean score in each round, and the best so far.
fn round_chart(report: &RunReport) -> crate::html::Markup {
    let rounds = rounds(report);
    let labels: Vec<String> = rounds.iter().map(|r| format!("round {r}")).collect();
    let mut best = Vec::new();
    let mut mean = Vec::new();
    let mut so_far = Vec::new();
    let mut running: Option<f64> = None;
    for round in &rounds {
        let scores: Vec<f64> = report.attempts.iter().filter(|a| a.round == *round).map(|a| a.score as f64).collect();
        let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        running = Some(running.map_or(top, |r: f64| r.max(top)));
        best.push(Some(top));
        mean.push(Some(scores.iter().sum::<f64>() / scores.len() as f64));
        so_far.push(running);
    }
    LineChart::new(&format!("Score per round (of {})", report.max_score), &labels)
        .y_range(0.0, report.max_score.max(1) as f64)
        .series(Series::new("best in round", best).color(Color::PASS))
        .series(Series::new("mean in round", mean).color(Color::series(0)))
        .series(Series::new("best so far", so_far).color(Color::series(1)))
        .render()
}

fn candidate_chart(report: &RunReport) -> crate::html::Markup {
    let max = report.max_score.max(1);
    let mut chart = BarChart::new("Score per candidate").max(max as f64).mark_max(&format!("max {max}"));
    for (attempt, label) in report.attempts.iter().zip(candidate_labels(report)) {
        let color = if attempt.error.is_some() {
            Color::ERROR
        } else if attempt.passed {
            Color::PASS
        } else {
            Color::FAIL
        };
        let value = if attempt.error.is_some() { "not judged".to_owned() } else { format!("{}/{}", attempt.score, attempt.max_score) };
        chart = chart.bar(Bar::new(&label, attempt.score as f64).value_label(&value).color(color));
    }
    chart.render()
}

/// Rows: candidates; columns: every check of every scenario, in spec order.
fn check_grid(report: &RunReport) -> crate::html::Markup {
    let mut columns: Vec<(String, String, bool)> = Vec::new();
    for attempt in &report.attempts {
        for scenario in &attempt.scenarios {
            for check in &scenario.checks {
                let key = (scenario.name.clone(), check.label.clone(), scenario.hidden);
                if !columns.contains(&key) {
                    columns.push(key);
                }
            }
        }
    }
    let labels: Vec<String> =
        columns.iter().map(|(scenario, label, hidden)| format!("{scenario} › {label}{}", if *hidden { " (hidden)" } else { "" })).collect();
    let mut grid = HeatMap::new("Candidates against checks", &labels).legend(LegendEntry::outcomes());
    for (attempt, row) in report.attempts.iter().zip(candidate_labels(report)) {
        let cells = columns
            .iter()
            .zip(&labels)
            .map(|((scenario, label, _), column)| {
                let check =
                    attempt.scenarios.iter().find(|s| &s.name == scenario).and_then(|s| s.checks.iter().find(|c| &c.label == label));
                // A candidate that was not judged (no answer, no code) has failed placeholder
                // checks: it is drawn as "error / not judged", not as failing them.
                match (check, &attempt.error) {
                    (_, Some(error)) => HeatCell::error(&format!("{row}: not judged: {error}")),
                    (Some(check), None) if check.passed => HeatCell::pass(&format!("{row}: {column}: passed")),
                    (Some(check), None) if check.unchecked => HeatCell::empty(&format!("{row}: {column}: {}", check.message)),
                    (Some(check), None) => HeatCell::fail(&format!("{row}: {column}: {}", check.message)),
                    (None, None) => HeatCell::empty(&format!("{row}: {column}: not run")),
                }
            })
            .collect();
        grid = grid.row(&row, cells);
    }
    grid.render()
}

fn diagnostics(attempt: &Attempt) -> String {
    if attempt.diagnostics.is_empty() {
        return "none".to_owned();
    }
    let mut kinds: Vec<String> = attempt.diagnostics.iter().map(|d| format!("{}/{}", d.phase, d.fault.as_str())).collect();
    kinds.dedup();
    kinds.join(", ")
}

#[cfg(test)]
mod tests {
    use modlearn_types::{CheckResult, ScenarioVerdict, SpecSummary};

    use super::*;

    fn attempt(index: usize, passed: &[bool], error: Option<&str>) -> Attempt {
        let checks = passed
            .iter()
            .enumerate()
            .map(|(n, ok)| CheckResult {
                label: format!("{}. mod_loads", n + 1),
                kind: "mod_loads".into(),
                passed: *ok,
                message: if *ok { "ok".into() } else { "failed <here>".into() },
                details: serde_json::Value::Null,
                unchecked: false,
            })
            .collect::<Vec<_>>();
        let score = passed.iter().filter(|p| **p).count();
        // As the runner records a candidate it could not judge: every check failed with the reason.
        let scenarios = vec![ScenarioVerdict::new("loads".into(), "001-loads".into(), false, checks)];
        Attempt {
            candidate_index: index,
            candidate_path: format!("mods/c{index}.js"),
            round: 1,
            passed: error.is_none() && score == passed.len(),
            score,
            max_score: passed.len(),
            visible_score: score,
            visible_max_score: passed.len(),
            hidden_score: 0,
            hidden_max_score: 0,
            error: error.map(str::to_owned),
            diagnostics: vec![],
            visible_diagnostics: vec![],
            scenarios,
            artifacts_dir: String::new(),
            duration_ms: 0,
            proposal: None,
            eval: None,
        }
    }

    #[test]
    fn grid_marks_passes_failures_and_candidates_never_evaluated() {
        let report = RunReport {
            kind: "modlearn_run_report".into(),
            version: 1,
            spec: SpecSummary { name: "s <x>".into(), slug: "s".into(), path: "s.json".into(), scenarios: 1, host: "Pi 1.6.0".into() },
            passed: true,
            score: 2,
            max_score: 2,
            selected: None,
            promoted_to: None,
            attempts: vec![attempt(1, &[true, true], None), attempt(2, &[true, false], None), attempt(3, &[false, false], Some("no code"))],
            learning: None,
        };
        let html = render_run_html(&report);
        assert!(html.contains("<title>modlearn report: s &lt;x&gt;</title>"));
        assert_eq!(html.matches(">✓</text>").count(), 3);
        assert_eq!(html.matches(">✗</text>").count(), 1);
        assert_eq!(html.matches(">!</text>").count(), 2, "both checks of the unevaluated candidate are not judged, not failed");
        assert!(html.contains("#3 c3.js: not judged: no code"));
        assert!(html.contains("#2 c2.js: loads › 2. mod_loads: failed &lt;here&gt;"));
        assert!(!html.contains("Usage and cost"), "no usage section without a model");
        assert!(!html.contains("<script"));
        assert!(!html.contains("Eval model"), "no eval section without an eval model");
    }

    #[test]
    fn eval_model_cost_is_shown_apart_from_proposals() {
        let eval = |cost_usd| modlearn_types::EvalUsage {
            model: "openai:agent".into(),
            sessions: 1,
            turns: 2,
            cached_turns: 1,
            input_tokens: 2200,
            output_tokens: 60,
            cost_usd,
        };
        let mut first = attempt(1, &[true], None);
        first.eval = Some(eval(0.0012));
        let mut second = attempt(2, &[false], None);
        second.eval = Some(eval(0.0030));
        let mut report = RunReport {
            kind: "modlearn_run_report".into(),
            version: 1,
            spec: SpecSummary { name: "s".into(), slug: "s".into(), path: "s.json".into(), scenarios: 1, host: String::new() },
            passed: true,
            score: 1,
            max_score: 1,
            selected: None,
            promoted_to: None,
            attempts: vec![first, second, attempt(3, &[false], Some("no code"))],
            learning: None,
        };
        let html = render_run_html(&report);
        assert!(
            html.contains("openai:agent (the agent of prompt scenarios): 2 session(s), 4 turn(s) (2 cached), 4400 tokens in, 120 out, $0.0042 (eval cost, apart from proposals)"),
            "{html}"
        );
        assert!(html.contains("Eval model usage and cost"), "{html}");
        assert!(html.contains("Eval cost per candidate (USD)"), "{html}");
        assert!(html.contains(">$0.0030</text>"), "{html}");

        // Unpriced eval turns: the table stays, the all-zero chart goes.
        for attempt in &mut report.attempts {
            if let Some(eval) = &mut attempt.eval {
                eval.cost_usd = 0.0;
            }
        }
        let html = render_run_html(&report);
        assert!(html.contains("Eval model usage and cost"));
        assert!(!html.contains("Eval cost per candidate"));
    }
}
