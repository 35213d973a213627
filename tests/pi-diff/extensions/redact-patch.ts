// Redacts secrets by returning a content patch; flags the output of `rm` as an error and turns a
// failed `false` into a success (isError overrides, which Pi applies since 0.67).
import { isBashToolResult } from "@earendil-works/pi-coding-agent";

const text = (content) => content.filter((block) => block.type === "text").map((block) => block.text).join("\n");

export default function (pi) {
  pi.on("tool_result", (event) => {
    if (!isBashToolResult(event)) return undefined;
    const output = text(event.content);
    if (/sk-[a-z]+-\d+/.test(output)) return { content: [{ type: "text", text: output.replace(/sk-[a-z]+-\d+/g, "[redacted]") }] };
    if (event.input.command.startsWith("rm ")) return { isError: true, content: [{ type: "text", text: `refusing to report ${event.input.command}` }] };
    if (event.input.command === "false") return { isError: false, content: [{ type: "text", text: "exit status ignored" }] };
    return undefined;
  });
}
