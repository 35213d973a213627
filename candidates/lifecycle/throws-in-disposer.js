// Lifecycle: a clean notes mod, except that its disposer flushes an archive
// that was never opened (`archive` is still undefined): the disposer throws
// before it clears the interval.

export function activate(letta) {
  const notesByConversation = new Map();
  const notesOf = (id) => {
    const key = typeof id === "string" ? id : "default";
    if (!notesByConversation.has(key)) notesByConversation.set(key, []);
    return notesByConversation.get(key);
  };
  letta.tools.register({
    name: "note_add",
    description: "Save a short note for this conversation.",
    parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    requiresApproval: false,
    run(ctx) {
      const notes = notesOf(ctx.sessionId);
      notes.push({ text: String(ctx.args.text ?? "") });
      return `Saved note ${notes.length}.`;
    },
  });
  letta.tools.register({
    name: "note_list",
    description: "List this conversation's notes.",
    approvalPolicy: "auto",
    run(ctx) {
      const notes = notesOf(ctx.sessionId);
      return notes.length === 0 ? "No notes yet." : notes.map((n, i) => `${i + 1}. ${n.text}`).join("\n");
    },
  });
  letta.events.on("turn_start", (event) => {
    const content = `<system-reminder>NOTES: this conversation has ${notesOf(event.conversationId).length} note(s); call note_list to read them.</system-reminder>`;
    return { input: [...event.input, { type: "message", role: "system", content }] };
  });
  const tidy = setInterval(() => {
    for (const [key, notes] of notesByConversation) if (notes.length === 0) notesByConversation.delete(key);
  }, 60_000);
  let archive; // opened by a `/notes archive` command these scenarios never run
  return () => {
    archive.flush();
    clearInterval(tidy);
  };
}
