// Injects text with none of them, and the word false.
export default function activate(letta) {
  return letta.events.on("turn_start", (event) => ({
    input: [...event.input, { type: "message", role: "system", content: "REMIND: false" }],
  }));
}
