//! Terminal output: colour (`--color`, `NO_COLOR`), progress (a ticking bar on
//! a terminal, one line per event otherwise) and tables that fit the width.

use std::io::IsTerminal;
use std::path::Path;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use modlearn_types::{Attempt, RunReport};
use tabled::builder::Builder;
use tabled::settings::Style;

use crate::cli::ColorChoice;

static COLOR: OnceLock<ColorChoice> = OnceLock::new();

/// Sets `--color` once, before anything is printed.
pub fn init_color(choice: ColorChoice) {
    let _ = COLOR.set(choice);
}

/// Which stream a text goes to: colour is decided per stream.
#[derive(Clone, Copy)]
pub enum Stream {
    Stdout,
    Stderr,
}

/// Whether to colour what goes to `stream`: `--color always|never` decide;
/// `auto` colours a terminal unless `NO_COLOR` is set to something.
pub fn color_on(stream: Stream) -> bool {
    match COLOR.get().copied().unwrap_or(ColorChoice::Auto) {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            let no_color = std::env::var_os("NO_COLOR").is_some_and(|value| !value.is_empty());
            let terminal = match stream {
                Stream::Stdout => std::io::stdout().is_terminal(),
                Stream::Stderr => std::io::stderr().is_terminal(),
            };
            terminal && !no_color
        }
    }
}

/// What a piece of text means, hence its colour.
#[derive(Clone, Copy)]
pub enum Tone {
    Pass,
    Fail,
    Error,
    Added,
    Removed,
    Dim,
}

/// `text` in the colour of `tone` when `on`.
pub fn paint(text: &str, tone: Tone, on: bool) -> String {
    if !on {
        return text.to_owned();
    }
    let code = match tone {
        Tone::Pass | Tone::Added => "32",
        Tone::Fail | Tone::Removed => "31",
        Tone::Error => "1;33",
        Tone::Dim => "2",
    };
    format!("\x1b[{code}m{text}\x1b[0m")
}

/// The tone of a result word (PASS, FAIL, ERROR and the mutant verdicts).
fn tone_of(word: &str) -> Option<Tone> {
    match word {
        "PASS" | "KILLED" | "ok" => Some(Tone::Pass),
        "FAIL" | "SURVIVED" => Some(Tone::Fail),
        "ERROR" => Some(Tone::Error),
        _ => None,
    }
}

/// Colours every table cell that holds only a result word; the padding is
/// kept, so the columns stay aligned.
pub fn color_cells(table: &str, on: bool) -> String {
    if !on {
        return table.to_owned();
    }
    let mut out = String::with_capacity(table.len() + 64);
    for line in table.split_inclusive('\n') {
        let pieces: Vec<&str> = line.split('│').collect();
        let painted: Vec<String> = pieces
            .iter()
            .map(|cell| match tone_of(cell.trim()) {
                Some(tone) => cell.replacen(cell.trim(), &paint(cell.trim(), tone, true), 1),
                None => (*cell).to_owned(),
            })
            .collect();
        out.push_str(&painted.join("│"));
    }
    out
}

/// Colours a drift listing: `+ ` lines added (green), `- ` removed (red),
/// `~ ` changed (yellow), by their first non-blank characters.
pub fn color_diff(text: &str, on: bool) -> String {
    if !on {
        return text.to_owned();
    }
    text.split_inclusive('\n')
        .map(|line| {
            let body = line.trim_end_matches('\n');
            let ending = &line[body.len()..];
            let tone = match body.trim_start().get(..2) {
                Some("+ ") => Some(Tone::Added),
                Some("- ") => Some(Tone::Removed),
                Some("~ ") => Some(Tone::Error),
                _ => None,
            };
            match tone {
                Some(tone) => format!("{}{ending}", paint(body, tone, true)),
                None => line.to_owned(),
            }
        })
        .collect()
}

