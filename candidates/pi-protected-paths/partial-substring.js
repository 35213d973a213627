// Partly wrong: substring matching blocks `.envrc` and `echo sudo`, and misses nothing else.
export default function (pi) {
  pi.on("tool_call", (event) => {
    const path = String(event.input.path ?? "");
    if ((event.toolName === "write" || event.toolName === "edit") && [".env", ".git/", "secrets/"].some((p) => path.includes(p))) {
      return { block: true, reason: `refusing to modify ${path}` };
    }
    if (event.toolName === "bash" && String(event.input.command).includes("sudo")) {
      return { block: true, reason: "no sudo" };
    }
  });
}
