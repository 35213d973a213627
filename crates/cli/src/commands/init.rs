//! `modlearn init`: a new spec from an objective. The scaffold is a valid
//! spec (parsed back before it is written) whose one behaviour check is
//! marked TODO, with the negative controls `validate --mutants` asks for.

use std::path::PathBuf;

use serde_json::json;

use modlearn_spec::SCAFFOLD_PLACEHOLDER;

use crate::cli::InitArgs;
use crate::exit::{CliError, SUCCESS};

pub fn run(args: InitArgs) -> Result<u8, CliError> {
    let objective = args.objective.join(" ").trim().to_owned();
    if objective.is_empty() {
        return Err(CliError::usage("OBJECTIVE is empty")
            .hint("say what the mod should do, e.g. `modlearn init \"Remind the agent to run the tests first\"`"));
    }
    let name = args.name.clone().unwrap_or_else(|| short_name(&objective, 60));
    let slug = modlearn_spec::slugify(&name);
    let out = args.out.clone().unwrap_or_else(|| PathBuf::from("specs").join(format!("{slug}.json")));
    if out.exists() && !args.force {
        return Err(CliError::usage(format!("`{}` already exists (--out)", out.display()))
            .hint("pass another `--out FILE`, or `--force` to replace it"));
    }
    let spec = scaffold(&name, &slug, &objective);
    let text = format!("{}\n", serde_json::to_string_pretty(&spec).expect("the scaffold serializes"));
    // The scaffold must load once its placeholders are written: nothing else in a spec `init`
    // writes is for the user to fix (the placeholders are refused until then).
    let loaded = modlearn_spec::parse_spec(&text.replace(SCAFFOLD_PLACEHOLDER, "written:"), &out).map_err(CliError::from)?;
    modlearn_record::write_atomic(&out, &text)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&json!({ "path": out.display().to_string(), "spec": spec })).expect("serializes"));
        return Ok(SUCCESS);
    }
    let scenarios = modlearn_spec::resolve_scenarios(&loaded.spec);
    println!("wrote `{}`: spec `{name}` with {} scenario(s), mod file `{slug}.ts`", out.display(), scenarios.len());
    println!(
        "next: write what each `{SCAFFOLD_PLACEHOLDER}` placeholder asks for (the requirement and the `does-the-job` check; validate names each one left), then"
    );
    println!("  modlearn validate --mutants {}", out.display());
    println!("  modlearn run {} --candidates 8 --model openai:NAME", out.display());
    Ok(SUCCESS)
}

/// The objective's first sentence, or as many of its first words as fit in `max` characters.
fn short_name(text: &str, max: usize) -> String {
    let sentence = text.split(". ").next().unwrap_or(text).trim().trim_end_matches(['.', ',', ';', ':']);
    let mut name = String::new();
    for word in sentence.split_whitespace() {
        if !name.is_empty() && name.len() + 1 + word.len() > max {
            break;
        }
        if !name.is_empty() {
            name.push(' ');
        }
        name.push_str(word);
    }
    name.trim_end_matches(['.', ',', ';', ':']).to_owned()
}

fn scaffold(name: &str, slug: &str, objective: &str) -> serde_json::Value {
    json!({
        "name": name,
        "slug": slug,
        "targetModName": format!("{slug}.ts"),
        "objective": objective,
        "requirements": [
            "Export `activate(letta)` (or a default function) and load with no diagnostics.",
            format!("{SCAFFOLD_PLACEHOLDER} the behaviour, observable from outside: which event, what changes, exactly."),
            "Leave the arguments of every tool call the objective does not concern deep-equal to what they were.",
            "No host access: no node:* imports, no process, no fetch, no Deno, no filesystem.",
            "Leave nothing running after dispose: clear every timer and interval from the disposer you return, and create no promise that never settles."
        ],
        "modApiHints": [
            "`letta.events.on(\"turn_start\", (event, ctx) => ...)`: event.input is an array of items; append to it to inject a message.",
            "`letta.events.on(\"tool_start\", (event, ctx) => ...)`: event.toolName and event.args; return { args } to rewrite them, nothing to keep them."
        ],
        "evaluation": {
            "scenarios": [
                {
                    "name": "mod-loads",
                    "covers": [1, 4],
                    "assertions": [{ "type": "mod_loads", "expectedLoadedCount": 1 }]
                },
                {
                    "name": "does-the-job",
                    "covers": [2],
                    "assertions": [{
                        "type": "turn_start_injects_message",
                        "contains": [format!("{SCAFFOLD_PLACEHOLDER} text the mod must inject, or replace this assertion (see `modlearn schema`)")]
                    }]
                },
                {
                    "name": "leaves-other-tools-alone",
                    "covers": [3],
                    "assertions": [{
                        "type": "tool_start_preserves_args",
                        "toolName": "Read",
                        "args": { "file_path": "/workspace/README.md" }
                    }]
                },
                {
                    "name": "leaves-bash-alone",
                    "covers": [3],
                    "hidden": true,
                    "assertions": [{
                        "type": "tool_start_preserves_args",
                        "toolName": "Bash",
                        "args": { "command": "ls -la", "description": "List the files" }
                    }]
                },
                {
                    "name": "disposes-cleanly",
                    "covers": [5],
                    "assertions": [{
                        "type": "disposes_cleanly",
                        "steps": [
                            { "emit": "turn_start" },
                            { "emit": "tool_start", "payload": { "toolName": "Read", "args": { "file_path": "/workspace/README.md" } } }
                        ]
                    }]
                }
            ]
        }
    })
}

#[cfg(test)]
mod tests {
    use super::short_name;

    #[test]
    fn the_name_is_the_first_sentence_or_what_fits() {
        assert_eq!(
            short_name("Remind the agent to run the tests before editing files.", 60),
            "Remind the agent to run the tests before editing files"
        );
        assert_eq!(short_name("Route pip through uv. Keep other tools alone.", 60), "Route pip through uv");
        assert_eq!(short_name("one two three four", 9), "one two");
    }
}
