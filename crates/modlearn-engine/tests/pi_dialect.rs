//! The `pi` dialect end to end, in a real engine: Pi's own runner, `pi` API and tool pipeline
//! (vendor/pi.js) behind modlearn's loader and probes. The stages themselves are tested in
//! js/tests/pi.test.js.

use modlearn_engine::{CandidateFile, EmitOutcome, Engine, EngineOptions};
use modlearn_types::{Dialect, ToolRun};
use serde_json::{Value, json};

fn engine() -> Engine {
    Engine::new(EngineOptions { dialect: Dialect::Pi, ..Default::default() }).unwrap()
}

fn emit(engine: &mut Engine, name: &str, payload: Value) -> Value {
    match engine.emit(name, &payload).unwrap() {
        EmitOutcome::Emitted { event, .. } => event,
        EmitOutcome::Rejected { message } => panic!("rejected: {message}"),
    }
}

/// Both package scopes and both names of TypeBox 1.x resolve, to the modules of the Pi release
/// reports name (`Dialect::host`).
#[test]
fn imports_both_scopes_and_typebox_1() {
    let dir = tempfile::tempdir().unwrap();
    let release = Dialect::Pi.host().trim_start_matches("Pi ");
    let source = &r#"
import { Type } from "typebox";
import { Type as Old } from "@sinclair/typebox";
import { Compile } from "typebox/compile";
import { StringEnum } from "@earendil-works/pi-ai";
import { isToolCallEventType } from "@mariozechner/pi-coding-agent";
import { VERSION } from "@earendil-works/pi-coding-agent";
export default function (pi) {
  if (Type !== Old || typeof Compile !== "function" || VERSION !== "RELEASE") throw new Error(`not the modules of Pi RELEASE: ${VERSION}`);
  pi.registerTool({
    name: "pick", label: "Pick", description: "Pick a colour",
    parameters: Type.Object({ colour: StringEnum(["red", "blue"]) }),
    async execute(_id, params) { return { content: [{ type: "text", text: `picked ${params.colour}` }] }; },
  });
  pi.on("tool_call", (event) => (isToolCallEventType("bash", event) ? { block: true, reason: "no shell" } : undefined));
}
"#
    .replace("RELEASE", release);
    let path = dir.path().join("pick.ts");
    std::fs::write(&path, source).unwrap();
    let mut engine = engine();
    engine.new_generation().unwrap();
    let outcome = engine.load(&CandidateFile { path: &path, source }).unwrap();
    assert!(outcome.loaded, "{:?}", engine.snapshot().unwrap().diagnostics);
    let ran = |run: ToolRun| match run {
        ToolRun::Ran { status, output, .. } => (status, output),
        other => panic!("{other:?}"),
    };
    assert_eq!(ran(engine.run_tool("pick", &json!({"colour": "blue"}), "call-1").unwrap()), ("success".to_owned(), json!("picked blue")));
    // Pi's schema check refuses a colour the enum does not have, before `execute` runs.
    assert_eq!(ran(engine.run_tool("pick", &json!({"colour": "green"}), "call-2").unwrap()).0, "error");
    let blocked = emit(&mut engine, "tool_start", json!({"toolCallId": "c", "toolName": "bash", "args": {"command": "ls"}}));
    assert_eq!(blocked["result"], json!({"status": "error", "output": "no shell"}));
}

/// A reload imports the extension afresh, as Pi's loader does: module state starts over, so a
/// module-level "register once" flag registers again on every load.
#[test]
fn reload_imports_the_extension_afresh() {
    let dir = tempfile::tempdir().unwrap();
    let source = r#"
let registered = false;
export default function (pi) {
  if (registered) return;
  registered = true;
  pi.registerCommand("once", { description: "Registered once per module", handler: async () => undefined });
}
"#;
    let path = dir.path().join("once.js");
    std::fs::write(&path, source).unwrap();
    let mut engine = engine();
    for cycle in 0..3 {
        if cycle == 0 {
            engine.new_generation().unwrap();
        } else {
            engine.reload_generation().unwrap();
        }
        assert!(engine.reload(&CandidateFile { path: &path, source }).unwrap().loaded);
        let commands: Vec<String> = engine.snapshot().unwrap().commands.iter().map(|command| command.id.clone()).collect();
        assert_eq!(commands, ["once"], "cycle {cycle}");
        engine.dispose().unwrap();
    }
}
