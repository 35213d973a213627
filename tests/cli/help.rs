//! `--help` of every command is part of the interface: snapshot it.

use crate::common::TestContext;

#[test]
fn help_of_every_command() {
    let context = TestContext::new();
    for args in [
        vec!["--help"],
        vec!["eval", "--help"],
        vec!["run", "--help"],
        vec!["validate", "--help"],
        vec!["schema", "--help"],
        vec!["bench", "--help"],
        vec!["check", "--help"],
        vec!["report", "--help"],
        vec!["guide", "--help"],
        vec!["init", "--help"],
        vec!["completions", "--help"],
    ] {
        let rendered = context.run(&args);
        assert_eq!(rendered.code, 0);
        let name = if args[0] == "--help" { "modlearn" } else { args[0] };
        insta::assert_snapshot!(format!("help-{name}"), rendered.text);
    }
}

/// `--version` names the host release each dialect's verdicts are judged against.
#[test]
fn version_names_the_hosts() {
    let rendered = TestContext::new().run(&["--version"]);
    assert_eq!(rendered.code, 0);
    // The commit it was built from (the filter hides which).
    assert!(
        regex::Regex::new(r"^modlearn \d+\.\d+\.\d+ \(commit ([0-9a-f]{12}|unknown)\)\n").unwrap().is_match(&rendered.stdout),
        "{}",
        rendered.stdout
    );
    insta::assert_snapshot!("version", rendered.text);
}

#[test]
fn usage_errors_exit_2_and_name_the_flag() {
    let context = TestContext::new();
    for (name, args) in [
        ("missing-candidate-arg", vec!["eval", "specs/uv-pip.json"]),
        ("bad-timeout", vec!["eval", "specs/uv-pip.json", "candidates/uv-pip/good-return-args.ts", "--handler-timeout", "soon"]),
        ("bad-jobs", vec!["eval", "specs/uv-pip.json", "candidates/uv-pip/good-return-args.ts", "--jobs", "0"]),
        ("bad-shell", vec!["completions", "tcsh"]),
    ] {
        let rendered = context.run(&args);
        assert_eq!(rendered.code, 2, "{name}");
        insta::assert_snapshot!(format!("usage-{name}"), rendered.text);
    }
}
