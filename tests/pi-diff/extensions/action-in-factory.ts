// Calls an action method while its factory still runs: Pi's runtime is not initialised yet and the
// load fails.
export default function (pi) {
  pi.on("tool_call", () => undefined);
  pi.sendMessage({ customType: "hello", content: "loaded", display: false });
}
