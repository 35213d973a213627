// The todo tool reporting a missing text by returning `isError: true` instead of throwing: an
// error since Pi 0.99. Its parameters come from the old package names, which Pi 1.x aliases.
import { Type } from "@sinclair/typebox";
import { StringEnum } from "@mariozechner/pi-ai";

export default function (pi) {
  const items = [];
  pi.registerTool({
    name: "todo",
    label: "Todo",
    description: "Add to or list the todo list",
    parameters: Type.Object({ action: StringEnum(["add", "list"]), text: Type.Optional(Type.String()) }),
    async execute(_id, { action, text }) {
      if (action === "add" && !text) return { content: [{ type: "text", text: "text is required" }], isError: true };
      if (action === "add") {
        items.push(text);
        return { content: [{ type: "text", text: `Added: ${text}` }] };
      }
      return { content: [{ type: "text", text: items.length ? items.map((item) => `- ${item}`).join("\n") : "No todos." }] };
    },
  });
}
