// Proposal: mutate event.input in place and return nothing; count Bash test
// runs in a closure; return a disposer that unregisters both handlers and
// resets the counter.

const REMINDER = Object.freeze({
  type: "message",
  role: "system",
  content:
    "<system-reminder>TEST-FIRST: Before editing any file, run the existing tests and note which ones fail.</system-reminder>",
});

export default function activate(letta) {
  let testRuns = 0;

  const onTurnStart = (event) => {
    event.input.push({ ...REMINDER });
  };

  const onToolStart = (event) => {
    if (event.toolName === "Bash" && /\b(?:npm test|cargo test|pytest|go test)\b/.test(String(event.args.command))) {
      testRuns += 1;
    }
  };

  const offTurn = letta.events.on("turn_start", onTurnStart);
  const offTool = letta.events.on("tool_start", onToolStart);

  return () => {
    offTurn();
    offTool();
    testRuns = 0;
  };
}
