// Mutant `only-reminder` (Pi): adds the spec's reminder at before_agent_start
// (to the system prompt for a `system` reminder, as a message otherwise) and
// does nothing else.
const DATA = JSON.parse(__MUTANT_DATA__);

export default function (pi) {
  pi.on("before_agent_start", (event) =>
    DATA.reminder.role === "system"
      ? { systemPrompt: `${event.systemPrompt}\n\n${DATA.reminder.text}` }
      : { message: { customType: "mutant", content: DATA.reminder.text, display: false } });
}
