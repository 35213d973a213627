// The same guard as a Service: it walks the content blocks and rewrites each text block.
import { Service } from "@deepseek-ai/cordis";

type Block = { type: string; text?: string };

export default class SecretGuard extends Service {
  static inject = ["systemPrompt"];

  constructor(ctx: any) {
    super(ctx, "secretGuard");
    ctx.on("tools/post-execute", async (exec: any, result: any, next: () => Promise<unknown>) => {
      const path: string = String(exec.arguments?.file_path ?? "");
      if (exec.name === "read" && /\.env(\.[^/]+)?$/.test(path) && path.split("/").pop()!.startsWith(".env")) {
        return {
          kind: "block",
          feedback: [{ type: "text", text: `${path} holds secrets; its contents are withheld.` }],
          additionalContexts: [{ role: "user", content: [{ type: "text", text: "Secrets stay out of the context: ask the user for the value." }] }],
        };
      }
      const blocks: Block[] = result.content ?? [];
      if (!blocks.some((b) => b.type === "text" && /API_KEY=\S/.test(b.text ?? ""))) return next();
      const content = blocks.map((b) => (b.type === "text" ? { ...b, text: (b.text ?? "").replace(/API_KEY=\S+/g, "API_KEY=[redacted]") } : b));
      return { kind: "accept", content };
    });
    ctx.systemPrompt.section({ name: "secret-guard", order: 400, text: "secret-guard: secrets are filtered from tool results." });
  }
}