/// The width tables must fit: the terminal's, else `COLUMNS`, else 80.
pub fn width(stream: Stream) -> usize {
    let size = match stream {
        Stream::Stdout if std::io::stdout().is_terminal() => terminal_size::terminal_size_of(std::io::stdout()),
        Stream::Stderr if std::io::stderr().is_terminal() => terminal_size::terminal_size_of(std::io::stderr()),
        _ => None,
    };
    size.map(|(terminal_size::Width(w), _)| w as usize)
        .or_else(|| std::env::var("COLUMNS").ok().and_then(|c| c.trim().parse().ok()))
        .filter(|&w| w >= 20)
        .unwrap_or(80)
}

/// A table column: its header, its cells, and whether it may wrap.
pub struct Column {
    pub header: &'static str,
    pub cells: Vec<String>,
    /// May break after `/`, `, ` and spaces when the table is too wide.
    pub wraps: bool,
}

impl Column {
    pub fn new(header: &'static str, cells: Vec<String>) -> Column {
        Column { header, cells, wraps: false }
    }

    pub fn wrapping(header: &'static str, cells: Vec<String>) -> Column {
        Column { header, cells, wraps: true }
    }
}

/// Renders `columns` as a box table of at most `width` characters when it can:
/// the widest wrapping column is wrapped first, at path separators and words.
pub fn table(mut columns: Vec<Column>, width: usize) -> String {
    let text_width = |text: &str| text.lines().map(|line| line.chars().count()).max().unwrap_or(0);
    let column_width = |column: &Column| column.cells.iter().map(|cell| text_width(cell)).chain([column.header.len()]).max().unwrap_or(0);
    let mut stuck = vec![false; columns.len()];
    // Each narrowing wraps the cells as written, so lines broken for a wider try join again.
    let written: Vec<Vec<String>> = columns.iter().map(|column| column.cells.clone()).collect();
    loop {
        // Each column has a space either side and a border on its right; one more border on the left.
        let total: usize = columns.iter().map(|column| column_width(column) + 3).sum::<usize>() + 1;
        if total <= width {
            break;
        }
        let Some(index) = (0..columns.len()).filter(|&i| columns[i].wraps && !stuck[i]).max_by_key(|&i| column_width(&columns[i])) else {
            break;
        };
        // One character narrower at a time, always the widest column: the
        // columns end up about even instead of one cut to the bone.
        let current = column_width(&columns[index]);
        let target = (current - 1).max(columns[index].header.len());
        let wrapped: Vec<String> = written[index].iter().map(|cell| wrap(cell, target)).collect();
        let new_width = wrapped.iter().map(|cell| text_width(cell)).max().unwrap_or(0).max(columns[index].header.len());
        if new_width >= current {
            stuck[index] = true;
        } else {
            columns[index].cells = wrapped;
        }
    }
    let mut builder = Builder::default();
    builder.push_record(columns.iter().map(|column| column.header.to_owned()));
    let rows = columns.first().map_or(0, |column| column.cells.len());
    for row in 0..rows {
        builder.push_record(columns.iter().map(|column| column.cells[row].clone()));
    }
    let mut table = builder.build();
    table.with(Style::sharp());
    format!("{table}\n")
}

/// Greedy line breaking after `/`, `_`, `,` and spaces, each line of `text` on its own; a piece
/// longer than `width` stays whole.
fn wrap(text: &str, width: usize) -> String {
    text.lines().map(|line| wrap_line(line, width)).collect::<Vec<_>>().join("\n")
}

fn wrap_line(text: &str, width: usize) -> String {
    let mut pieces: Vec<String> = Vec::new();
    let mut piece = String::new();
    for c in text.chars() {
        piece.push(c);
        if matches!(c, '/' | '_' | ' ' | ',') {
            pieces.push(std::mem::take(&mut piece));
        }
    }
    if !piece.is_empty() {
        pieces.push(piece);
    }
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for piece in pieces {
        // The line as it would be printed with the piece: its trailing space stays between them.
        if !line.is_empty() && line.chars().count() + piece.trim_end().chars().count() > width {
            lines.push(line.trim_end().to_owned());
            line = piece.trim_start().to_owned();
        } else {
            line.push_str(&piece);
        }
    }
    if !line.trim().is_empty() {
        lines.push(line.trim_end().to_owned());
    }
    lines.join("\n")
}

