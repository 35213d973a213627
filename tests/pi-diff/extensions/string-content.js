// Returns `content` as a string instead of content blocks. Pi stores it as it is, and its own
// handling of the result then fails on it: the model gets that error instead.
export default function (pi) {
  pi.on("tool_result", (event) => {
    if (event.toolName === "bash") return { content: event.content.map((block) => block.text).join("").replace(/sk-[a-z]+-\d+/g, "[redacted]") };
  });
}
