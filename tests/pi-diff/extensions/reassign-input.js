// Assigns a new input object instead of editing the one it was given: Pi runs the call with the
// arguments it came with, so nothing is rewritten. It also returns `{ input }`, which Pi ignores.
export default function (pi) {
  pi.on("tool_call", (event) => {
    if (event.toolName === "bash" && event.input.command.startsWith("pip install")) {
      event.input = { command: event.input.command.replace("pip", "uv pip") };
      return { input: event.input };
    }
  });
}
