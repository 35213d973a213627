// Partial: rebuilds the command from the captured package list, so anything
// after a shell operator (`&& echo done`) is silently dropped.

const REMINDER: string = "<system-reminder>Install Python packages with `uv pip install`, never bare pip.</system-reminder>";
const INSTALL: RegExp = /^(?:python3?\s+-m\s+)?pip3?\s+install\s+([^&|;]*)/;

export default function (letta: any) {
  letta.events.on("turn_start", (event: { input: object[] }) => {
    event.input.push({ type: "message", role: "system", content: REMINDER });
  });

  letta.events.on("tool_start", (event: { toolName: string; args: { command?: unknown } }) => {
    if (event.toolName !== "Bash" || typeof event.args.command !== "string") return;
    const match = INSTALL.exec(event.args.command);
    if (match === null) return;
    const packages: string = match[1].trim();
    return { args: { ...event.args, command: "uv pip install " + packages } };
  });
}
