// Two tool_result handlers: the first redacts with a patch, the second sees the patched content
// and appends a note; a third throws, which Pi reports and passes over.
export default function (pi) {
  pi.on("tool_result", (event) => {
    const joined = event.content.map((block) => block.text ?? "").join("\n");
    if (joined.includes("sk-")) return { content: [{ type: "text", text: joined.replace(/sk-[a-z]+-\d+/g, "***") }], details: { redacted: true } };
  });
  pi.on("tool_result", (event) => {
    if (event.details?.redacted) return { content: [...event.content, { type: "text", text: "(a secret was removed)" }] };
  });
  pi.on("tool_result", () => {
    throw new Error("the third handler failed");
  });
}
