//! The environment's scripted programs as shell scripts: the machine mounts them at
//! `/usr/local/bin`, first on the default `PATH`, as an administrator's own programs would be.
//! A call the environment scripts prints its answer; any other reaches the machine's real
//! program of that name, or fails as a missing program does.

use crate::plan::{ArgsMatch, ScriptedProgram};

/// Where the scripts are inside the machine.
pub const SCRIPTED_DIR: &str = "/usr/local/bin";

/// Single-quotes `text` for sh.
fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// The script for one program.
pub fn script(program: &ScriptedProgram) -> String {
    let name = &program.name;
    let mut script = format!(
        "#!/bin/sh\n# `{name}` as the environment scripts it (modlearn); other calls run the machine's own `{name}`.\nargs=\"$*\"\n"
    );
    for answer in &program.answers {
        let test = match &answer.matches {
            ArgsMatch::Args(args) => format!("[ \"$args\" = {} ]", quoted(args)),
            ArgsMatch::Regex(regex) => {
                format!("printf '%s' {} \"$args\" | grep -qP -e {}", quoted(&format!("{name} ")), quoted(regex))
            }
        };
        script.push_str(&format!("if {test}; then\n"));
        if !answer.stdout.is_empty() {
            script.push_str(&format!("  printf '%s' {}\n", quoted(&answer.stdout)));
        }
        if !answer.stderr.is_empty() {
            script.push_str(&format!("  printf '%s' {} >&2\n", quoted(&answer.stderr)));
        }
        script.push_str(&format!("  exit {}\nfi\n", answer.exit_code));
    }
    script.push_str(&format!(
        "IFS=:\nfor dir in $PATH; do\n  [ \"$dir\" = {SCRIPTED_DIR} ] && continue\n  [ -x \"$dir/{name}\" ] && exec \"$dir/{name}\" \"$@\"\ndone\nprintf '%s: not found\\n' {} >&2\nexit 127\n",
        quoted(name)
    ));
    script
}

/// Whether `name` can be a scripted program's file name.
pub fn valid_program_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name.chars().all(|c| c.is_ascii_alphanumeric() || "._+-".contains(c))
        && name != "."
        && name != ".."
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::ScriptedAnswer;

    #[test]
    fn a_script_answers_what_it_scripts_and_passes_the_rest_on() {
        let program = ScriptedProgram {
            name: "npm".into(),
            answers: vec![
                ScriptedAnswer {
                    matches: ArgsMatch::Args("test".into()),
                    stdout: "3 passing\n".into(),
                    stderr: String::new(),
                    exit_code: 0,
                },
                ScriptedAnswer {
                    matches: ArgsMatch::Regex(r"^npm run (lint|it's)".into()),
                    stdout: String::new(),
                    stderr: "lint failed\n".into(),
                    exit_code: 1,
                },
            ],
        };
        let script = script(&program);
        assert!(script.starts_with("#!/bin/sh\n"), "{script}");
        assert!(script.contains("if [ \"$args\" = 'test' ]; then\n  printf '%s' '3 passing\n'\n  exit 0\nfi\n"), "{script}");
        assert!(script.contains(r#"grep -qP -e '^npm run (lint|it'\''s)'"#), "{script}");
        assert!(script.contains("exec \"$dir/npm\" \"$@\""), "{script}");
        assert!(valid_program_name("uv") && valid_program_name("python3.11") && !valid_program_name("a/b") && !valid_program_name(".."));
    }
}
