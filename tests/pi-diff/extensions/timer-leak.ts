// Starts a heartbeat when a session or a turn starts and never stops it.
export default function (pi) {
  let beats = 0;
  pi.on("session_start", () => {
    setInterval(() => {
      beats += 1;
    }, 1000);
  });
  pi.on("agent_start", () => {
    setTimeout(() => {
      beats += 1;
    }, 5000);
  });
}
