// Install helper: uv rewrites, a pin tool, a sudo guard and a verify follow-up.

const PINS: Record<string, string> = { requests: "2.32.3", rich: "13.9.4" };
const LAUNCHER = /(^|&&\s*|;\s*|\|\|\s*)(?:python3? -m )?pip3? install\b/g;
const SUDO_PIP = /\bsudo\b.*\bpip3? install\b/;

function pin(name: string): string | { status: "error"; output: string } {
  const version = PINS[name];
  return version ? `${name}==${version}` : { status: "error", output: `unknown package: ${name}` };
}

export function activate(letta: any) {
  const disposers: Array<() => void> = [];
  disposers.push(
    letta.tools.register({
      name: "pypi_pin",
      description: "The pinned requirement (name==version) of a known Python package.",
      parameters: { type: "object", properties: { package: { type: "string" } }, required: ["package"] },
      requiresApproval: false,
      run: (ctx: any) => pin(String(ctx.args.package ?? "").trim()),
    }),
  );
  disposers.push(
    letta.permissions.register({
      id: "no-sudo-pip",
      description: "Refuses pip installs under sudo",
      check(event: any) {
        const command = event.toolName === "Bash" ? event.args?.command : undefined;
        if (typeof command === "string" && SUDO_PIP.test(command)) {
          return { decision: "deny", reason: "no-sudo-pip: install into the project environment with uv instead." };
        }
        return undefined;
      },
    }),
  );
  disposers.push(
    letta.events.on("tool_start", (event: any) => {
      const command = event.toolName === "Bash" ? event.args?.command : undefined;
      if (typeof command !== "string") return;
      const rewritten = command.replace(LAUNCHER, "$1uv pip install");
      if (rewritten !== command) return { args: { ...event.args, command: rewritten } };
    }),
  );
  disposers.push(
    letta.events.on("turn_end", (event: any) => {
      if (event.stopReason === "end_turn" && /\bInstalled\b/.test(event.assistantMessage ?? "")) {
        return { continue: "Run uv pip list to verify the install." };
      }
    }),
  );
  return () => disposers.reverse().forEach((dispose) => dispose());
}
