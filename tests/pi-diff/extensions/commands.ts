// Commands: /greet sends a user message (it becomes the next prompt), /todos tells the user, /quiet
// does nothing visible, /boom throws (Pi reports it).
export default function (pi) {
  pi.registerCommand("greet", { description: "Greet someone", handler: async (args) => pi.sendUserMessage(`Say hello to ${args.trim() || "everyone"}.`) });
  pi.registerCommand("todos", { description: "Show todos", handler: async (_args, ctx) => ctx.ui.notify("No todos.", "info") });
  pi.registerCommand("quiet", { description: "Do nothing", handler: async () => undefined });
  pi.registerCommand("boom", { description: "Fail", handler: async () => { throw new Error("boom"); } });
}
