// Listens to every event kind Pi 1.6 has, keeping the last payload of each; the handlers change
// nothing, so every call and turn goes on as it would without it.
const EVENTS = [
  "resources_discover", "session_start", "session_before_switch", "session_before_fork", "session_before_compact", "session_compact",
  "session_before_tree", "session_tree", "session_shutdown", "session_info_changed", "project_trust", "input", "before_agent_start",
  "agent_start", "agent_end", "agent_before_settle", "agent_settled", "turn_start", "turn_end", "context", "context_with_system",
  "before_provider_request", "before_provider_headers", "after_provider_response", "provider_stream_event", "message_start",
  "message_update", "message_end", "tool_execution_start", "tool_execution_update", "tool_execution_end", "tool_call", "tool_result",
  "model_select", "thinking_level_select", "user_bash", "ui_prompt_start", "ui_prompt_end", "mcp_servers_change", "cache_warming_decision",
];

export default function (pi) {
  const last = new Map();
  for (const name of EVENTS) pi.on(name, (event) => void last.set(name, event?.type));
}
