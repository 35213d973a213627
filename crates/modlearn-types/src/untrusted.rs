//! Quoting text that modlearn did not write (a mod's source, what it injected or threw, a
//! server's error body) into Markdown and onto the terminal. Reports, history files and later
//! prompts are read by people and by the next proposer: quoted text must not forge their
//! structure (headings, HTML, remote images, fences), nor drive a terminal with escapes.
//!
//! The one exception to "no logic" in this crate: record (reports, history, guide) and propose
//! (prompts) both quote such text, and this is the leaf they share.

/// `text` without control characters: ANSI escape sequences (CSI, OSC) are removed whole, every
/// other C0/C1 control character but newline and tab is dropped.
pub fn plain_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => match chars.next() {
                // CSI: parameters and intermediates up to a final byte in @..~.
                Some('[') => {
                    for c in chars.by_ref() {
                        if ('@'..='~').contains(&c) {
                            break;
                        }
                    }
                }
                // OSC (titles, hyperlinks): up to BEL or ST (ESC \).
                Some(']') => {
                    while let Some(c) = chars.next() {
                        if c == '\u{7}' {
                            break;
                        }
                        if c == '\u{1b}' && chars.peek() == Some(&'\\') {
                            chars.next();
                            break;
                        }
                    }
                }
                _ => {}
            },
            '\n' | '\t' => out.push(c),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// `text` as one Markdown code span: literal when rendered (no HTML, links, images or emphasis)
/// and on one line, so it cannot start a heading or a list item. Newlines become spaces; the
/// fence is longer than any run of backticks inside.
pub fn md_code(text: &str) -> String {
    let flat: String = plain_text(text).chars().map(|c| if c == '\n' || c == '\t' { ' ' } else { c }).collect();
    let fence = "`".repeat(longest_run(&flat, '`') + 1);
    // A space keeps a backtick at either end from joining the fence.
    let pad = if flat.starts_with('`') || flat.ends_with('`') || flat.is_empty() { " " } else { "" };
    format!("{fence}{pad}{flat}{pad}{fence}")
}

/// [`md_code`] for a table cell: a `|` would end the cell even inside a code span, so it is escaped.
pub fn md_cell(text: &str) -> String {
    md_code(text).replace('|', "\\|")
}

/// `text` as a fenced code block (`info` after the opening fence), each line after `indent`:
/// the fence is longer than any run of backticks inside, so the text cannot close it.
pub fn md_fence(text: &str, info: &str, indent: &str) -> String {
    let text = plain_text(text);
    let fence = "`".repeat((longest_run(&text, '`') + 1).max(3));
    let mut out = format!("{indent}{fence}{info}\n");
    for line in text.trim_end_matches('\n').lines() {
        out.push_str(indent);
        out.push_str(line);
        out.push('\n');
    }
    out.push_str(indent);
    out.push_str(&fence);
    out.push('\n');
    out
}

fn longest_run(text: &str, wanted: char) -> usize {
    let (mut longest, mut run) = (0, 0);
    for c in text.chars() {
        run = if c == wanted { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    longest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_controls_are_dropped() {
        assert_eq!(plain_text("\u{1b}[31mred\u{1b}[0m \u{1b}]8;;http://x\u{7}link\u{1b}]8;;\u{1b}\\ bell\u{7}\r\n"), "red link bell\n");
        assert_eq!(plain_text("tab\tkept\nnewline kept"), "tab\tkept\nnewline kept");
    }

    #[test]
    fn code_spans_cannot_forge_structure() {
        assert_eq!(md_code("plain"), "`plain`");
        assert_eq!(md_code("a\n## Forged heading\n<img src=http://x/p.png>"), "`a ## Forged heading <img src=http://x/p.png>`");
        assert_eq!(md_code("uses `code` and ``more``"), "``` uses `code` and ``more`` ```");
        assert_eq!(md_code("`edge`"), "`` `edge` ``");
        assert_eq!(md_cell("a|b"), "`a\\|b`");
    }

    #[test]
    fn fences_outlast_the_text() {
        let block = md_fence("```\n## not a heading\n```", "ts", "  ");
        assert_eq!(block, "  ````ts\n  ```\n  ## not a heading\n  ```\n  ````\n");
    }
}
