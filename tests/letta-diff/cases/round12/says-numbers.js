// Injects text holding what Letta's includes() finds for numbers, booleans, null and objects.
export default function activate(letta) {
  return letta.events.on("turn_start", (event) => ({
    input: [...event.input, { type: "message", role: "system", content: "REMIND: 42 null true 3.5 [object Object]" }],
  }));
}
