//! A whole HTML document: title, inline stylesheet, and blocks of content.

use super::escape::{Markup, escape};

/// The pages' only stylesheet, inline so the file stands alone. System
/// fonts only: a page must not fetch anything.
const STYLE: &str = "\
body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#111827;background:#fff;margin:0 auto;max-width:1100px;padding:24px}\
h1{font-size:24px;margin:0 0 12px}h2{font-size:19px;margin:28px 0 10px}h3{font-size:16px;margin:20px 0 8px}\
p{margin:8px 0}code{font:12px ui-monospace,SFMono-Regular,Menlo,monospace;background:#f3f4f6;padding:1px 4px;border-radius:3px}\
table{border-collapse:collapse;margin:8px 0}th,td{border:1px solid #d1d5db;padding:4px 10px;text-align:left;vertical-align:top}\
th{background:#f3f4f6}td.num{text-align:right;font-variant-numeric:tabular-nums}\
figure{margin:12px 0}figcaption{font-weight:600;margin:0 0 6px}svg{max-width:100%;height:auto}svg text{font:12px system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;fill:#111827}\
.muted{color:#6b7280}";

/// An HTML document built block by block.
///
/// Headings, paragraphs and tables take plain text (escaped); [`Page::markup`]
/// embeds charts and other [`Markup`].
#[derive(Debug, Clone)]
pub struct Page {
    title: String,
    body: String,
}

impl Page {
    /// A page whose `<title>` and top `<h1>` are `title`.
    pub fn new(title: &str) -> Self {
        Self { title: title.to_string(), body: format!("<h1>{}</h1>\n", escape(title)) }
    }

    /// A heading; `level` is clamped to 2–6 (the page title is the only `h1`).
    pub fn heading(mut self, level: u8, text: &str) -> Self {
        let level = level.clamp(2, 6);
        self.body.push_str(&format!("<h{level}>{}</h{level}>\n", escape(text)));
        self
    }

    /// A paragraph of plain text.
    pub fn paragraph(mut self, text: &str) -> Self {
        self.body.push_str(&format!("<p>{}</p>\n", escape(text)));
        self
    }

    /// A paragraph in a muted colour, for notes and provenance.
    pub fn note(mut self, text: &str) -> Self {
        self.body.push_str(&format!("<p class=\"muted\">{}</p>\n", escape(text)));
        self
    }

    /// A table.
    pub fn table(mut self, table: &Table) -> Self {
        self.body.push_str(table.render().as_str());
        self
    }

    /// Markup inserted as it is: a chart, or a fragment built with
    /// [`Markup::text`].
    pub fn markup(mut self, markup: Markup) -> Self {
        self.body.push_str(markup.as_str());
        if !markup.as_str().ends_with('\n') {
            self.body.push('\n');
        }
        self
    }

    /// The whole document.
    pub fn render(&self) -> String {
        format!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{}</body>\n</html>\n",
            escape(&self.title),
            self.body
        )
    }
}

/// A table of text cells with one header row.
#[derive(Debug, Clone, Default)]
pub struct Table {
    headers: Vec<String>,
    numeric: Vec<bool>,
    rows: Vec<Vec<Markup>>,
}

impl Table {
    /// A table with these column headers (all empty: no header row).
    pub fn new<S: AsRef<str>>(headers: &[S]) -> Self {
        Self { headers: headers.iter().map(|h| h.as_ref().to_string()).collect(), numeric: vec![false; headers.len()], rows: Vec::new() }
    }

    /// Right-aligns column `index` (numbers line up by their last digit).
    pub fn numeric_column(mut self, index: usize) -> Self {
        if let Some(flag) = self.numeric.get_mut(index) {
            *flag = true;
        }
        self
    }

    /// A row of plain-text cells.
    pub fn row<S: AsRef<str>>(self, cells: &[S]) -> Self {
        self.row_markup(cells.iter().map(|cell| Markup::text(cell.as_ref())).collect())
    }

    /// A row of markup cells (for links or inline code).
    pub fn row_markup(mut self, cells: Vec<Markup>) -> Self {
        self.rows.push(cells);
        self
    }

    /// The table as markup.
    pub fn render(&self) -> Markup {
        let mut out = String::from("<table>\n");
        // A key-value table has no header row worth drawing.
        if self.headers.iter().any(|h| !h.is_empty()) {
            out.push_str("<thead><tr>");
            for header in &self.headers {
                out.push_str(&format!("<th>{}</th>", escape(header)));
            }
            out.push_str("</tr></thead>\n");
        }
        out.push_str("<tbody>\n");
        for row in &self.rows {
            out.push_str("<tr>");
            for (index, cell) in row.iter().enumerate() {
                let class = if self.numeric.get(index).copied().unwrap_or(false) { " class=\"num\"" } else { "" };
                out.push_str(&format!("<td{class}>{cell}</td>"));
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</tbody>\n</table>\n");
        Markup::trusted(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_is_self_contained_and_escaped() {
        let page = Page::new("Run <1>")
            .heading(1, "h & h")
            .paragraph("a < b")
            .note("made by modlearn")
            .markup(Markup::trusted("<svg></svg>"))
            .render();
        assert!(page.starts_with("<!DOCTYPE html>\n"));
        assert!(page.contains("<title>Run &lt;1&gt;</title>"));
        assert!(page.contains("<h2>h &amp; h</h2>"), "h1 is reserved for the title: {page}");
        assert!(page.contains("<p>a &lt; b</p>"));
        assert!(page.contains("<svg></svg>\n"));
        for forbidden in ["<script", "http://", "https://", "<link", "@import", "url("] {
            assert!(!page.contains(forbidden), "page must not load anything: found {forbidden}");
        }
    }

    #[test]
    fn table_without_headers_has_no_header_row() {
        let table = Table::new(&["", ""]).row(&["Result", "PASS"]).render();
        assert!(!table.as_str().contains("<thead>"), "{table}");
    }

    #[test]
    fn table_escapes_cells_and_aligns_numbers() {
        let table = Table::new(&["name", "score"]).numeric_column(1).row(&["<x>", "0.5"]).render();
        assert_eq!(
            table.as_str(),
            "<table>\n<thead><tr><th>name</th><th>score</th></tr></thead>\n<tbody>\n\
             <tr><td>&lt;x&gt;</td><td class=\"num\">0.5</td></tr>\n</tbody>\n</table>\n"
        );
    }
}
