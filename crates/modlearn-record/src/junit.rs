//! JUnit XML, the report format CI systems (GitHub Actions reporters,
//! GitLab, Jenkins, Buildkite) read to show test results.
//!
//! The model is small and the output deterministic: counts are computed from
//! the cases, attributes come in a fixed order, and no timestamp or host name
//! is added unless the caller sets one.
//!
//! ```
//! use modlearn_record::junit::{TestCase, TestSuite, TestSuites};
//!
//! let xml = TestSuites::new("modlearn check")
//!     .suite(
//!         TestSuite::new("mods")
//!             .case(TestCase::new("hello.js [default]", "mods"))
//!             .case(TestCase::new("bad.js [default]", "mods").failure("drift", "1 diagnostic added")),
//!     )
//!     .to_xml();
//! assert!(xml.contains(r#"tests="2" failures="1""#));
//! ```

use std::fmt::Write as _;

/// How a test case ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// It passed.
    Passed,
    /// An assertion failed (`<failure>`).
    Failed {
        /// One-line summary (the `message` attribute).
        message: String,
        /// The element's text: details, a diff, a trace.
        detail: String,
    },
    /// It could not run to a verdict (`<error>`).
    Errored {
        /// One-line summary (the `message` attribute).
        message: String,
        /// The element's text.
        detail: String,
    },
    /// It was not run (`<skipped>`).
    Skipped {
        /// Why.
        message: String,
    },
}

/// One `<testcase>`.
#[derive(Debug, Clone, PartialEq)]
pub struct TestCase {
    /// The case's name.
    pub name: String,
    /// The `classname` attribute; CI systems group cases by it.
    pub classname: String,
    /// Wall time in seconds, if measured.
    pub time_secs: Option<f64>,
    /// How it ended.
    pub outcome: Outcome,
    /// Text for `<system-out>`, if any.
    pub system_out: Option<String>,
}

impl TestCase {
    /// A passing case.
    pub fn new(name: &str, classname: &str) -> Self {
        Self { name: name.to_string(), classname: classname.to_string(), time_secs: None, outcome: Outcome::Passed, system_out: None }
    }

    /// Marks the case failed.
    pub fn failure(mut self, message: &str, detail: &str) -> Self {
        self.outcome = Outcome::Failed { message: message.to_string(), detail: detail.to_string() };
        self
    }

    /// Marks the case errored.
    pub fn error(mut self, message: &str, detail: &str) -> Self {
        self.outcome = Outcome::Errored { message: message.to_string(), detail: detail.to_string() };
        self
    }

    /// Marks the case skipped.
    pub fn skipped(mut self, message: &str) -> Self {
        self.outcome = Outcome::Skipped { message: message.to_string() };
        self
    }

    /// Sets the wall time.
    pub fn time(mut self, secs: f64) -> Self {
        self.time_secs = Some(secs);
        self
    }

    /// Sets `<system-out>`.
    pub fn system_out(mut self, text: &str) -> Self {
        self.system_out = Some(text.to_string());
        self
    }
}

/// One `<testsuite>`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TestSuite {
    /// The suite's name.
    pub name: String,
    /// ISO 8601 timestamp, if the caller wants one (none by default, so
    /// output is reproducible).
    pub timestamp: Option<String>,
    /// `<properties>`, in order.
    pub properties: Vec<(String, String)>,
    /// The cases, in order.
    pub cases: Vec<TestCase>,
}

impl TestSuite {
    /// An empty suite.
    pub fn new(name: &str) -> Self {
        Self { name: name.to_string(), ..Self::default() }
    }

    /// Adds a case.
    pub fn case(mut self, case: TestCase) -> Self {
        self.cases.push(case);
        self
    }

    /// Adds a property.
    pub fn property(mut self, name: &str, value: &str) -> Self {
        self.properties.push((name.to_string(), value.to_string()));
        self
    }

    /// Sets the timestamp.
    pub fn timestamp(mut self, timestamp: &str) -> Self {
        self.timestamp = Some(timestamp.to_string());
        self
    }

    fn count(&self, pick: impl Fn(&Outcome) -> bool) -> usize {
        self.cases.iter().filter(|case| pick(&case.outcome)).count()
    }

    /// Total of the measured times; `None` when no case was timed.
    fn time(&self) -> Option<f64> {
        let times: Vec<f64> = self.cases.iter().filter_map(|case| case.time_secs).collect();
        (!times.is_empty()).then(|| times.iter().sum())
    }
}

/// The `<testsuites>` document.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TestSuites {
    /// The document's name.
    pub name: String,
    /// The suites, in order.
    pub suites: Vec<TestSuite>,
}

impl TestSuites {
    /// An empty document.
    pub fn new(name: &str) -> Self {
        Self { name: name.to_string(), suites: Vec::new() }
    }

    /// Adds a suite.
    pub fn suite(mut self, suite: TestSuite) -> Self {
        self.suites.push(suite);
        self
    }

    /// Number of cases that did not pass or were skipped: failures plus errors.
    pub fn unsuccessful(&self) -> usize {
        self.suites.iter().map(|s| s.count(|o| matches!(o, Outcome::Failed { .. } | Outcome::Errored { .. }))).sum()
    }

