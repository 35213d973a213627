// Partly wrong: reports a missing text by returning it with `details.isError`, which is no error
// (Pi 0.99+ takes the result's own `isError: true` as one), and appends the reminder as a message
// instead of to the system prompt.
export default function (pi) {
  const items = [];
  const render = () => (items.length === 0 ? "No todos." : items.map((item) => `- ${item}`).join("\n"));
  const off = pi.events.on("todo:clear", () => items.splice(0));
  pi.on("session_shutdown", () => off());
  pi.registerTool({
    name: "todo",
    label: "Todo",
    description: "A small todo list",
    parameters: { type: "object", properties: { action: { type: "string" }, text: { type: "string" } } },
    async execute(_id, params) {
      if (params.action === "add") {
        if (!params.text) return { content: [{ type: "text", text: "text is required" }], details: { isError: true } };
        items.push(params.text);
        return { content: [{ type: "text", text: `Added: ${params.text}` }] };
      }
      return { content: [{ type: "text", text: render() }] };
    },
  });
  pi.registerCommand("todos", { description: "Show todos", handler: async (_args, ctx) => ctx.ui.notify(render(), "info") });
  pi.on("before_agent_start", () => ({ message: { customType: "todo", content: "Use the todo tool.", display: false } }));
}
