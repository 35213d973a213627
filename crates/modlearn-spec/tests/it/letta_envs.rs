//! Letta Code's env files load unchanged and survive a round trip.

use modlearn_spec::{Assertion, OutputFormat, ScenarioSpec, load_spec, parse_spec, resolve_scenarios, spec_slug};

use crate::write_spec;

/// Shaped like Letta Code's `uv-pip-install.env.json`: ten assertion-only scenarios, so no model
/// is ever needed to judge a candidate.
const UV_PIP_ENV: &str = r#"{
  "name": "Prefer uv for Python installs",
  "slug": "uv-pip-install",
  "targetModName": "uv-pip-install.ts",
  "objective": "Remind the agent to install Python packages with uv and rewrite pip install commands before Bash runs them, leaving everything else alone.",
  "requirements": [
    "On turn_start, append a reminder to use uv pip install.",
    "On tool_start for Bash, rewrite pip install, python -m pip install and python3 -m pip install to uv pip install, keeping every argument.",
    "Leave other pip subcommands and other package managers untouched.",
    "Load without diagnostics."
  ],
  "candidateDiversityHints": [
    "Split the command on shell operators and rewrite each part.",
    "Use one conservative regular expression."
  ],
  "modApiHints": [
    "letta.events.on(\"tool_start\", handler) sees event.toolName and event.args.",
    "Return { args: { ...event.args, command } } to rewrite a command."
  ],
  "examples": [
    { "input": "Bash command=\"pip install requests\"", "expected": "command=\"uv pip install requests\"" },
    { "input": "Bash command=\"pip list\"", "expected": "unchanged", "notes": "not an install" }
  ],
  "evaluation": {
    "scenarios": [
      { "name": "mod-loads", "assertions": [{ "type": "mod_loads", "expectedLoadedCount": 1 }] },
      {
        "name": "turn-start-reminder",
        "assertions": [
          {
            "type": "turn_start_injects_message",
            "role": "user",
            "contains": ["uv pip install"],
            "notContains": "pip3",
            "input": [{ "type": "message", "role": "user", "content": "Add the requests library." }]
          }
        ]
      },
      {
        "name": "plain-install",
        "assertions": [
          {
            "type": "tool_start_rewrites_args",
            "toolName": "Bash",
            "args": { "command": "pip install --dry-run requests" },
            "expectArgs": { "command": "uv pip install --dry-run requests" }
          }
        ]
      },
      {
        "name": "module-install",
        "assertions": [
          {
            "type": "tool_start_rewrites_args",
            "toolName": "Bash",
            "args": { "command": "python -m pip install numpy" },
            "expectArgs": { "command": "uv pip install numpy" }
          },
          {
            "type": "tool_start_rewrites_args",
            "toolName": "Bash",
            "args": { "command": "python3 -m pip install numpy" },
            "expectArgs": { "command": "uv pip install numpy" }
          }
        ]
      },
      {
        "name": "several-packages",
        "assertions": [
          {
            "type": "tool_start_rewrites_args",
            "toolName": "Bash",
            "args": { "command": "pip install fastapi uvicorn" },
            "expectArgs": { "command": "uv pip install fastapi uvicorn" }
          }
        ]
      },
      {
        "name": "shell-operator",
        "assertions": [
          {
            "type": "tool_start_rewrites_args",
            "toolName": "Bash",
            "args": { "command": "pip install -r requirements.txt && echo done" },
            "expectArgs": { "command": "uv pip install -r requirements.txt && echo done" }
          }
        ]
      },
      {
        "name": "negative-control-pip-list",
        "assertions": [
          { "type": "tool_start_preserves_args", "toolName": "Bash", "args": { "command": "pip list" } }
        ]
      },
      {
        "name": "negative-control-npm",
        "assertions": [
          { "type": "tool_start_preserves_args", "toolName": "Bash", "args": { "command": "npm install lodash" } }
        ]
      },
      {
        "name": "negative-control-brew",
        "assertions": [
          { "type": "tool_start_preserves_args", "toolName": "Bash", "args": { "command": "brew install wget" } }
        ]
      },
      {
        "name": "negative-control-cargo",
        "assertions": [
          { "type": "tool_start_preserves_args", "toolName": "Bash", "args": { "command": "cargo install ripgrep" } }
        ]
      }
    ]
  }
}
"#;

