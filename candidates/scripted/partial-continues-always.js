// Asks for the verify turn after every turn, the follow-up turn included: the session runs into
// maxTurns, and turns that installed nothing get a follow-up too.

const PINS = { requests: "2.32.3", rich: "13.9.4" };

export default function activate(letta) {
  letta.tools.register({
    name: "pypi_pin",
    description: "The pinned requirement of a known Python package.",
    parameters: { type: "object", properties: { package: { type: "string" } }, required: ["package"] },
    requiresApproval: false,
    run: ({ args }) => (PINS[args.package] ? `${args.package}==${PINS[args.package]}` : { status: "error", output: `unknown package: ${args.package}` }),
  });
  letta.permissions.register({
    id: "no-sudo-pip",
    check: (event) =>
      event.toolName === "Bash" && /\bsudo\b.*\bpip3? install\b/.test(event.args?.command ?? "")
        ? { decision: "deny", reason: "no-sudo-pip: use uv in the project environment." }
        : undefined,
  });
  letta.events.on("tool_start", (event) => {
    if (event.toolName !== "Bash") return;
    const command = String(event.args?.command ?? "");
    const rewritten = command.replace(/(^|&&\s*|;\s*)(?:python3? -m )?pip3? install\b/g, "$1uv pip install");
    if (rewritten !== command) return { args: { ...event.args, command: rewritten } };
  });
  letta.events.on("turn_end", () => ({ continue: "Run uv pip list to verify the install." }));
}
