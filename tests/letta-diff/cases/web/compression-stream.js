// A mod that makes a CompressionStream in activate, as Bun lets it.
const MSG = { type: "message", role: "system", content: "Use `uv pip install` for Python packages." };
export function activate(letta) {
  const gzip = new CompressionStream("gzip");
  letta.events.on("turn_start", (event) => { event.input.push(MSG); });
}