/// Shaped like Letta Code's `mod-learning-env.template.json`: prompt scenarios judged by markers,
/// with shared forbidden trace markers and a top-level prompt every scenario inherits.
const PROMPT_ENV: &str = r##"{
  "name": "Hello tool",
  "slug": "hello-tool",
  "targetModName": "hello-tool.ts",
  "objective": "Register a read-only hello tool the agent can call.",
  "requirements": ["Register a tool named hello that returns HELLO-OK."],
  "candidateDiversityHints": ["Keep it minimal."],
  "modApiHints": ["letta.tools.register({ name, description, parameters, run })"],
  "examples": [{ "input": "The agent calls hello.", "expected": "HELLO-OK" }],
  "evaluation": {
    "outputFormat": "stream-json",
    "timeoutMs": 900000,
    "maxTurns": 8,
    "forbiddenTraceMarkers": [
      "[mods] failed to load",
      "[extensions] failed to load",
      "loaded 0 mod(s)",
      "loaded 0 extension(s)"
    ],
    "scenarios": [
      {
        "name": "happy-path",
        "memoryFiles": { "reference/hello.md": "# Hello\n\nCall the hello tool.\n" },
        "prompt": "Read $MEMORY_DIR/reference/hello.md and do what it says.",
        "requiredResultMarkers": ["HELLO-OK"],
        "requiredTraceMarkers": ["\"tool_name\":\"hello\""],
        "forbiddenResultMarkers": ["tool is not available"]
      },
      {
        "name": "negative-control",
        "prompt": "What is 2 + 2? Do not call any tool.",
        "requiredResultMarkers": ["4"],
        "forbiddenResultMarkers": ["HELLO-OK"],
        "forbiddenTraceMarkers": ["\"tool_name\":\"hello\""]
      }
    ],
    "prompt": "Run all configured evaluation.scenarios."
  }
}
"##;

#[test]
fn uv_pip_env_loads_unchanged() {
    let (_dir, path) = write_spec("uv-pip-install.env.json", UV_PIP_ENV);
    let loaded = load_spec(&path).unwrap();
    assert_eq!(loaded.warnings, []);
    assert_eq!(loaded.path, path);
    assert_eq!(spec_slug(&loaded.spec), "uv-pip-install");

    let scenarios = loaded.spec.evaluation.scenarios.as_deref().unwrap();
    assert_eq!(scenarios.len(), 10);
    assert!(scenarios.iter().all(|scenario| scenario.prompt.is_none()));
    let Assertion::TurnStartInjectsMessage(reminder) = &scenarios[1].assertions[0] else {
        panic!("expected turn_start_injects_message");
    };
    assert_eq!(reminder.contains.as_ref().unwrap().items(), ["uv pip install"]);
    assert_eq!(reminder.not_contains.as_ref().unwrap().items(), ["pip3"]);
    assert_eq!(reminder.role.as_deref(), Some("user"));

    let resolved = resolve_scenarios(&loaded.spec);
    assert!(resolved.iter().all(|scenario| scenario.prompt_to_run().is_none()));
    assert_eq!(resolved.iter().map(|scenario| scenario.max_score()).sum::<usize>(), 11);
    let tools: Vec<_> = resolved.iter().flat_map(|scenario| scenario.assertions.iter().filter_map(Assertion::tool_name)).collect();
    assert_eq!(tools, ["Bash"; 9]);
}

#[test]
fn prompt_env_loads_unchanged() {
    let (_dir, path) = write_spec("hello-tool.env.json", PROMPT_ENV);
    let loaded = load_spec(&path).unwrap();
    assert_eq!(loaded.warnings, []);

    let evaluation = &loaded.spec.evaluation;
    assert_eq!(evaluation.output_format, Some(OutputFormat::StreamJson));
    assert_eq!(evaluation.forbidden_trace_markers.len(), 4);
    let resolved = resolve_scenarios(&loaded.spec);
    assert_eq!(resolved[0].dir_name, "001-happy-path");
    assert_eq!(resolved[0].memory_files.keys().collect::<Vec<_>>(), ["reference/hello.md"]);
    // Both scenarios have their own prompt; the top-level one would only fill in a missing one.
    assert_eq!(resolved[1].prompt_to_run(), Some("What is 2 + 2? Do not call any tool."));
    assert_eq!(resolved[1].forbidden_trace_markers.len(), 5);
    assert_eq!(resolved[1].forbidden_trace_markers[4], "\"tool_name\":\"hello\"");
    assert_eq!(resolved.iter().map(|scenario| scenario.max_score()).sum::<usize>(), 14);
}