/// Progress on stderr. On a terminal a bar whose spinner and clock tick on
/// their own (so a long wait for a model does not look frozen), with lines
/// printed above it; otherwise (with `lines`) one line per event, for logs.
#[derive(Clone)]
pub struct Progress {
    bar: ProgressBar,
    lines: bool,
    color: bool,
    started: Instant,
}

impl Progress {
    /// A bar only: nothing is printed without a terminal.
    pub fn bar(total: usize, message: &str) -> Progress {
        Progress::build(total, message, false)
    }

    /// A bar on a terminal, one line per event without one.
    pub fn with_lines(total: usize, message: &str) -> Progress {
        Progress::build(total, message, true)
    }

    fn build(total: usize, message: &str, lines: bool) -> Progress {
        let color = color_on(Stream::Stderr);
        if !std::io::stderr().is_terminal() {
            return Progress { bar: ProgressBar::hidden(), lines, color, started: Instant::now() };
        }
        let bar = ProgressBar::new(total as u64);
        bar.set_style(
            ProgressStyle::with_template("{spinner} {msg} [{bar:30}] {pos}/{len} {elapsed}").expect("valid template").progress_chars("=> "),
        );
        bar.set_message(message.to_owned());
        // Redraws without events: a proposal can take minutes.
        bar.enable_steady_tick(Duration::from_millis(120));
        Progress { bar, lines: true, color, started: Instant::now() }
    }

    /// Prints a line above the bar (or on its own without a terminal).
    pub fn line(&self, text: &str) {
        if !self.lines {
            return;
        }
        if self.bar.is_hidden() {
            eprintln!("{text}");
        } else {
            self.bar.println(text);
        }
    }

    /// Says what is going on now: the bar's message; a line without a terminal.
    pub fn status(&self, text: &str) {
        if self.bar.is_hidden() {
            self.line(text);
        } else {
            self.bar.set_message(text.to_owned());
        }
    }

    /// One more item done.
    pub fn inc(&self) {
        self.bar.inc(1);
    }

    /// A judged candidate: its line, and one more done.
    pub fn candidate(&self, attempt: &Attempt) {
        self.line(&candidate_line(attempt, self.started.elapsed(), self.color));
        self.inc();
    }

