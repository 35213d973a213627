// JSON.stringify of an AbortSignal is {}: onabort lives on the prototype.
// Debug reminder that dumps part of ctx as JSON.
export default function (letta) {
  letta.events.on("turn_start", (event, ctx) => {
    event.input.push({ type: "message", role: "system", content: "REMIND:ok " + JSON.stringify({ model: ctx.model.id, signal: ctx.signal }) });
  });
}
