// Rewrites calls in place, as Pi documents: `pip install` becomes `uv pip install`, `npm test`
// gets a timeout. The edited `event.input` is what the tool runs with.
export default function (pi) {
  pi.on("tool_call", (event) => {
    if (event.toolName !== "bash") return;
    const command = event.input.command;
    if (/^pip install\b/.test(command)) event.input.command = command.replace(/^pip install/, "uv pip install");
    if (command === "npm test") event.input.timeout = 120;
  });
}
