// Formats the budget with Intl, as Bun formats it (en-US: 1,234.5).
export function activate(letta) {
  const budget = (1234.5).toLocaleString("en-US");
  letta.events.on("turn_start", (event) => ({
    input: [...event.input, { type: "message", role: "system", content: `Budget: ${budget} tokens.` }],
  }));
}
