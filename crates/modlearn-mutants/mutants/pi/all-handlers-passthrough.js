// Mutant `all-handlers-passthrough` (Pi): a handler for every event a headless
// session fires, each returning nothing and touching nothing.
const EVENTS = [
  "session_start", "session_shutdown", "input", "before_agent_start", "agent_start", "agent_end", "turn_start", "turn_end",
  "tool_execution_start", "tool_call", "tool_result", "tool_execution_end", "session_before_compact", "session_compact",
];

export default function (pi) {
  for (const name of EVENTS) pi.on(name, () => undefined);
}
