//! `leaderboard.html`: one self-contained page (inline SVG, inline style,
//! no script, nothing fetched) with the ranking as bar charts, a spec ×
//! model heat map and the tables of the Markdown report.

use modlearn_record::html::{Bar, BarChart, Color, HeatCell, HeatMap, LegendEntry, Page, Table};

use super::{difference, percent, summary, usd};
use crate::Leaderboard;

/// Renders `leaderboard.html`.
pub fn render_html(leaderboard: &Leaderboard) -> String {
    let mut pass_chart = BarChart::new("First-candidate pass rate per model").max(1.0);
    let k_last = *leaderboard.k.last().unwrap_or(&1);
    let mut pass_at_k_chart = BarChart::new(&format!("pass@{k_last} per model")).max(1.0);
    let mut cost_chart = BarChart::new("Cost per passing mod (USD)");
    for (index, row) in leaderboard.models.iter().enumerate() {
        let color = Color::series(index);
        pass_chart = pass_chart.bar(Bar::new(&row.model, row.first_pass_rate).value_label(&percent(row.first_pass_rate)).color(color));
        let at_k = row.pass_at_k.last().copied().unwrap_or(0.0);
        pass_at_k_chart = pass_at_k_chart.bar(Bar::new(&row.model, at_k).value_label(&percent(at_k)).color(color));
        cost_chart = cost_chart
            .bar(Bar::new(&row.model, row.cost_per_passing_mod.unwrap_or(0.0)).value_label(&usd(row.cost_per_passing_mod)).color(color));
    }
    let spec_names: Vec<&str> = leaderboard.specs.iter().map(|spec| spec.spec.as_str()).collect();
    let mut heat = HeatMap::new("First-candidate pass rate per spec", &spec_names).legend(LegendEntry::ratio_scale());
    for row in &leaderboard.models {
        let cells = leaderboard
            .specs
            .iter()
            .map(|spec| match spec.cells.iter().find(|cell| cell.model == row.model) {
                Some(cell) if cell.jobs > 0 => HeatCell::ratio(
                    cell.first_pass_rate,
                    &percent(cell.first_pass_rate),
                    &format!(
                        "{} on {}: first candidate passes in {}, mean best score {:.3}",
                        row.model,
                        spec.spec,
                        percent(cell.first_pass_rate),
                        cell.mean_best_score
                    ),
                ),
                _ => HeatCell::empty(&format!("{} on {}: not run", row.model, spec.spec)),
            })
            .collect();
        heat = heat.row(&row.model, cells);
    }

    let mut headers = vec!["#".to_owned(), "model".to_owned(), "first candidate passes".to_owned()];
    headers.extend(leaderboard.k.iter().map(|k| format!("pass@{k}")));
    headers.extend(["mean best score", "tokens in / out", "cost", "cost per passing mod"].map(str::to_owned));
    let mut table = Table::new(&headers);
    for column in [0, 2, 3, 4, 5, 6, 7, 8] {
        if column < headers.len() {
            table = table.numeric_column(column);
        }
    }
    for row in &leaderboard.models {
        let mut cells = vec![row.rank.to_string(), row.model.clone(), percent(row.first_pass_rate)];
        cells.extend(row.pass_at_k.iter().map(|&value| percent(value)));
        cells.push(format!("{:.3}", row.mean_best_score));
        cells.push(format!("{} / {}", row.input_tokens, row.output_tokens));
        cells.push(usd(Some(row.cost_usd)));
        cells.push(usd(row.cost_per_passing_mod));
        table = table.row(&cells);
    }
    let mut pairs = Table::new(&["first", "second", "items", "only first", "only second", "McNemar p", "difference (95% CI)", "verdict"]);
    for pair in &leaderboard.pairs {
        pairs = pairs.row(&[
            pair.first.clone(),
            pair.second.clone(),
            pair.items.to_string(),
            pair.first_only.to_string(),
            pair.second_only.to_string(),
            format!("{:.4}", pair.mcnemar_p),
            difference(pair),
            pair.verdict.clone(),
        ]);
    }

    // The verdict first: who ranks first and what the paired tests say, before any chart.
    let mut page = Page::new("Model comparison").heading(2, "Verdict");
    if let Some(best) = leaderboard.models.first() {
        page = page.paragraph(&format!(
            "Ranked first: {} (first candidate passes {}, mean best score {:.3}).",
            best.model,
            percent(best.first_pass_rate),
            best.mean_best_score
        ));
    }
    for pair in &leaderboard.pairs {
        page = page.paragraph(&format!("{} vs {}: {}; difference {}.", pair.first, pair.second, pair.verdict, difference(pair)));
    }
    page = page
        .note(&summary(leaderboard))
        .heading(2, "Pass rate")
        .markup(pass_chart.render())
        .markup(pass_at_k_chart.render())
        .heading(2, "Cost")
        .markup(cost_chart.render())
        .heading(2, "Per spec")
        .markup(heat.render())
        .heading(2, "Leaderboard")
        .table(&table)
        .heading(2, "Paired comparisons");
    page = if leaderboard.pairs.is_empty() {
        page.note("One model only: nothing to pair.")
    } else {
        page.table(&pairs).note("Items are the checks of each spec and repeat, judged on both models' first candidates; the verdict is McNemar's exact test alone (on the items only one model passes, significant at p < 0.05); the paired bootstrap interval of the check pass-rate difference says how large the difference is and does not decide the verdict.")
    };
    page.render()
}