    /// A finished round: `attempts` are all candidates so far.
    pub fn round_done(&self, round: u32, rounds: u32, attempts: &[Attempt]) {
        let this: Vec<&Attempt> = attempts.iter().filter(|attempt| attempt.round == round).collect();
        // A candidate with an error (no answer, no code) was never judged.
        let judged: Vec<&&Attempt> = this.iter().filter(|attempt| attempt.error.is_none()).collect();
        let passed = judged.iter().filter(|attempt| attempt.passed).count();
        let best = judged.iter().max_by_key(|attempt| attempt.score).map_or("-".to_owned(), |a| format!("{}/{}", a.score, a.max_score));
        let not_judged = this.len() - judged.len();
        let errors = if not_judged > 0 { format!(", {not_judged} not judged") } else { String::new() };
        self.line(&format!(
            "  round {round}/{rounds} [{}] {} judged{errors}, {passed} passed, best {best}",
            clock(self.started.elapsed()),
            judged.len()
        ));
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

fn clock(elapsed: Duration) -> String {
    format!("{:>6.1}s", elapsed.as_secs_f64())
}

/// `   FAIL [   0.4s] #3 9/11 candidates/003/mods/uv-pip.ts (from cache)`, with the reason of an error.
fn candidate_line(attempt: &Attempt, elapsed: Duration, color: bool) -> String {
    let word = result_word(attempt);
    let tone = tone_of(word).unwrap_or(Tone::Dim);
    let mut line = format!(
        "  {} [{}] #{} {}/{} {}",
        paint(&format!("{word:>5}"), tone, color),
        clock(elapsed),
        attempt.candidate_index,
        attempt.score,
        attempt.max_score,
        attempt.candidate_path
    );
    if attempt.proposal.as_ref().is_some_and(|proposal| proposal.cached) {
        line.push_str(" (from cache)");
    }
    if let Some(error) = &attempt.error {
        line.push_str(": ");
        line.push_str(&printable(error.lines().next().unwrap_or(""), 160));
    }
    line
}

/// A single line without control characters (a model's text may hold
/// escapes that would take over the terminal), cut to `max` characters.
pub fn printable(text: &str, max: usize) -> String {
    let clean: String = text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    if clean.chars().count() <= max {
        return clean;
    }
    let cut: String = clean.chars().take(max.saturating_sub(1)).collect();
    format!("{cut}…")
}

fn result_word(attempt: &Attempt) -> &'static str {
    attempt.result_word()
}

/// The summary table of a run, then the selection and where the reports are.
pub fn summary(report: &RunReport, run_dir: &Path) -> String {
    let color = color_on(Stream::Stdout);
    let selected = report.selected.as_ref().map(|s| s.candidate_index);
    let attempts = &report.attempts;
    let marker = |attempt: &Attempt| {
        let index = attempt.candidate_index;
        if Some(index) == selected { format!("*{index}") } else { index.to_string() }
    };
    let faults = |attempt: &Attempt| {
        // A candidate that was not judged has no diagnostics: say why instead.
        if let Some(error) = &attempt.error {
            return shorten(&terminal_safe(error), 60);
        }
        let mut faults: Vec<String> = attempt.diagnostics.iter().map(|d| format!("{}/{}", d.phase, d.fault.as_str())).collect();
        faults.dedup();
        if faults.is_empty() { "-".to_owned() } else { faults.join(", ") }
    };
    let cells = |f: &dyn Fn(&Attempt) -> String| attempts.iter().map(f).collect::<Vec<String>>();
    let score = |attempt: &Attempt| format!("{}/{}", attempt.score, attempt.max_score);
    let result = |attempt: &Attempt| result_word(attempt).to_owned();
    let columns = if report.learning.is_some() {
        // Every candidate of a run lives at candidates/NNN/mods/<file>: `#` says which, and the
        // path column is left out so the table fits 80 columns.
        let mut columns = vec![Column::new("#", cells(&marker))];
        if report.learning.as_ref().is_some_and(|learning| learning.rounds_planned > 1) {
            columns.push(Column::new("round", cells(&|a| a.round.to_string())));
        }
        columns.extend([
            Column::new("result", cells(&result)),
            Column::new("score", cells(&score)),
            Column::new(
                "tokens in/out",
                cells(&|a| a.proposal.as_ref().map_or("-".to_owned(), |p| format!("{}/{}", p.input_tokens, p.output_tokens))),
            ),
            Column::new("cost", cells(&|a| a.proposal.as_ref().map_or("-".to_owned(), |p| format!("${:.4}", p.cost_usd)))),
            Column::wrapping("diagnostics", cells(&faults)),
        ]);
        columns
    } else {
        let mut columns = vec![
            Column::new("#", cells(&marker)),
            Column::wrapping("candidate", cells(&|a| terminal_safe(&a.candidate_path))),
            Column::new("result", cells(&result)),
            Column::new("score", cells(&score)),
        ];
        // Without hidden scenarios the column would say `-` on every row.
        if attempts.iter().any(|a| a.hidden_max_score > 0) {
            columns.push(Column::new("hidden", cells(&|a| format!("{}/{}", a.hidden_score, a.hidden_max_score))));
        }
        columns.push(Column::wrapping("diagnostics", cells(&faults)));
        columns
    };
    let mut out = color_cells(&table(columns, width(Stream::Stdout)), color);
    if let Some(learning) = &report.learning {
        let usage = &learning.usage;
        out.push_str(&format!(
            "model: {}; rounds: {} of {}; stopped: {}; {} proposal(s), {} tokens in, {} out, ${:.4}\n",
            learning.model,
            learning.rounds_run,
            learning.rounds_planned,
            learning.stopped,
            usage.proposals,
            usage.input_tokens,
            usage.output_tokens,
            usage.cost_usd
        ));
    }
    let not_judged: Vec<&Attempt> = attempts.iter().filter(|attempt| attempt.error.is_some()).collect();
    if let Some(first) = not_judged.first() {
        out.push_str(&format!(
            "not judged: {} of {} candidate(s); candidate {}: {}\n",
            not_judged.len(),
            attempts.len(),
            first.candidate_index,
            terminal_safe(first.error.as_deref().unwrap_or_default())
        ));
    }
    match &report.selected {
        None if !attempts.is_empty() && not_judged.len() == attempts.len() => {
            out.push_str("selected: none (no candidate could be judged)\n")
        }
        Some(chosen) => {
            let (word, tone) = if report.passed { ("PASS", Tone::Pass) } else { ("FAIL", Tone::Fail) };
            out.push_str(&format!(
                "selected: candidate {} `{}`: {} {}/{}\n",
                chosen.candidate_index,
                terminal_safe(&openable(report, run_dir, &chosen.candidate_path)),
                paint(word, tone, color),
                report.score,
                report.max_score
            ));
        }
        None => out.push_str("selected: none\n"),
    }
    if let Some(promoted) = &report.promoted_to {
        out.push_str(&format!("promoted: `{promoted}`\n"));
    }
    out.push_str(&format!("report: {}\n", run_dir.join("report.md").display()));
    out.push_str(&format!("        {}\n", run_dir.join("report.html").display()));
    out
}

/// `path` as it opens from where the user stands: a run's candidates are recorded relative to
/// its run directory, an eval's as the user gave them.
fn openable(report: &RunReport, run_dir: &Path, path: &str) -> String {
    if report.learning.is_some() { run_dir.join(path).display().to_string() } else { path.to_owned() }
}

/// Whose failed checks the terminal shows under the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failures {
    /// Every failing candidate's (`eval`: the user's own files).
    OfEach,
    /// The selected candidate's, when it failed (`run`: the one the user would take).
    OfSelected,
}

