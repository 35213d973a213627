//! `import("data:...")`, which Bun loads: JavaScript written into the URL (percent-encoded or
//! base64) is the mod's own code; other types are refused, and so is a relative import from one.

use modlearn_engine::{CandidateFile, EmitOutcome, Engine, EngineOptions};
use serde_json::json;

#[test]
fn javascript_data_urls_load_and_others_are_refused() {
    let source = r#"
const { default: text } = await import("data:text/javascript,export default 'from a data URL'");
const encoded = await import("data:text/javascript;base64," + btoa("export const n = 42;"));
const refusal = async (url) => { try { await import(url); return "loaded"; } catch { return "refused"; } };
const json = await refusal("data:application/json,{}");
const relative = await refusal("data:text/javascript,import './beside.js'");
export default function activate(letta) {
  letta.events.on("tool_start", () => ({ args: { command: [text, encoded.n, json, relative].join(" ") } }));
}
"#;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mod.js");
    std::fs::write(&path, source).unwrap();
    let mut engine = Engine::new(EngineOptions::default()).unwrap();
    let outcome = engine.load(&CandidateFile { path: &path, source }).unwrap();
    assert!(outcome.loaded, "{:?}", engine.snapshot().unwrap().diagnostics);
    let EmitOutcome::Emitted { event, .. } =
        engine.emit("tool_start", &json!({"toolName": "Bash", "args": {}, "toolCallId": "t"})).unwrap()
    else {
        panic!("rejected")
    };
    assert_eq!(event["args"]["command"], "from a data URL 42 refused refused");
}
