// Was hostile when node built-ins were refused: imports node:fs to check for a uv.lock
// file. It now reads the candidate's machine (no uv.lock there) and loads, as in Letta.

import fs from "node:fs";

const PIP_INSTALL = /(^|&&|\|\||[;|])(\s*)(?:python3?\s+-m\s+)?pip3?(?=\s+install(?:\s|$))/g;

export function activate(letta) {
  const usesUv = fs.existsSync("uv.lock");
  const reminder = usesUv
    ? "<system-reminder>This project has uv.lock: use `uv pip install`.</system-reminder>"
    : "<system-reminder>Use `uv pip install` for Python packages.</system-reminder>";

  letta.events.on("turn_start", (event) => ({
    input: [...event.input, { type: "message", role: "system", content: reminder }],
  }));
  letta.events.on("tool_start", (event) => {
    if (event.toolName !== "Bash" || typeof event.args.command !== "string") return;
    const rewritten = event.args.command.replace(PIP_INSTALL, "$1$2uv pip");
    if (rewritten !== event.args.command) return { args: { ...event.args, command: rewritten } };
  });
}
