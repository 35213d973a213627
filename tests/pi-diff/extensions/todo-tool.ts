// A todo list for the model (a TypeBox 1.x tool with a StringEnum action) and a /todos command
// that shows it, modelled on Pi's todo example. The list lives in the factory's closure.
import { Type } from "typebox";
import { StringEnum } from "@earendil-works/pi-ai";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function (pi: ExtensionAPI) {
  const items: string[] = [];
  const render = () => (items.length === 0 ? "No todos." : items.map((item) => `- ${item}`).join("\n"));
  pi.registerTool({
    name: "todo",
    label: "Todo",
    description: "Add to or list the todo list",
    parameters: Type.Object({ action: StringEnum(["add", "list"] as const), text: Type.Optional(Type.String()) }),
    async execute(_toolCallId, params) {
      if (params.action === "add") {
        if (!params.text?.trim()) throw new Error("text is required");
        items.push(params.text.trim());
        return { content: [{ type: "text", text: `Added: ${params.text.trim()}` }], details: { items: [...items] } };
      }
      return { content: [{ type: "text", text: render() }], details: { items: [...items] } };
    },
  });
  pi.registerCommand("todos", { description: "Show the todo list", handler: async (_args, ctx) => ctx.ui.notify(render(), "info") });
}
