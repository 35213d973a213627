// Reference: per-session scratch notes.
//   * tools `note_add` (enum-tagged text; requiresApproval: false) and
//     `note_list` (approvalPolicy "auto", parallel-safe);
//   * command `/notes` prints the notes;
//   * conversation_open / conversation_close reset and summarize the session;
//   * llm_end adds up token usage (only fires on the local backend);
//   * an order-0 panel when ui.panels is on (no-op elsewhere);
//   * a periodic tidy-up on setInterval, cleared by the disposer and skipped
//     once letta.signal is aborted.

const MAX_NOTES: number = 50;
const TAGS: string[] = ["todo", "decision", "question"];

export function activate(letta: any): () => void {
  let notes: Array<{ id: number; tag: string; text: string; at: number }> = [];
  let nextId: number = 1;
  let tokens: number = 0;

  letta.tools.register({
    name: "note_add",
    description: "Save a short note for this session (a todo, a decision or an open question).",
    parameters: {
      type: "object",
      properties: {
        text: { type: "string", description: "The note, one or two sentences." },
        tag: { type: "string", enum: TAGS, description: "Kind of note." },
      },
      required: ["text"],
      additionalProperties: false,
    },
    requiresApproval: false,
    run(ctx: { args: Record<string, unknown> }) {
      const text = typeof ctx.args.text === "string" ? ctx.args.text.trim() : "";
      if (text === "") return { status: "error", output: "note_add needs non-empty `text`." };
      const tag = typeof ctx.args.tag === "string" && TAGS.includes(ctx.args.tag) ? ctx.args.tag : "todo";
      const note = { id: nextId++, tag, text, at: Date.now() };
      notes.push(note);
      if (notes.length > MAX_NOTES) notes = notes.slice(-MAX_NOTES);
      return `Saved note #${note.id} [${tag}].`;
    },
  });

  letta.tools.register({
    name: "note_list",
    description: "List the notes saved in this session, optionally filtered by tag.",
    parameters: {
      type: "object",
      properties: { tag: { type: "string", enum: TAGS } },
      additionalProperties: false,
    },
    approvalPolicy: "auto",
    parallelSafe: true,
    run(ctx: { args: Record<string, unknown> }) {
      const wanted = ctx.args.tag;
      const shown = notes.filter((n) => wanted === undefined || n.tag === wanted);
      if (shown.length === 0) return "No notes yet.";
      return shown.map((n) => `#${n.id} [${n.tag}] ${n.text}`).join("\n");
    },
  });

  letta.commands.register({
    id: "notes",
    description: "Print this session's notes.",
    run() {
      const body = notes.map((n) => `#${n.id} [${n.tag}] ${n.text}`).join("\n") || "No notes yet.";
      return { type: "output", output: body };
    },
  });

  letta.events.on("conversation_open", (event: { reason: string }) => {
    if (event.reason === "new" || event.reason === "startup") {
      notes = [];
      nextId = 1;
      tokens = 0;
    }
  });

  letta.events.on("conversation_close", () => {
    const open = notes.filter((n) => n.tag !== "decision").length;
    if (open > 0) letta.ui.notify(`session-notes: ${open} open note(s) left in this session.`);
  });

  letta.events.on("llm_end", (event: { usage: { totalTokens: number } | null }) => {
    if (event.usage) tokens += event.usage.totalTokens;
  });

  let panel: { close: () => void } | null = null;
  if (letta.capabilities.ui.panels) {
    panel = letta.ui.openPanel({
      id: "session-notes",
      order: 0,
      render: () => (notes.length === 0 ? "" : `notes: ${notes.length} · tokens: ${tokens}`),
    });
  }

  // Drop notes older than a day, once an hour (virtual time in modlearn).
  const tidy = setInterval(() => {
    if (letta.signal.aborted) return;
    const cutoff = Date.now() - 24 * 60 * 60 * 1000;
    notes = notes.filter((n) => n.at >= cutoff);
  }, 60 * 60 * 1000);

  return () => {
    clearInterval(tidy);
    if (panel) panel.close();
    notes = [];
  };
}
