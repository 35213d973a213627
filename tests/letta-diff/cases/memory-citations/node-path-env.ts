// As Letta's own example does: node:path for normalisation and process.env.MEMORY_DIR as the
// fallback memory directory.
import { isAbsolute, relative, resolve } from "node:path";

function memoryDirOf(ctx: any): string {
  return ctx?.memfs?.memoryDir ?? process.env.MEMORY_DIR ?? "/memory";
}

export function activate(letta: any) {
  const paths = new Map<string, Set<string>>();
  letta.events.on("turn_start", (event: any) => {
    paths.set(event.conversationId, new Set());
    return {
      input: [...event.input, { type: "message", role: "system", content: "Only cite memory you read, as [[reference/notes.md]]." }],
    };
  });
  letta.events.on("tool_start", (event: any, ctx: any) => {
    const value = event.args.file_path ?? event.args.path;
    if (typeof value !== "string") return;
    const rel = relative(memoryDirOf(ctx), resolve(value));
    if (rel && !rel.startsWith("..") && !isAbsolute(rel)) paths.get(event.conversationId)?.add(rel);
  });
}
