// Subscribes on every session_start and never unsubscribes: Pi (0.84 and later) removes an
// extension's pi.events subscriptions itself when it shuts the extension down, so a reload still
// leaves one listener. (Under Pi 0.58 each reload added one more.)
import { Type } from "@sinclair/typebox";

export default function (pi) {
  let items = [];
  const render = () => (items.length === 0 ? "No todos." : items.map((item) => `- ${item}`).join("\n"));
  pi.on("session_start", () => {
    pi.events.on("todo:clear", () => {
      items = [];
    });
  });
  pi.registerTool({
    name: "todo",
    label: "Todo",
    description: "A small todo list",
    parameters: Type.Object({ action: Type.String(), text: Type.Optional(Type.String()) }),
    async execute(_id, params) {
      if (params.action === "add") {
        if (!params.text) throw new Error("text is required");
        items.push(params.text);
        return { content: [{ type: "text", text: `Added: ${params.text}` }] };
      }
      return { content: [{ type: "text", text: render() }] };
    },
  });
  pi.registerCommand("todos", { description: "Show todos", handler: async (_args, ctx) => ctx.ui.notify(render(), "info") });
  pi.on("before_agent_start", (event) => ({ systemPrompt: event.systemPrompt + "\nUse the todo tool." }));
}
