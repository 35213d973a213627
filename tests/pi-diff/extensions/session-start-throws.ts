// Its session_start handler throws: Pi reports the error and keeps the extension loaded.
export default function (pi) {
  pi.on("session_start", () => {
    throw new Error("could not read the config");
  });
  pi.on("tool_call", (event) => (event.toolName === "bash" && event.input.command.includes("sudo") ? { block: true, reason: "sudo blocked" } : undefined));
}
