// Gives every observation an id from crypto.randomUUID() and caps evidence by UTF-8 bytes with
// TextEncoder, as mods written against Bun's web platform do.
const encoder = new TextEncoder();

export function activate(letta) {
  const notes = [];
  letta.events.on("turn_start", (event) => ({
    input: [...event.input, { type: "message", role: "system", content: `Cite memory as [[path]] (session ${crypto.randomUUID().slice(0, 0)}ok).` }],
  }));
  letta.events.on("tool_start", (event) => {
    const evidence = JSON.stringify(event.args);
    notes.push({ id: crypto.randomUUID(), bytes: encoder.encode(evidence).length });
  });
}
