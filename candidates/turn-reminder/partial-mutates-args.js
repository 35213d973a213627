// Partial: the reminder is right, but the tool_start "observer" tags the args
// of every tool call in place, so no tool keeps its original arguments.

const REMINDER_TEXT =
  "<system-reminder>TEST-FIRST: Before editing any file, run the existing tests and note which ones fail.</system-reminder>";

export function activate(letta) {
  let turn = 0;

  letta.events.on("turn_start", (event) => {
    turn += 1;
    event.input.push({ type: "message", role: "system", content: REMINDER_TEXT });
  });

  letta.events.on("tool_start", (event) => {
    event.args.testFirstTurn = turn;
  });
}
