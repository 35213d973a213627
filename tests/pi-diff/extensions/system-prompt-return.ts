// Replaces the system prompt by returning one (Pi forces that text for the run), and adds a
// reminder message for the turn.
export default function (pi) {
  pi.on("before_agent_start", (event) => ({
    systemPrompt: `${event.systemPrompt}\n\nPrefer uv over pip.`,
    message: { customType: "reminder", content: `Reminder for "${event.prompt}": run the tests.`, display: false },
  }));
}
