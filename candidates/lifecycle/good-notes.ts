// Lifecycle reference: per-conversation notes that are safe to keep loaded.
//   * `note_add` / `note_list` keep notes in a Map keyed by the conversation
//     (ctx.sessionId for tools, event.conversationId for events);
//   * turn_start reminds the agent how many notes this conversation has;
//   * a `/notes` command prints them;
//   * a periodic tidy-up runs on setInterval and is cleared on dispose;
//   * every registration's disposer is kept and called on dispose, and the
//     interval also stops as soon as letta.signal aborts.
// Nothing lives on globalThis, nothing depends on Math.random or the clock.

type Note = { text: string };

export function activate(letta: any): () => void {
  const notesByConversation = new Map<string, Note[]>();
  const notesOf = (conversationId: unknown): Note[] => {
    const key = typeof conversationId === "string" ? conversationId : "default";
    let notes = notesByConversation.get(key);
    if (!notes) {
      notes = [];
      notesByConversation.set(key, notes);
    }
    return notes;
  };
  const disposers: Array<() => void> = [];

  disposers.push(
    letta.tools.register({
      name: "note_add",
      description: "Save a short note for this conversation.",
      parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      requiresApproval: false,
      run(ctx: { args: { text?: unknown }; sessionId: string }) {
        const text = typeof ctx.args.text === "string" ? ctx.args.text.trim() : "";
        if (text === "") return { status: "error", output: "note_add needs `text`." };
        const notes = notesOf(ctx.sessionId);
        notes.push({ text });
        return `Saved note ${notes.length}.`;
      },
    }),
  );

  disposers.push(
    letta.tools.register({
      name: "note_list",
      description: "List this conversation's notes.",
      approvalPolicy: "auto",
      run(ctx: { sessionId: string }) {
        const notes = notesOf(ctx.sessionId);
        return notes.length === 0 ? "No notes yet." : notes.map((n, i) => `${i + 1}. ${n.text}`).join("\n");
      },
    }),
  );

  disposers.push(
    letta.commands.register({
      id: "notes",
      description: "Print this conversation's notes.",
      run(ctx: { conversation: { id: string | null } }) {
        const notes = notesOf(ctx.conversation.id);
        return { type: "output", output: notes.map((n) => n.text).join("\n") || "No notes yet." };
      },
    }),
  );

  disposers.push(
    letta.events.on("turn_start", (event: { conversationId: string; input: unknown[] }) => {
      const count = notesOf(event.conversationId).length;
      const content = `<system-reminder>NOTES: this conversation has ${count} note(s); call note_list to read them.</system-reminder>`;
      return { input: [...event.input, { type: "message", role: "system", content }] };
    }),
  );

  // Tidy-up: drop empty conversations every minute; stopped on dispose.
  const tidy = setInterval(() => {
    for (const [key, notes] of notesByConversation) if (notes.length === 0) notesByConversation.delete(key);
  }, 60_000);
  letta.signal.addEventListener("abort", () => clearInterval(tidy), { once: true });

  return () => {
    clearInterval(tidy);
    for (const dispose of disposers.reverse()) dispose();
    notesByConversation.clear();
  };
}
