"use strict";
const REMINDER = "<system-reminder>Use `uv pip install` for Python packages; plain `pip install` and `python -m pip install` are rewritten to it automatically.</system-reminder>";
const OPERATOR = /(\s*(?:&&|\|\||;|\|)\s*)/;
const LAUNCHER = /^(?:python3?\s+-m\s+)?pip3?(?=\s+install(?:\s|$))/;
function rewriteSegment(segment) { const lead = /^\s*/.exec(segment)[0]; const body = segment.slice(lead.length); const match = LAUNCHER.exec(body); if (!match) return segment; return lead + "uv pip" + body.slice(match[0].length); }
function rewriteCommand(command) { return command.split(OPERATOR).map((piece, index) => (index % 2 === 1 ? piece : rewriteSegment(piece))).join(""); }
function activate(letta) {
  const offTurn = letta.events.on("turn_start", (event) => { event.input.push({ type: "message", role: "system", content: REMINDER }); });
  const offTool = letta.events.on("tool_start", (event) => { if (event.toolName !== "Bash" || typeof event.args.command !== "string") return; const next = rewriteCommand(event.args.command); if (next !== event.args.command) event.args.command = next; });
  return () => { offTurn(); offTool(); };
}
Object.defineProperty(exports, "__esModule", { value: true });
exports.default = activate;
