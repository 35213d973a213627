// The same idea with async handlers and in-place changes: the reminder is pushed after an
// await, and the observer awaits before recording.
const seen = new Map();

export default async function activate(letta) {
  await Promise.resolve();
  letta.events.on("turn_start", async (event) => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    seen.set(event.conversationId, new Set());
    event.input.push({
      type: "message",
      role: "system",
      content: [{ type: "text", text: "Please cite memory you relied on as [[path]] (e.g. [[reference/notes.md]])." }],
    });
  });
  letta.events.on("tool_start", async (event) => {
    await null;
    const text = JSON.stringify(event.args);
    const match = text.match(/(?:reference|system|skills)\/[\w.\/-]+/);
    if (match) (seen.get(event.conversationId) ?? new Set()).add(match[0]);
  });
  letta.tools.register({
    name: "memory_citation_snapshot",
    description: "Memory paths seen this turn.",
    parameters: { type: "object", properties: {}, additionalProperties: false },
    requiresApproval: false,
    run: (ctx) => [...(seen.get(ctx.sessionId) ?? [])].join("\n") || "none",
  });
}
