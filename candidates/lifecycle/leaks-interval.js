// Lifecycle: a correct notes mod whose autosave interval is never cleared.
// It returns no disposer and ignores letta.signal, so after dispose the
// interval keeps firing every 30 s and keeps calling into a dead handle.

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
  // "Autosave": reports how many notes there are, forever.
  setInterval(() => {
    letta.ui.notify(`notes: ${[...notesByConversation.values()].flat().length} saved`);
  }, 30_000);
}
