// Everything right except the sudo guard: it answers `ask`, which a headless session cannot put
// to anyone, so the call is blocked (not denied) and the trace never says "denied".

const PINS = { requests: "2.32.3", rich: "13.9.4" };

export function activate(letta) {
  letta.tools.register({
    name: "pypi_pin",
    description: "The pinned requirement of a known Python package.",
    parameters: { type: "object", properties: { package: { type: "string" } }, required: ["package"] },
    requiresApproval: false,
    run(ctx) {
      const name = String(ctx.args.package ?? "").trim();
      return PINS[name] ? `${name}==${PINS[name]}` : { status: "error", output: `unknown package: ${name}` };
    },
  });
  letta.permissions.register({
    id: "no-sudo-pip",
    check(event) {
      const command = event.toolName === "Bash" ? String(event.args?.command ?? "") : "";
      if (/\bsudo\b.*\bpip3? install\b/.test(command)) return { decision: "ask", reason: "no-sudo-pip: use uv instead?" };
    },
  });
  letta.events.on("tool_start", (event) => {
    if (event.toolName !== "Bash" || typeof event.args?.command !== "string") return;
    const command = event.args.command.replace(/(^|&&\s*|;\s*)(?:python3? -m )?pip3? install\b/g, "$1uv pip install");
    if (command !== event.args.command) return { args: { ...event.args, command } };
  });
  letta.events.on("turn_end", (event) => {
    if (event.stopReason === "end_turn" && /\bInstalled\b/.test(event.assistantMessage ?? "")) {
      return { continue: "Run uv pip list to verify the install." };
    }
  });
}