    /// The XML document, UTF-8, ending in a newline.
    pub fn to_xml(&self) -> String {
        let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        let total = |pick: &dyn Fn(&Outcome) -> bool| self.suites.iter().map(|s| s.count(pick)).sum::<usize>();
        let tests = total(&|_| true);
        let failures = total(&|o| matches!(o, Outcome::Failed { .. }));
        let errors = total(&|o| matches!(o, Outcome::Errored { .. }));
        let skipped = total(&|o| matches!(o, Outcome::Skipped { .. }));
        let _ = write!(
            out,
            "<testsuites name=\"{}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\" skipped=\"{skipped}\"",
            escape(&self.name)
        );
        let times: Vec<f64> = self.suites.iter().filter_map(TestSuite::time).collect();
        if !times.is_empty() {
            let time: f64 = times.iter().sum();
            let _ = write!(out, " time=\"{time:.3}\"");
        }
        out.push_str(">\n");
        for suite in &self.suites {
            write_suite(&mut out, suite);
        }
        out.push_str("</testsuites>\n");
        out
    }
}

fn write_suite(out: &mut String, suite: &TestSuite) {
    let _ = write!(
        out,
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\"",
        escape(&suite.name),
        suite.cases.len(),
        suite.count(|o| matches!(o, Outcome::Failed { .. })),
        suite.count(|o| matches!(o, Outcome::Errored { .. })),
        suite.count(|o| matches!(o, Outcome::Skipped { .. })),
    );
    if let Some(time) = suite.time() {
        let _ = write!(out, " time=\"{time:.3}\"");
    }
    if let Some(timestamp) = &suite.timestamp {
        let _ = write!(out, " timestamp=\"{}\"", escape(timestamp));
    }
    out.push_str(">\n");
    if !suite.properties.is_empty() {
        out.push_str("    <properties>\n");
        for (name, value) in &suite.properties {
            let _ = writeln!(out, "      <property name=\"{}\" value=\"{}\"/>", escape(name), escape(value));
        }
        out.push_str("    </properties>\n");
    }
    for case in &suite.cases {
        write_case(out, case);
    }
    out.push_str("  </testsuite>\n");
}

fn write_case(out: &mut String, case: &TestCase) {
    let _ = write!(out, "    <testcase name=\"{}\" classname=\"{}\"", escape(&case.name), escape(&case.classname));
    if let Some(time) = case.time_secs {
        let _ = write!(out, " time=\"{time:.3}\"");
    }
    if case.outcome == Outcome::Passed && case.system_out.is_none() {
        out.push_str("/>\n");
        return;
    }
    out.push_str(">\n");
    match &case.outcome {
        Outcome::Passed => {}
        Outcome::Failed { message, detail } => write_problem(out, "failure", message, detail),
        Outcome::Errored { message, detail } => write_problem(out, "error", message, detail),
        Outcome::Skipped { message } => {
            let _ = writeln!(out, "      <skipped message=\"{}\"/>", escape(message));
        }
    }
    if let Some(text) = &case.system_out {
        let _ = writeln!(out, "      <system-out>{}</system-out>", escape(text));
    }
    out.push_str("    </testcase>\n");
}

fn write_problem(out: &mut String, element: &str, message: &str, detail: &str) {
    let _ = writeln!(out, "      <{element} message=\"{}\">{}</{element}>", escape(message), escape(detail));
}

/// Escapes text for XML content and attributes (the HTML escaper's rules
/// are XML's).
pub use crate::html::escape;

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> TestSuites {
        TestSuites::new("modlearn <check>").suite(
            TestSuite::new("corpus")
                .property("profile", "default")
                .case(TestCase::new("a.js", "corpus").time(0.25))
                .case(TestCase::new("b.js", "corpus").failure("1 diagnostic \"added\"", "+ error <load>\n"))
                .case(TestCase::new("c.js", "corpus").error("engine crashed", "trace\u{1}"))
                .case(TestCase::new("d.js", "corpus").skipped("not selected").system_out("out & about")),
        )
    }

    #[test]
    fn renders_counts_elements_and_escapes() {
        insta::assert_snapshot!(sample().to_xml(), @r#"
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites name="modlearn &lt;check&gt;" tests="4" failures="1" errors="1" skipped="1" time="0.250">
          <testsuite name="corpus" tests="4" failures="1" errors="1" skipped="1" time="0.250">
            <properties>
              <property name="profile" value="default"/>
            </properties>
            <testcase name="a.js" classname="corpus" time="0.250"/>
            <testcase name="b.js" classname="corpus">
              <failure message="1 diagnostic &quot;added&quot;">+ error &lt;load&gt;
        </failure>
            </testcase>
            <testcase name="c.js" classname="corpus">
              <error message="engine crashed">trace�</error>
            </testcase>
            <testcase name="d.js" classname="corpus">
              <skipped message="not selected"/>
              <system-out>out &amp; about</system-out>
            </testcase>
          </testsuite>
        </testsuites>
        "#);
    }

    #[test]
    fn time_is_left_out_unless_measured() {
        let xml = TestSuites::new("n").suite(TestSuite::new("s").case(TestCase::new("c", "s"))).to_xml();
        assert!(!xml.contains("time="), "{xml}");
    }

    #[test]
    fn unsuccessful_counts_failures_and_errors_only() {
        assert_eq!(sample().unsuccessful(), 2);
        assert_eq!(TestSuites::new("empty").unsuccessful(), 0);
    }

    #[test]
    fn escape_handles_all_special_characters() {
        assert_eq!(escape("<&>\"'\u{0}\u{FFFF}\n"), "&lt;&amp;&gt;&quot;&#39;\u{FFFD}\u{FFFD}\n");
    }
}
