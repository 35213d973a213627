// Mutant `only-reminder`: appends one reminder message at every turn_start
// and does nothing else. The reminder's role and text come from the spec
// (its first turn_start_injects_message assertion), so this mutant passes
// every reminder check the spec has.
const DATA = JSON.parse(__MUTANT_DATA__);

export function activate(letta) {
  letta.events.on("turn_start", (event) => {
    event.input.push({ type: "message", role: DATA.reminder.role, content: DATA.reminder.text });
  });
}
