// Lifecycle: per-conversation notes, but the turn_start reminder picks a
// random tip and stamps the time, so two runs of the same turn differ
// (another Math.random seed, another day).

const TIPS = ["call note_list to read them", "keep notes short", "tag decisions", "review notes before answering"];

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
    const tip = TIPS[Math.floor(Math.random() * TIPS.length)];
    const day = new Date().toISOString().slice(0, 10);
    const content = `<system-reminder>NOTES: this conversation has ${notesOf(event.conversationId).length} note(s); ${tip} (${day}).</system-reminder>`;
    return { input: [...event.input, { type: "message", role: "system", content }] };
  });
}
