// Mutant `rewrite-everything`: applies the spec's first rewrite example to
// every tool call, whatever the tool and whatever its args. It passes that
// example's check; only negative controls (args that must stay as they are)
// catch it.
const DATA = JSON.parse(__MUTANT_DATA__);

export function activate(letta) {
  letta.events.on("tool_start", (event) => ({ args: { ...event.args, ...DATA.rewrite.args } }));
}
