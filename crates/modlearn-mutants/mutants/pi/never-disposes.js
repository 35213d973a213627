// Mutant `never-disposes` (Pi): right on the spec's reminder and rewrite
// examples, but starts an interval and a pi.events subscription it never
// undoes, and has no session_shutdown handler.
const DATA = JSON.parse(__MUTANT_DATA__);

function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

const REWRITES = new Map(DATA.rewrites.map((example) => [canonical([example.toolName, example.args]), example.expectArgs]));
let ticks = 0;

export default function (pi) {
  setInterval(() => {
    ticks += 1;
  }, 1000);
  pi.events.on("mutant:tick", () => {
    ticks += 1;
  });
  pi.on("before_agent_start", (event) =>
    DATA.reminder.role === "system"
      ? { systemPrompt: `${event.systemPrompt}\n\n${DATA.reminder.text}` }
      : { message: { customType: "mutant", content: DATA.reminder.text, display: false } });
  pi.on("tool_call", (event) => {
    const expectArgs = REWRITES.get(canonical([event.toolName, event.input]));
    if (expectArgs !== undefined) Object.assign(event.input, expectArgs);
  });
}