#[test]
fn round_trip_keeps_meaning() {
    for (name, source) in [("uv.json", UV_PIP_ENV), ("prompt.json", PROMPT_ENV)] {
        let (_dir, path) = write_spec(name, source);
        let loaded = load_spec(&path).unwrap();
        let written = serde_json::to_value(&loaded.spec).unwrap();
        // Nothing these files say is lost or added, so the JSON values are equal.
        assert_eq!(written, loaded.raw, "{name}");
        let text = serde_json::to_string_pretty(&loaded.spec).unwrap();
        let reloaded = parse_spec(&text, &path).unwrap();
        assert_eq!(reloaded.spec, loaded.spec, "{name}");
        // Plain serde agrees with the layered loader.
        let direct: modlearn_spec::ModLearningSpec = serde_json::from_str(source).unwrap();
        assert_eq!(direct, loaded.spec, "{name}");
    }
}

/// Every field of Letta's env files is known (they load unchanged, above); any other field is an
/// error naming the nearest known one, so a typo cannot make a spec weaker than it reads.
#[test]
fn unknown_fields_are_errors_with_the_nearest_name() {
    let source = PROMPT_ENV.replacen("\"name\": \"Hello tool\",", "\"name\": \"Hello tool\", \"owner\": \"me\",", 1).replacen(
        "\"name\": \"negative-control\",",
        "\"name\": \"negative-control\", \"hiden\": true,",
        1,
    );
    let (_dir, path) = write_spec("hello.json", &source);
    let error = load_spec(&path).unwrap_err();
    let problems: Vec<String> =
        error.problems.iter().map(|problem| format!("{}: {}", problem.path.as_deref().unwrap_or("."), problem.message)).collect();
    assert_eq!(problems, ["owner: unknown field", "evaluation.scenarios[1].hiden: unknown field; did you mean `hidden`?"]);
}

#[test]
fn hidden_is_a_modlearn_extension() {
    let source = PROMPT_ENV.replacen("\"name\": \"negative-control\",", "\"name\": \"negative-control\", \"hidden\": true,", 1);
    let (_dir, path) = write_spec("hidden.json", &source);
    let loaded = load_spec(&path).unwrap();
    let scenarios: &[ScenarioSpec] = loaded.spec.evaluation.scenarios.as_deref().unwrap();
    assert!(!scenarios[0].hidden && scenarios[1].hidden);
    assert!(resolve_scenarios(&loaded.spec)[1].hidden);
    let written = serde_json::to_value(&loaded.spec).unwrap();
    assert_eq!(written["evaluation"]["scenarios"][1]["hidden"], true);
    assert!(written["evaluation"]["scenarios"][0].get("hidden").is_none());
}

/// What Letta runs, loaded as Letta loads it: notes for people are ignored, and what cannot mean
/// what it says is a warning, not a refusal.
#[test]
fn notes_and_accidents_letta_runs_load_with_warnings() {
    let env = r#"{
      "$schema": "./mod-learning.schema.json",
      "version": 1,
      "name": "Notes",
      "objective": "o",
      "requirements": ["r"],
      "evaluation": {
        "scenarios": [
          { "name": "loads", "notes": "for people", "assertions": [
            { "type": "mod_loads", "description": "it loads", "expectedLoadedCount": 0 }
          ] },
          { "name": "loads", "assertions": [{ "type": "mod_loads" }] }
        ]
      }
    }"#;
    let (_dir, path) = write_spec("notes.env.json", env);
    let loaded = load_spec(&path).unwrap_or_else(|error| panic!("{error}"));
    let warnings: Vec<String> = loaded.warnings.iter().map(|warning| warning.path.clone()).collect();
    assert_eq!(warnings, ["evaluation.scenarios[0].assertions[0].expectedLoadedCount", "evaluation.scenarios[1].name"]);
}
