// Lifecycle: a notes mod with a background "sync" loop that sleeps 5 s
// between rounds and never looks at letta.signal. After dispose the loop
// still waits on its sleep (a pending promise and a scheduled timeout) and
// then carries on, calling a handle that is gone.

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

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
  (async () => {
    for (let round = 1; round <= 3; round++) {
      await sleep(5_000);
      letta.diagnostics.report({ message: `notes sync round ${round}`, severity: "warning" });
    }
  })();
  return () => {};
}
