// Keeps its list on globalThis, which outlives a reload: each load adds to what the last one left.
import { Type } from "typebox";

export default function (pi) {
  globalThis.__piTodos ??= [];
  globalThis.__piTodos.push("loaded");
  pi.registerTool({
    name: "todo",
    label: "Todo",
    description: "Todo list on globalThis",
    parameters: Type.Object({ action: Type.String(), text: Type.Optional(Type.String()) }),
    async execute(_id, { action, text }) {
      if (action === "add") {
        if (!text) throw new Error("text is required");
        globalThis.__piTodos.push(text);
        return { content: [{ type: "text", text: `Added: ${text}` }] };
      }
      if (action !== "list") throw new Error("unknown action");
      return { content: [{ type: "text", text: globalThis.__piTodos.map((i) => `- ${i}`).join("\n") }] };
    },
  });
}
