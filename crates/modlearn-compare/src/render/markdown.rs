//! `leaderboard.md`: the ranking, per-spec results, the paired tests and
//! timings, in that order.

use std::fmt::Write as _;

use super::{difference, percent, summary, usd};
use crate::Leaderboard;

/// Renders `leaderboard.md`.
pub fn render_markdown(leaderboard: &Leaderboard) -> String {
    let mut out = String::from("# Model comparison\n\n");
    let _ = writeln!(out, "{}\n", summary(leaderboard));
    let k_headers: Vec<String> = leaderboard.k.iter().map(|k| format!("pass@{k}")).collect();

    out.push_str("## Leaderboard\n\n");
    let _ = writeln!(
        out,
        "| # | model | first candidate passes | {} | selected passes | mean best score | candidates (passing) | tokens in / out | cost | cost per passing mod |",
        k_headers.join(" | ")
    );
    let _ = writeln!(out, "|---|---|---|{}---|---|---|---|---|---|", "---|".repeat(k_headers.len()));
    for row in &leaderboard.models {
        if row.jobs == 0 {
            // No evidence is not 0%.
            let _ = writeln!(out, "| {} | `{}` | no finished job |{}", row.rank, row.model, " |".repeat(k_headers.len() + 6));
            continue;
        }
        let pass_at_k: Vec<String> = row.pass_at_k.iter().map(|&value| percent(value)).collect();
        let _ = writeln!(
            out,
            "| {} | `{}` | {} | {} | {} | {:.3} | {} ({}) | {} / {} | {} | {} |",
            row.rank,
            row.model,
            percent(row.first_pass_rate),
            pass_at_k.join(" | "),
            percent(row.run_pass_rate),
            row.mean_best_score,
            row.candidates,
            row.passing_candidates,
            row.input_tokens,
            row.output_tokens,
            usd(Some(row.cost_usd)),
            usd(row.cost_per_passing_mod),
        );
    }

    out.push_str("\n## Per spec\n\nFirst-candidate pass rate, then mean best score (score / max score).\n\n");
    let models: Vec<&str> = leaderboard.models.iter().map(|row| row.model.as_str()).collect();
    let _ = writeln!(out, "| spec | {} |", models.iter().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(" | "));
    let _ = writeln!(out, "|---|{}", "---|".repeat(models.len()));
    for spec in &leaderboard.specs {
        let cells: Vec<String> = spec
            .cells
            .iter()
            .map(|cell| {
                if cell.jobs == 0 {
                    "not run".to_owned()
                } else {
                    format!("{} ({:.3})", percent(cell.first_pass_rate), cell.mean_best_score)
                }
            })
            .collect();
        let _ = writeln!(out, "| `{}` | {} |", spec.spec, cells.join(" | "));
    }

    out.push_str("\n## Paired comparisons\n\n");
    if leaderboard.pairs.is_empty() {
        out.push_str("One model only: nothing to pair.\n");
    } else {
        let _ = writeln!(
            out,
            "Each item is one check of one spec and repeat, judged on both models' first candidates. The verdict is \
             McNemar's exact test alone (on the items only one model passes, significant at p < 0.05); the interval is a \
             paired bootstrap ({} resamples of whole (spec, repeat) clusters, seed {}) of the check pass-rate difference, \
             which says how large the difference is and does not decide the verdict.\n",
            leaderboard.bootstrap.resamples, leaderboard.bootstrap.seed
        );
        out.push_str(
            "| first | second | items | both pass | only first | only second | neither | McNemar p | difference (95% CI) | verdict |\n",
        );
        out.push_str("|---|---|---|---|---|---|---|---|---|---|\n");
        for pair in &leaderboard.pairs {
            let _ = writeln!(
                out,
                "| `{}` | `{}` | {} | {} | {} | {} | {} | {:.4} | {} | {} |",
                pair.first,
                pair.second,
                pair.items,
                pair.both_pass,
                pair.first_only,
                pair.second_only,
                pair.neither_pass,
                pair.mcnemar_p,
                difference(pair),
                pair.verdict
            );
        }
    }

    out.push_str("\n## Timings\n\n| model | mean model latency | mean evaluation |\n|---|---|---|\n");
    for timing in &leaderboard.timings.models {
        let _ = writeln!(out, "| `{}` | {:.0} ms | {:.1} ms |", timing.model, timing.mean_latency_ms, timing.mean_evaluation_ms);
    }
    out
}
