// One extension doing all of it, the way a real safety extension grows: protected paths, sudo
// asked or blocked, pip rewritten, secrets redacted, a prompt line, a todo tool and command, a
// bus subscription cleaned up at shutdown, TODO turns continued.
import { Type } from "typebox";
import { StringEnum } from "@earendil-works/pi-ai";

export default function (pi) {
  const items = [];
  let off;
  pi.on("session_start", () => {
    off = pi.events.on("todo:clear", () => items.splice(0));
  });
  pi.on("session_shutdown", () => off?.());
  pi.on("input", (event) => (event.text.startsWith("!skip") ? { action: "handled" } : undefined));
  pi.on("before_agent_start", (event) => {
    event.systemPromptOptions.appendSystemPrompt = "Use uv for Python packages.";
    return { message: { customType: "reminder", content: "Reminder: run the tests.", display: false } };
  });
  pi.on("tool_call", async (event, ctx) => {
    if ((event.toolName === "write" || event.toolName === "edit") && /(^|\/)(\.env|package-lock\.json)$/.test(event.input.path)) {
      return { block: true, reason: `Protected path: ${event.input.path}` };
    }
    if (event.toolName !== "bash") return undefined;
    const command = event.input.command;
    if (/--force\b/.test(command)) return { block: true, reason: "no force pushes" };
    if (/\bsudo\b/.test(command)) {
      if (!ctx.hasUI) return { block: true, reason: `sudo with no UI to ask: ${command}` };
      return (await ctx.ui.confirm("Allow sudo?", command)) ? undefined : { block: true, reason: "Blocked by user" };
    }
    if (command.startsWith("pip install")) event.input.command = `uv ${command}`;
    if (command === "npm test") event.input.timeout = 120;
    return undefined;
  });
  pi.on("tool_result", (event) => {
    for (const block of event.content) if (block.type === "text") block.text = block.text.replace(/sk-[a-z]+-\d+/g, "[redacted]");
    if (event.toolName === "bash" && event.input.command.startsWith("rm ")) return { isError: true };
    if (event.toolName === "bash" && event.input.command === "false") return { isError: false, content: [{ type: "text", text: "exit status ignored" }] };
    return undefined;
  });
  pi.on("turn_end", (event) => {
    const text = event.message.content.map((block) => block.text ?? "").join("");
    if (text.includes("TODO:")) return { continue: true, entries: [{ type: "custom_message", customType: "todo", content: `Do this first: ${text.split("TODO:")[1].trim()} (tests)`, display: false }] };
    return undefined;
  });
  pi.registerTool({
    name: "todo",
    label: "Todo",
    description: "Todo list",
    parameters: Type.Object({ action: StringEnum(["add", "list"]), text: Type.Optional(Type.String()) }),
    async execute(_id, { action, text }) {
      if (action === "add") {
        if (!text) throw new Error("text is required");
        items.push(text);
        return { content: [{ type: "text", text: `Added: ${text}` }] };
      }
      return { content: [{ type: "text", text: items.length ? items.map((i) => `- ${i}`).join("\n") : "No todos." }] };
    },
  });
  pi.registerCommand("todos", { description: "Show todos", handler: async (_args, ctx) => ctx.ui.notify(items.length ? items.join("\n") : "No todos.", "info") });
  pi.registerCommand("greet", { description: "Greet", handler: async (args) => pi.sendUserMessage(`Hello, ${args}!`) });
}
