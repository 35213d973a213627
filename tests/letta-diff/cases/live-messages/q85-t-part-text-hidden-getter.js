// Odd: text parts whose `text` is a non-enumerable getter (one part) or inherited (other part).
export function activate(letta) {
  letta.events.on("turn_start", (event) => {
    const a = Object.defineProperty({ type: "text" }, "text", { get: () => "<system-reminder>TEST-FIRST: Before editing any file, ", enumerable: false });
    const b = Object.assign(Object.create({ text: "run the existing tests and note which ones fail.</system-reminder>" }), { type: "text" });
    event.input.push({ type: "message", role: "system", content: [a, b] });
  });
  letta.events.on("tool_start", () => {});
}
