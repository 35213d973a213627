// An accessor field in a plain .js file: Bun's transpiler lowers it.
class Cfg { accessor text = "REMIND:ok"; }
export default function (letta) { const c = new Cfg(); letta.events.on("turn_start", (event) => { event.input.push({ type: "message", role: "system", content: c.text }); }); }