/// The most failed checks shown per candidate, and candidates shown; report.md has them all.
const CHECKS_SHOWN: usize = 8;
const CANDIDATES_SHOWN: usize = 10;

/// Under the table, as cargo and nextest print failures: each failing candidate (that was
/// judged) and its failed checks, one line each with what was expected against what happened.
pub fn failed_checks(report: &RunReport, run_dir: &Path, failures: Failures) -> String {
    let color = color_on(Stream::Stdout);
    let selected = report.selected.as_ref().map(|chosen| chosen.candidate_index);
    let failing: Vec<&Attempt> = report
        .attempts
        .iter()
        .filter(|attempt| !attempt.passed && attempt.error.is_none())
        .filter(|attempt| failures == Failures::OfEach || Some(attempt.candidate_index) == selected)
        .collect();
    let columns = width(Stream::Stdout).max(40);
    let mut out = String::new();
    for attempt in failing.iter().take(CANDIDATES_SHOWN) {
        let failed: Vec<(&str, &modlearn_types::CheckResult)> = attempt
            .scenarios
            .iter()
            .flat_map(|scenario| scenario.checks.iter().filter(|check| check.failed()).map(move |check| (scenario.name.as_str(), check)))
            .collect();
        out.push_str(&format!(
            "\n{} candidate {} `{}`: {}/{}, {} check(s) failed\n",
            paint("FAIL", Tone::Fail, color),
            attempt.candidate_index,
            terminal_safe(&openable(report, run_dir, &attempt.candidate_path)),
            attempt.score,
            attempt.max_score,
            failed.len()
        ));
        for (scenario, check) in failed.iter().take(CHECKS_SHOWN) {
            let line = format!("{} › {}: {}", terminal_safe(scenario), terminal_safe(&check.label), terminal_safe(&check.message));
            for (index, part) in wrapped(&line, columns - 4, MESSAGE_LINES).iter().enumerate() {
                out.push_str(if index == 0 { "  " } else { "    " });
                out.push_str(part);
                out.push('\n');
            }
        }
        if failed.len() > CHECKS_SHOWN {
            out.push_str(&format!("  ... and {} more in report.md\n", failed.len() - CHECKS_SHOWN));
        }
    }
    if failing.len() > CANDIDATES_SHOWN {
        out.push_str(&format!("\n... and {} more failing candidate(s) in report.md\n", failing.len() - CANDIDATES_SHOWN));
    }
    out
}

