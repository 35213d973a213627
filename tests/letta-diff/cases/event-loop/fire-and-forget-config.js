// Starts reading its config in activate without awaiting it: the read has not finished when
// Letta's harness dispatches the first event, so the built-in reminder is the one sent.
import { readFile } from "node:fs/promises";

let reminder = "Install Python packages with `uv pip install`, not `pip install`.";

export function activate(letta) {
  readFile("/etc/uv-pip-mod/config.json", "utf8").then(
    (text) => {
      reminder = JSON.parse(text).reminder;
    },
    () => {
      reminder = "No config found: use pip as usual.";
    },
  );
  const off = letta.events.on("turn_start", (event) => {
    event.input.push({ type: "message", role: "system", content: reminder });
  });
  return () => off();
}
