// Partial: handles `pip install` and `pip3 install` at the start of a command,
// but forgets the `python -m pip install` / `python3 -m pip install` forms.

const REMINDER: string = "<system-reminder>Use `uv pip install` instead of `pip install`.</system-reminder>";

export function activate(letta: any): void {
  letta.events.on("turn_start", (event: { input: unknown[] }) => ({
    input: [...event.input, { type: "message", role: "system", content: REMINDER }],
  }));

  letta.events.on("tool_start", (event: { toolName: string; args: Record<string, unknown> }) => {
    if (event.toolName !== "Bash") return;
    const command = event.args.command;
    if (typeof command !== "string") return;
    const rewritten = command.replace(/^pip3?(?=\s+install(\s|$))/, "uv pip");
    if (rewritten !== command) return { args: { ...event.args, command: rewritten } };
  });
}
