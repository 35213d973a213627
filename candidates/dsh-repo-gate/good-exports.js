// name/inject/apply exports; one regular expression per rule.
import { defineTool } from "@deepseek-ai/dsh-tools";

export const name = "repo-gate";
export const inject = ["tools", "systemPrompt"];

const RM_RF = /\brm\s+(?:-[a-zA-Z]*r[a-zA-Z]*f[a-zA-Z]*|-[a-zA-Z]*f[a-zA-Z]*r[a-zA-Z]*|-[a-zA-Z]*[rR]\s+-[a-zA-Z]*f|-[a-zA-Z]*f\s+-[a-zA-Z]*[rR])\b/;

export function apply(ctx) {
  ctx.on("tools/pre-execute", async (exec, next) => {
    if (exec.name === "bash" && RM_RF.test(String(exec.arguments?.command ?? ""))) {
      return { kind: "deny", reason: `rm -rf is refused in this repository: ${exec.arguments.command}` };
    }
    if (exec.name === "write") {
      const path = String(exec.arguments?.file_path ?? "");
      if (path !== "/workspace" && !path.startsWith("/workspace/")) return { kind: "ask", reason: `write outside /workspace: ${path}` };
    }
    return next();
  });
  ctx.tools.register(defineTool({
    name: "word_count",
    description: "Count the words in a text.",
    parameters: { text: { type: "string", required: true } },
    output: { schema: { type: "integer" }, render: (_args, n) => [{ type: "text", text: `${n} words` }] },
    async execute({ text }) {
      return text.split(/\s+/).filter(Boolean).length;
    },
  }));
  ctx.systemPrompt.section({ name: "repo-gate", order: 500, text: "repo-gate: destructive commands (rm -rf) are refused; writes outside /workspace need approval." });
}
