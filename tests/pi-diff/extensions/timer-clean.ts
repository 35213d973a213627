// Starts a heartbeat at session start and stops it at shutdown, as Pi asks of extensions.
export default function (pi) {
  let timer;
  pi.on("session_start", () => {
    timer = setInterval(() => undefined, 1000);
  });
  pi.on("session_shutdown", (event) => {
    clearInterval(timer);
    timer = undefined;
    if (!["quit", "reload", "new", "resume", "fork"].includes(event.reason)) throw new Error(`unexpected reason ${event.reason}`);
  });
}