/// Lines a failed check's message may take under the table.
const MESSAGE_LINES: usize = 3;

/// `text` (one line) in lines of at most `width` characters, broken at spaces where it can be,
/// at most `lines` of them (an ellipsis marks a cut).
fn wrapped(text: &str, width: usize, lines: usize) -> Vec<String> {
    let width = width.max(20);
    let mut out: Vec<String> = Vec::new();
    let mut rest: Vec<char> = text.chars().collect();
    while !rest.is_empty() {
        if out.len() + 1 == lines && rest.len() > width {
            let cut: String = rest[..width - 1].iter().collect();
            out.push(format!("{}…", cut.trim_end()));
            break;
        }
        if rest.len() <= width {
            out.push(rest.iter().collect());
            break;
        }
        let at = rest[..=width].iter().rposition(|c| *c == ' ').filter(|&at| at > width / 2).unwrap_or(width);
        out.push(rest[..at].iter().collect::<String>().trim_end().to_owned());
        rest = rest[at..].iter().copied().skip_while(|c| *c == ' ').collect();
    }
    out
}

/// `text` without control characters (ANSI escapes, carriage returns, bells): reasons and paths
/// can carry a server's or a mod's text, which must not drive the terminal.
pub fn terminal_safe(text: &str) -> String {
    modlearn_types::untrusted::plain_text(text)
}

/// The first line of `text`, at most `max` characters (an ellipsis marks a cut).
fn shorten(text: &str, max: usize) -> String {
    let line = text.lines().next().unwrap_or_default();
    if line.chars().count() <= max && !text.contains('\n') {
        return line.to_owned();
    }
    let cut: String = line.chars().take(max.saturating_sub(1)).collect();
    format!("{cut}…")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_breaks_after_separators_and_keeps_long_pieces_whole() {
        assert_eq!(wrap("candidates/uv-pip/partial-deprecated-status.js", 20), "candidates/uv-pip/\npartial-deprecated-status.js");
        assert_eq!(wrap("event/exception, load/syntax", 16), "event/exception,\nload/syntax");
        assert_eq!(wrap("short", 20), "short");
    }

    #[test]
    fn tables_fit_the_width_by_wrapping_the_widest_wrapping_column() {
        let columns = vec![
            Column::new("#", vec!["1".into()]),
            Column::wrapping("candidate", vec!["candidates/uv-pip/partial-deprecated-status.js".into()]),
            Column::wrapping("diagnostics", vec!["deprecated_api/deprecated".into()]),
        ];
        let table = table(columns, 60);
        assert!(table.lines().all(|line| line.chars().count() <= 60), "{table}");
        assert!(table.contains("partial-deprecated-status.js"), "{table}");
    }

    #[test]
    fn colour_keeps_the_columns_aligned() {
        let plain = "│ 1 │ PASS   │\n│ 2 │ ERROR  │\n";
        let colored = color_cells(plain, true);
        assert_eq!(colored, "│ 1 │ \x1b[32mPASS\x1b[0m   │\n│ 2 │ \x1b[1;33mERROR\x1b[0m  │\n");
        assert_eq!(color_cells(plain, false), plain);
    }

    #[test]
    fn drift_lines_are_coloured_by_their_sign() {
        let drift = "changed mod a.js:\n    + loads\n    - command `guard`\n    ~ tool `t`: x → y\n";
        assert_eq!(
            color_diff(drift, true),
            "changed mod a.js:\n\x1b[32m    + loads\x1b[0m\n\x1b[31m    - command `guard`\x1b[0m\n\x1b[1;33m    ~ tool `t`: x → y\x1b[0m\n"
        );
        assert_eq!(color_diff(drift, false), drift);
    }

    #[test]
    fn control_characters_never_reach_the_terminal() {
        assert_eq!(printable("bad\x1b[2Jthing\r", 80), "bad [2Jthing ");
        assert_eq!(printable("abcdef", 4), "abc…");
    }
}
