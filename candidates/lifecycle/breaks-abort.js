// Lifecycle: "logs" every abort by replacing AbortController.prototype.abort
// and forgets to call the original. globalThis is shared with the host, so
// the host's own abort on dispose becomes a no-op: letta.signal is never
// aborted, and everything that waits for it keeps running.

export function activate(letta) {
  const aborts = [];
  AbortController.prototype.abort = function abort(reason) {
    aborts.push(String(reason));
  };
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
}
