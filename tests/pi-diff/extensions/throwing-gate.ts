// A gate that throws: an Error for sudo (its message reaches the model), a bare string for
// writes to .env (Pi wraps it), and nothing else. Pi blocks the call when a tool_call handler throws.
export default function (pi) {
  pi.on("tool_call", (event) => {
    if (event.toolName === "bash" && /\bsudo\b/.test(event.input.command)) throw new Error(`gate refused sudo: ${event.input.command}`);
    if (event.toolName === "write" && String(event.input.path).endsWith(".env")) throw "no .env writes";
  });
  // A second handler that would allow everything: it never runs after a block.
  pi.on("tool_call", () => ({ block: false }));
}
