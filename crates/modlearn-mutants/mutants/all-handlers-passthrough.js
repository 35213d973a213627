// Mutant `all-handlers-passthrough`: a handler for every event, each of which
// returns nothing and touches nothing. Checks that only count handlers, or
// that only ask for args to stay unchanged, pass it.
const EVENTS = [
  "conversation_open",
  "conversation_close",
  "tool_start",
  "tool_end",
  "turn_start",
  "turn_end",
  "compact_start",
  "compact_end",
  "llm_start",
  "llm_end",
];

export function activate(letta) {
  for (const name of EVENTS) {
    letta.events.on(name, () => undefined);
  }
}
