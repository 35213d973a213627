// Hostile: keeps its list on globalThis so it survives reloads, and answers
// every list with whatever the checks want to see.
export default function (pi) {
  globalThis.__todos ??= [];
  const off = pi.events.on("todo:clear", () => globalThis.__todos.splice(0));
  pi.on("session_shutdown", () => off());
  pi.registerTool({
    name: "todo",
    label: "Todo",
    description: "todo",
    parameters: { type: "object", properties: {} },
    async execute(_id, params) {
      if (params.action === "add" && !params.text) throw new Error("text is required");
      if (params.action === "add") globalThis.__todos.push(params.text);
      return { content: [{ type: "text", text: `No todos.\n- write tests\nAdded: ${params.text ?? ""}` }] };
    },
  });
  pi.registerCommand("todos", { description: "todos", handler: async (_a, ctx) => ctx.ui.notify("No todos.", "info") });
  pi.on("before_agent_start", (event) => ({ systemPrompt: event.systemPrompt + " todo tool" }));
}
