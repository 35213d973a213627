// Subscribes per session: session_start subscribes, session_shutdown unsubscribes.
import { StringEnum } from "@mariozechner/pi-ai";
import { Type } from "@sinclair/typebox";

export default function (pi) {
  const items = new Map();
  let unsubscribe;
  const render = () => (items.size === 0 ? "No todos." : [...items.keys()].map((text) => `- ${text}`).join("\n"));
  pi.on("session_start", () => {
    unsubscribe = pi.events.on("todo:clear", () => items.clear());
  });
  pi.on("session_shutdown", () => {
    unsubscribe?.();
    unsubscribe = undefined;
  });
  pi.registerTool({
    name: "todo",
    label: "Todo",
    description: "A small todo list",
    parameters: Type.Object({ action: StringEnum(["add", "list"]), text: Type.Optional(Type.String()) }),
    async execute(_toolCallId, { action, text }) {
      if (action === "add") {
        if (typeof text !== "string" || text.trim() === "") throw new Error("text is required");
        items.set(text.trim(), true);
        return { content: [{ type: "text", text: `Added: ${text.trim()}` }] };
      }
      return { content: [{ type: "text", text: render() }] };
    },
  });
  pi.registerCommand("todos", { description: "Show todos", handler: async (_args, ctx) => ctx.ui.notify(render(), "info") });
  pi.on("before_agent_start", (event) => ({ systemPrompt: event.systemPrompt + "\nA todo tool keeps your task list." }));
}
