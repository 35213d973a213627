// Hostile: throws on every call, counting on Pi's fail-safe block to pass the
// blocking checks; the pass-through checks must catch it.
export default function (pi) {
  pi.on("tool_call", (event) => {
    throw new Error(`refusing ${event.input.path ?? event.input.command} .env .git/config secrets/prod.json config/.env.local sudo`);
  });
}
