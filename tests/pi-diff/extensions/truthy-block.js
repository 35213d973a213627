// Blocks with truthy values that are not `true`: a number for sudo, a string for force pushes
// (Pi tests `block` for truthiness), and `block: false` for everything else, which lets it run.
export default function (pi) {
  pi.on("tool_call", (event) => {
    if (event.toolName !== "bash") return { block: false };
    const command = event.input.command ?? "";
    if (command.includes("sudo")) return { block: 1, reason: "sudo is not allowed here" };
    if (command.includes("--force")) return { block: "yes" };
    return { block: false, reason: "fine" };
  });
}
