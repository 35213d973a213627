// Pi-style tool: reads a second `run` parameter Letta never passes, so every pypi_pin call throws
// a TypeError (an error result and a tool.run diagnostic). The rest is right.

const PINS = { requests: "2.32.3", rich: "13.9.4" };

export function activate(letta) {
  letta.tools.register({
    name: "pypi_pin",
    description: "The pinned requirement of a known Python package.",
    parameters: { type: "object", properties: { package: { type: "string" } }, required: ["package"] },
    requiresApproval: false,
    run(ctx, args) {
      const name = args.package.trim();
      return PINS[name] ? `${name}==${PINS[name]}` : { status: "error", output: `unknown package: ${name}` };
    },
  });
  letta.permissions.register({
    id: "no-sudo-pip",
    check(event) {
      if (event.toolName === "Bash" && /\bsudo\b.*\bpip3? install\b/.test(event.args?.command ?? "")) {
        return { decision: "deny", reason: "no-sudo-pip: use uv in the project environment." };
      }
    },
  });
  letta.events.on("tool_start", (event) => {
    if (event.toolName !== "Bash") return;
    const command = String(event.args?.command ?? "");
    const rewritten = command.replace(/(^|&&\s*|;\s*)(?:python3? -m )?pip3? install\b/g, "$1uv pip install");
    if (rewritten !== command) return { args: { ...event.args, command: rewritten } };
  });
  letta.events.on("turn_end", (event) => {
    if (event.stopReason === "end_turn" && /\bInstalled\b/.test(event.assistantMessage ?? "")) {
      return { continue: "Run uv pip list to verify the install." };
    }
  });
}
