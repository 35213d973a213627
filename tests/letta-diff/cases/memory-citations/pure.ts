// Memory citations with plain string handling: no node:path, no process.env.
interface Citation { path: string; confidence: "high" | "medium"; toolName: string; toolCallId: string | null }

const MEMORY_ROOTS = ["system/", "reference/", "skills/"];
const READ_TOOLS = new Set(["Read", "LS", "Glob", "Grep"]);

function memoryRelative(value: string, memoryDir: string | null): string | null {
  let path = value.trim().replace(/^["']|["']$/g, "").split("\\").join("/");
  for (const prefix of ["$MEMORY_DIR/", "${MEMORY_DIR}/", memoryDir ? `${memoryDir.replace(/\/+$/, "")}/` : null, "/memory/"]) {
    if (prefix && path.startsWith(prefix)) path = path.slice(prefix.length);
  }
  path = path.replace(/^\.\//, "");
  return MEMORY_ROOTS.some((root) => path.startsWith(root)) ? path : null;
}

export function activate(letta: any) {
  const byConversation = new Map<string, Citation[]>();
  const citationsOf = (id: string | undefined) => {
    const key = id ?? "__unknown__";
    if (!byConversation.has(key)) byConversation.set(key, []);
    return byConversation.get(key)!;
  };
  const off: Array<() => void> = [];
  off.push(letta.events.on("turn_start", (event: any) => {
    byConversation.set(event.conversationId ?? "__unknown__", []);
    const reminder = "<system-reminder>When memory clearly shaped your answer, cite it inline as [[path]], " +
      "for example [[reference/notes.md]]. Never invent citations.</system-reminder>";
    return { input: [...event.input, { type: "message", role: "system", content: reminder }] };
  }));
  off.push(letta.events.on("tool_start", (event: any, ctx: any) => {
    const memoryDir = ctx?.memfs?.memoryDir ?? null;
    const candidates: Array<[string, "high" | "medium"]> = [];
    if (READ_TOOLS.has(event.toolName)) {
      for (const key of ["file_path", "path", "pattern"]) {
        if (typeof event.args[key] === "string") candidates.push([event.args[key], "high"]);
      }
    } else if (event.toolName === "Bash" && typeof event.args.command === "string") {
      for (const word of event.args.command.split(/\s+/)) candidates.push([word, "medium"]);
    }
    const citations = citationsOf(event.conversationId);
    for (const [value, confidence] of candidates) {
      const path = memoryRelative(value, memoryDir);
      if (path && !citations.some((c) => c.path === path)) {
        citations.push({ path, confidence, toolName: event.toolName, toolCallId: event.toolCallId ?? null });
      }
    }
  }));
  off.push(letta.tools.register({
    name: "memory_citation_snapshot",
    description: "List the memory files read in this turn, to cite as [[path]].",
    parameters: { type: "object", properties: {}, additionalProperties: false },
    requiresApproval: false,
    parallelSafe: true,
    run(ctx: any) {
      const citations = citationsOf(ctx.conversation?.id ?? ctx.sessionId);
      return JSON.stringify({ citationCount: citations.length, citations });
    },
  }));
  return () => off.reverse().forEach((dispose) => dispose());
}
