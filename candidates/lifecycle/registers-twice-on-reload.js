// Lifecycle: keeps its handlers on globalThis "so a reload does not lose
// them", and registers every handler it finds there. globalThis outlives a
// reload, so each reload adds one more turn_start handler: after three
// reloads every turn gets three reminders.

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
  const remind = (event) => {
    const content = `<system-reminder>NOTES: this conversation has ${notesOf(event.conversationId).length} note(s); call note_list to read them.</system-reminder>`;
    return { input: [...event.input, { type: "message", role: "system", content }] };
  };
  globalThis.__notesHandlers = globalThis.__notesHandlers ?? [];
  globalThis.__notesHandlers.push(remind);
  for (const handler of globalThis.__notesHandlers) letta.events.on("turn_start", handler);
}
