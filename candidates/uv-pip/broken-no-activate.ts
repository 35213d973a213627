// Broken: the factory is exported under the wrong name (`setup`), so the module
// has neither a default function nor an `activate` export.

const REMINDER: string = "<system-reminder>Use `uv pip install` for Python packages.</system-reminder>";

export function setup(letta: any): void {
  letta.events.on("turn_start", (event: { input: object[] }) => ({
    input: [...event.input, { type: "message", role: "system", content: REMINDER }],
  }));
  letta.events.on("tool_start", (event: { toolName: string; args: { command?: unknown } }) => {
    if (event.toolName !== "Bash" || typeof event.args.command !== "string") return;
    const rewritten = event.args.command.replace(/^(?:python3?\s+-m\s+)?pip3?(?=\s+install\b)/, "uv pip");
    if (rewritten !== event.args.command) return { args: { ...event.args, command: rewritten } };
  });
}
