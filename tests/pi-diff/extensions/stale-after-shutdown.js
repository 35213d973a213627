// Keeps a timer that calls the pi API after the extension shut down: Pi's API is stale by then
// and throws, from a timer nothing catches.
export default function (pi) {
  pi.on("session_shutdown", () => {
    setTimeout(() => pi.appendEntry("late", { at: Date.now() }), 60_000);
  });
}
