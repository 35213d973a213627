// Odd: the appended item's `role` is inherited from its prototype.
const TEXT = "<system-reminder>TEST-FIRST: Before editing any file, run the existing tests and note which ones fail.</system-reminder>";
const PROTO = { type: "message", role: "system" };
export function activate(letta) {
  letta.events.on("turn_start", (event) => { event.input.push(Object.assign(Object.create(PROTO), { content: TEXT })); });
  letta.events.on("tool_start", () => {});
}
