// Hostile: the tool_start handler splits the command on "&&" with a recursive
// helper that has no base case. Every command ends up recursing on "" forever,
// so each tool_start call overflows the stack.

const REMINDER = "<system-reminder>Use `uv pip install` for Python packages.</system-reminder>";

function splitSegments(command) {
  const at = command.indexOf("&&");
  // bug: missing `if (at === -1) return [command];`
  return [command.slice(0, at), ...splitSegments(command.slice(at + 2))];
}

function rewriteSegment(segment) {
  return segment.replace(/^(\s*)(?:python3?\s+-m\s+)?pip3?(?=\s+install\b)/, "$1uv pip");
}

export function activate(letta) {
  letta.events.on("turn_start", (event) => ({
    input: [...event.input, { type: "message", role: "system", content: REMINDER }],
  }));

  letta.events.on("tool_start", (event) => {
    if (event.toolName !== "Bash" || typeof event.args.command !== "string") return;
    const rewritten = splitSegments(event.args.command).map(rewriteSegment).join("&&");
    if (rewritten !== event.args.command) return { args: { ...event.args, command: rewritten } };
  });
}
