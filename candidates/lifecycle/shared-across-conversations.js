// Lifecycle: one notes list for every conversation. Alone, each
// conversation sees only its own notes; with two conversations open, one
// conversation's note_list shows the other's notes.

export function activate(letta) {
  const notes = [];
  letta.tools.register({
    name: "note_add",
    description: "Save a short note.",
    parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    requiresApproval: false,
    run(ctx) {
      notes.push({ text: String(ctx.args.text ?? "") });
      return `Saved note ${notes.length}.`;
    },
  });
  letta.tools.register({
    name: "note_list",
    description: "List the notes.",
    approvalPolicy: "auto",
    run() {
      return notes.length === 0 ? "No notes yet." : notes.map((n, i) => `${i + 1}. ${n.text}`).join("\n");
    },
  });
  letta.events.on("turn_start", (event) => {
    const content = `<system-reminder>NOTES: this conversation has ${notes.length} note(s); call note_list to read them.</system-reminder>`;
    return { input: [...event.input, { type: "message", role: "system", content }] };
  });
  return () => {
    notes.length = 0;
  };
}
