// Leaky: gates correctly, but starts a bare setInterval that no effect owns,
// so it outlives every unload (ctx.setInterval, with `timer` injected, would not).
import { defineTool } from "@deepseek-ai/dsh-tools";

export const name = "repo-gate";
export const inject = ["tools", "systemPrompt"];

export function apply(ctx) {
  let denied = 0;
  setInterval(() => ctx.logger("repo-gate").info(`${denied} calls denied`), 60_000);
  ctx.on("tools/pre-execute", async (exec, next) => {
    const command = String(exec.arguments?.command ?? "");
    if (exec.name === "bash" && /\brm\s+(-\w*r\w*f|-\w*f\w*r|-r\s+-f|-f\s+-r)/.test(command)) {
      denied++;
      return { kind: "deny", reason: "rm -rf refused" };
    }
    if (exec.name === "write" && !/^\/workspace(\/|$)/.test(String(exec.arguments?.file_path))) return { kind: "ask", reason: `outside /workspace: ${exec.arguments.file_path}` };
    return next();
  });
  ctx.tools.register(defineTool({
    name: "word_count",
    description: "Count words.",
    parameters: { text: { type: "string", required: true } },
    output: { schema: { type: "integer" }, render: (_a, n) => [{ type: "text", text: `${n} words` }] },
    async execute({ text }) {
      return text.split(/\s+/).filter(Boolean).length;
    },
  }));
  ctx.systemPrompt.section({ name: "repo-gate", order: 500, text: "repo-gate refuses rm -rf." });
}
