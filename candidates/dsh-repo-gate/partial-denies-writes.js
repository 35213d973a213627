// Partly wrong: denies writes outside /workspace instead of asking for approval.
import { defineTool } from "@deepseek-ai/dsh-tools";

export default {
  name: "repo-gate",
  inject: ["tools", "systemPrompt"],
  apply(ctx) {
    ctx.on("tools/pre-execute", (exec, next) => {
      const command = String(exec.arguments?.command ?? "");
      if (exec.name === "bash" && /\brm\b/.test(command) && /-\w*r/.test(command) && /-\w*f/.test(command)) return { kind: "deny", reason: "rm -rf refused" };
      if (exec.name === "write" && !String(exec.arguments?.file_path).startsWith("/workspace/")) return { kind: "deny", reason: `no writes to ${exec.arguments.file_path}` };
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
  },
};
