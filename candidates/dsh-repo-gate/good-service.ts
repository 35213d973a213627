// A Service subclass: everything registered from the constructor, through its ctx.
import { Service, type Context } from "@deepseek-ai/cordis";
import { defineTool } from "@deepseek-ai/dsh-tools";

function isRmRf(command: string): boolean {
  for (const segment of command.split(/&&|\|\||;|\|/)) {
    const words = segment.trim().split(/\s+/);
    if (words[0] !== "rm") continue;
    const flags = words.filter((word) => word.startsWith("-")).join("");
    if (/[rR]/.test(flags) && flags.includes("f")) return true;
  }
  return false;
}

export default class RepoGate extends Service {
  static inject = ["tools", "systemPrompt"];

  constructor(ctx: Context) {
    super(ctx, "repoGate");
    ctx.on("tools/pre-execute", async (exec: any, next: () => Promise<unknown>) => {
      if (exec.name === "bash" && isRmRf(String(exec.arguments.command ?? ""))) return { kind: "deny", reason: "rm -rf is not allowed here" };
      if (exec.name === "write" && !/^\/workspace(\/|$)/.test(String(exec.arguments.file_path ?? ""))) {
        return { kind: "ask", reason: `${exec.arguments.file_path} is outside /workspace` };
      }
      return next();
    });
    ctx.tools.register(defineTool({
      name: "word_count",
      description: "Count words.",
      parameters: { text: { type: "string", required: true } },
      output: { schema: { type: "integer" }, render: (_args: unknown, n: number) => [{ type: "text", text: `${n} words` }] },
      async execute({ text }: { text: string }) {
        return text.trim() === "" ? 0 : text.trim().split(/\s+/).length;
      },
    }));
    ctx.systemPrompt.section({ name: "repo-gate", order: 400, text: "repo-gate is on: no rm -rf." });
  }
}
