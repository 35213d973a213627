// Which of Pi's events each probe runs. A probe exercises one stage of a Pi session: the turn's
// start, a tool call's gate, a tool call's result, the turn's end. The engine runs each stage on
// its own (a scripted session runs them in turn); the differential test (scripts/pi-diff) runs
// the whole of a real Pi session for each probe and sets aside, for its duration, the handlers
// of the events this table does not give the stage. No imports: the test reads it too.

export const STAGE_EVENTS = Object.freeze({
  turn_start: Object.freeze(["input", "before_agent_start", "agent_start", "turn_start", "message_start", "message_end", "context"]),
  tool_start: Object.freeze(["tool_execution_start", "tool_call", "tool_execution_end", "message_start", "message_end"]),
  tool_end: Object.freeze(["tool_result", "tool_execution_end", "message_start", "message_end", "context"]),
  turn_end: Object.freeze(["message_start", "message_end", "turn_end", "agent_end", "agent_settled"]),
});

/** The prompt a tool probe's turn starts from, and the text the model answers with. */
export const PROBE_PROMPT = "Go ahead.";
export const MODEL_TEXT = "Done.";
