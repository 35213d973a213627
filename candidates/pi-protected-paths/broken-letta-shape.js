// Broken: written against Letta's API. Pi hands the factory `pi`, which has no `events.on` for tool events.
export function activate(letta) {
  letta.events.on("tool_start", (event) => {
    if (String(event.args.path).includes(".env")) return { result: { status: "error", output: "no" } };
  });
}
