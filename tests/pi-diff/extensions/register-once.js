// Registers its tool and command only on the module's first load: Pi imports the module afresh on
// every reload, so the flag starts over and the registration happens every time.
import { Type } from "typebox";

let registered = false;

export default function (pi) {
  if (registered) return;
  registered = true;
  const items = [];
  pi.registerTool({
    name: "todo",
    label: "Todo",
    description: "Todo list",
    parameters: Type.Object({ action: Type.Union([Type.Literal("add"), Type.Literal("list")]), text: Type.Optional(Type.String()) }),
    async execute(_id, { action, text }) {
      if (action === "add") {
        if (!text) throw new Error("text is required");
        items.push(text);
        return { content: [{ type: "text", text: `Added: ${text}` }] };
      }
      return { content: [{ type: "text", text: items.map((i) => `- ${i}`).join("\n") || "No todos." }] };
    },
  });
  pi.registerCommand("todos", { description: "Show todos", handler: async (_args, ctx) => ctx.ui.notify(items.length ? items.join(", ") : "No todos.", "info") });
}
