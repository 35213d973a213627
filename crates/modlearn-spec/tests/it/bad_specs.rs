//! One snapshot per file in `tests/bad-specs/`: what a user sees for each kind of broken spec.

use std::path::Path;

use modlearn_spec::{LoadedSpec, SpecError, load_spec};

use crate::crate_relative;

/// The error as the CLI shows it, followed by the warnings; or the warnings of a spec that loads.
fn render(result: &Result<LoadedSpec, SpecError>) -> String {
    let (mut rendered, warnings) = match result {
        Ok(loaded) => (format!("loaded `{}`", loaded.path.display()), &loaded.warnings),
        Err(error) => (error.to_string(), &error.warnings),
    };
    for warning in warnings {
        rendered.push_str(&format!("\nwarning: {warning}"));
    }
    rendered
}

#[test]
fn bad_specs() {
    insta::glob!("../bad-specs", "*.json", |path| {
        let result = load_spec(&crate_relative(path));
        insta::assert_snapshot!(render(&result));
    });
}

#[test]
fn unreadable_file_names_the_file() {
    let result = load_spec(Path::new("tests/bad-specs/does-not-exist.json"));
    insta::assert_snapshot!(render(&result), @r"
    invalid spec `tests/bad-specs/does-not-exist.json`
      - failed to read file: No such file or directory (os error 2)
    ");
}

#[test]
fn problems_are_data() {
    let error = load_spec(Path::new("tests/bad-specs/missing-tool-name.json")).unwrap_err();
    assert_eq!(error.path, Path::new("tests/bad-specs/missing-tool-name.json"));
    let problem = &error.problems[0];
    assert_eq!(problem.path.as_deref(), Some("evaluation.scenarios[1].assertions[0].toolName"));
    assert_eq!(problem.message, "missing field");
    assert_eq!((problem.line, problem.column), (Some(14), Some(11)));
    // The misspelt key beside it is an error too, naming the field it most likely means.
    let unknown = error
        .problems
        .iter()
        .find(|problem| problem.path.as_deref() == Some("evaluation.scenarios[1].assertions[0].tool_name"))
        .expect("the unknown field is a problem");
    assert_eq!(unknown.message, "unknown field; did you mean `toolName`?");
}

#[test]
fn malformed_json_reports_line_and_column() {
    let error = load_spec(Path::new("tests/bad-specs/malformed.json")).unwrap_err();
    let problem = &error.problems[0];
    assert_eq!(problem.path, None);
    assert_eq!((problem.line, problem.column), (Some(5), Some(3)));
}
