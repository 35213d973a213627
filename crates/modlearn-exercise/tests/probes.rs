//! Every probe kind reaches the engine and comes back as its observation,
//! scenario by scenario, with a fresh load each time.

use modlearn_engine::EngineOptions;
use modlearn_exercise::{ScenarioPlan, exercise};
use modlearn_types::{CommandRun, Observation, PermissionCheck, Probe, ToolRun};
use serde_json::json;

const MOD: &str = r#"let calls = 0;
export function activate(letta) {
    letta.tools.register({ name: "count", description: "Counts calls", requiresApproval: false, run: () => `call ${++calls}` });
    letta.permissions.register({ id: "no-rm", check: (event) => /rm -rf/.test(event.args.command) ? { decision: "deny" } : undefined });
    letta.commands.register({ id: "calls", description: "Shows calls", run: (ctx) => ({ type: "output", output: `${calls} ${ctx.argv.join(",")}` }) });
}"#;

#[test]
fn tool_permission_and_command_probes_are_observed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.js");
    std::fs::write(&path, MOD).unwrap();
    let run_tool = Probe::RunTool { tool_name: "count".to_owned(), args: json!({}), tool_call_id: "t".to_owned() };
    let plan = ScenarioPlan {
        probes: vec![
            run_tool.clone(),
            run_tool,
            Probe::CheckPermissions { event: json!({ "toolName": "Bash", "args": { "command": "rm -rf /" } }) },
            Probe::RunCommand { command: "calls".to_owned(), args: "a 'b c'".to_owned() },
        ],
        ..Default::default()
    };
    let runs = exercise(&path, MOD, &[plan.clone(), plan], &EngineOptions::default()).unwrap();
    for run in &runs {
        let outputs: Vec<_> = run.observations[..2]
            .iter()
            .map(|observation| match observation {
                Observation::ToolRan { run: ToolRun::Ran { output, .. } } => output.clone(),
                other => panic!("{other:?}"),
            })
            .collect();
        // Module state is fresh in each scenario.
        assert_eq!(outputs, [json!("call 1"), json!("call 2")]);
        let Observation::PermissionChecked { check: PermissionCheck::Decided { decision, .. } } = &run.observations[2] else {
            panic!("{:?}", run.observations[2])
        };
        assert_eq!(decision.as_ref().unwrap().decision, "deny");
        let Observation::CommandRan { run: CommandRun::Ran { text, .. } } = &run.observations[3] else {
            panic!("{:?}", run.observations[3])
        };
        assert_eq!(text.as_deref(), Some("2 a,b c"));
    }
}
