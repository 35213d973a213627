// Mutant `never-disposes`: a plausible mod that gets the spec's turn_start and
// tool_start checks right (it appends the spec's reminder and replays each
// tool_start_rewrites_args example for exactly its tool and args) but never
// cleans up: it keeps an interval and a re-arming timer running, ignores its
// abort signal and returns no disposer. Only a lifecycle check catches it.
const DATA = JSON.parse(__MUTANT_DATA__);

/** JSON with object keys sorted, so equal args give equal keys. */
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

const REWRITES = new Map(DATA.rewrites.map((example) => [canonical([example.toolName, example.args]), example.expectArgs]));

let ticks = 0;

export function activate(letta) {
  // The leaks: nothing ever clears these, and letta.signal is never read.
  setInterval(() => {
    ticks += 1;
  }, 1000);
  const rearm = () => setTimeout(rearm, 5000);
  rearm();

  letta.events.on("turn_start", (event) => {
    event.input.push({ type: "message", role: DATA.reminder.role, content: DATA.reminder.text });
  });
  letta.events.on("tool_start", (event) => {
    const expectArgs = REWRITES.get(canonical([event.toolName, event.args]));
    if (expectArgs === undefined) return undefined;
    return { args: { ...event.args, ...expectArgs } };
  });
}
