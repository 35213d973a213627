// Proposal: one anchored regular expression; handlers return fresh input/args
// objects instead of mutating the event.

const REMINDER: string =
  "<system-reminder>Install Python packages with `uv pip install <package>`. " +
  "Do not call `pip install`, `python -m pip install` or `python3 -m pip install` directly.</system-reminder>";

// A pip install can start the command or follow a shell operator. The launcher
// is `pip`/`pip3`, optionally behind `python -m` or `python3 -m`. The lookahead
// keeps " install ..." (and everything after it) out of the replaced span.
const PIP_INSTALL: RegExp = /(^|&&|\|\||[;|(])(\s*)(?:python3?\s+-m\s+)?pip3?(?=\s+install(?:\s|$))/g;

function rewritePipInstall(command: string): string {
  return command.replace(PIP_INSTALL, (_match: string, operator: string, space: string) => operator + space + "uv pip");
}

export function activate(letta: any): void {
  letta.events.on("turn_start", (event: { input: unknown[] }) => {
    const reminder = { type: "message", role: "system", content: REMINDER };
    return { input: [...event.input, reminder] };
  });

  letta.events.on("tool_start", (event: { toolName: string; args: Record<string, unknown> }) => {
    if (event.toolName !== "Bash") return undefined;
    const command = event.args.command;
    if (typeof command !== "string") return undefined;
    const rewritten = rewritePipInstall(command);
    if (rewritten === command) return undefined;
    return { args: { ...event.args, command: rewritten } };
  });
}
