// Written for Pi 1.x: TypeBox 1.x and the @earendil-works names, the prompt line added through
// event.systemPromptOptions, a missing text reported as a result with isError, and the bus
// subscription left for Pi to remove at shutdown.
import { Type } from "typebox";
import { StringEnum } from "@earendil-works/pi-ai";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function (pi: ExtensionAPI) {
  const items = new Set<string>();
  const render = () => (items.size === 0 ? "No todos." : [...items].map((item) => `- ${item}`).join("\n"));
  pi.events.on("todo:clear", () => items.clear());
  pi.registerTool({
    name: "todo",
    label: "Todo",
    description: "A small todo list: add an item, or list them",
    parameters: Type.Object({ action: StringEnum(["add", "list"] as const), text: Type.Optional(Type.String()) }),
    async execute(_toolCallId, params) {
      if (params.action === "list") return { content: [{ type: "text", text: render() }], details: { count: items.size } };
      const text = params.text?.trim();
      if (!text) return { content: [{ type: "text", text: "text is required to add a todo" }], details: {}, isError: true };
      items.add(text);
      return { content: [{ type: "text", text: `Added: ${text}` }], details: { count: items.size } };
    },
  });
  pi.registerCommand("todos", { description: "Show the todo list", handler: async (_args, ctx) => ctx.ui.notify(render(), "info") });
  pi.on("before_agent_start", (event) => {
    const options = event.systemPromptOptions;
    options.appendSystemPrompt = [options.appendSystemPrompt, "A todo tool keeps your task list: add steps to it and list them."].filter(Boolean).join("\n");
  });
}
