//! What the eval model (the agent of prompt scenarios) cost, for `report.html`: kept apart from
//! the proposals' usage, as `report.md` keeps it.

use modlearn_types::{Attempt, EvalUsage, RunReport};

use crate::html::{Bar, BarChart, Color, Markup, Table};

/// The eval model's usage summed over some attempts.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct EvalTotals {
    pub(super) sessions: usize,
    pub(super) turns: usize,
    pub(super) cached_turns: usize,
    pub(super) input_tokens: u64,
    pub(super) output_tokens: u64,
    pub(super) cost_usd: f64,
}

impl EvalTotals {
    /// The sum over `attempts`; `None` when none of them used the eval model.
    pub(super) fn of<'a>(attempts: impl IntoIterator<Item = &'a Attempt>) -> Option<EvalTotals> {
        let usages: Vec<&EvalUsage> = attempts.into_iter().filter_map(|attempt| attempt.eval.as_ref()).collect();
        (!usages.is_empty()).then(|| EvalTotals {
            sessions: usages.iter().map(|eval| eval.sessions).sum(),
            turns: usages.iter().map(|eval| eval.turns).sum(),
            cached_turns: usages.iter().map(|eval| eval.cached_turns).sum(),
            input_tokens: usages.iter().map(|eval| eval.input_tokens).sum(),
            output_tokens: usages.iter().map(|eval| eval.output_tokens).sum(),
            cost_usd: usages.iter().map(|eval| eval.cost_usd).sum(),
        })
    }

    /// The eval usage of the attempts of `round`, zero when it has none.
    pub(super) fn of_round(report: &RunReport, round: u32) -> EvalTotals {
        EvalTotals::of(report.attempts.iter().filter(|attempt| attempt.round == round)).unwrap_or_default()
    }
}

/// The summary row's text: the model and its spending over the run, or `None` without one.
pub(super) fn summary(report: &RunReport) -> Option<String> {
    let model = report.attempts.iter().find_map(|attempt| attempt.eval.as_ref())?.model.clone();
    let totals = EvalTotals::of(&report.attempts)?;
    Some(format!(
        "{model} (the agent of prompt scenarios): {} session(s), {} turn(s) ({} cached), {} tokens in, {} out, ${:.4} (eval cost, apart from proposals)",
        totals.sessions, totals.turns, totals.cached_turns, totals.input_tokens, totals.output_tokens, totals.cost_usd
    ))
}

/// For a run without rounds (`modlearn eval`): the eval model's usage per candidate, and its
/// cost per candidate as bars when it cost anything.
pub(super) fn per_candidate(report: &RunReport) -> Option<(Table, Option<Markup>)> {
    let total = EvalTotals::of(&report.attempts)?;
    let mut table = Table::new(&["#", "Candidate", "Sessions", "Turns", "Cached turns", "Tokens in", "Tokens out", "Eval cost"]);
    for column in [0, 2, 3, 4, 5, 6, 7] {
        table = table.numeric_column(column);
    }
    let mut chart = BarChart::new("Eval cost per candidate (USD)");
    for attempt in &report.attempts {
        let Some(eval) = &attempt.eval else { continue };
        let name = attempt.candidate_path.rsplit(['/', '\\']).next().unwrap_or(&attempt.candidate_path);
        table = table.row(&[
            attempt.candidate_index.to_string(),
            attempt.candidate_path.clone(),
            eval.sessions.to_string(),
            eval.turns.to_string(),
            eval.cached_turns.to_string(),
            eval.input_tokens.to_string(),
            eval.output_tokens.to_string(),
            format!("${:.4}", eval.cost_usd),
        ]);
        let label = format!("#{} {name}", attempt.candidate_index);
        chart = chart.bar(Bar::new(&label, eval.cost_usd).value_label(&format!("${:.4}", eval.cost_usd)).color(eval_color()));
    }
    // Unpriced or cached turns cost nothing: an all-zero chart would say nothing.
    Some((table, (total.cost_usd > 0.0).then(|| chart.render())))
}

/// The colour of eval-model bars, apart from the proposals' cost bars (series 1).
pub(super) fn eval_color() -> Color {
    Color::series(2)
}
