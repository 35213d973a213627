// Items in the factory's closure; the bus subscription is undone on session_shutdown.
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";

export default function (pi: ExtensionAPI) {
  let items: string[] = [];
  const render = () => (items.length === 0 ? "No todos." : items.map((item) => `- ${item}`).join("\n"));
  const off = pi.events.on("todo:clear", () => {
    items = [];
  });
  pi.on("session_shutdown", () => off());

  pi.registerTool({
    name: "todo",
    label: "Todo",
    description: "Add to or list the todo list",
    parameters: Type.Object({ action: Type.Union([Type.Literal("add"), Type.Literal("list")]), text: Type.Optional(Type.String()) }),
    async execute(_id, params: { action: "add" | "list"; text?: string }) {
      if (params.action === "add") {
        const text = (params.text ?? "").trim();
        if (text === "") throw new Error("text is required for add");
        items.push(text);
        return { content: [{ type: "text", text: `Added: ${text}` }], details: { items: [...items] } };
      }
      return { content: [{ type: "text", text: render() }], details: { items: [...items] } };
    },
  });

  pi.registerCommand("todos", { description: "Show the todo list", handler: async (_args, ctx) => ctx.ui.notify(render(), "info") });
  pi.on("before_agent_start", (event) => ({ systemPrompt: `${event.systemPrompt}\n\nUse the todo tool to track multi-step work.` }));
}
