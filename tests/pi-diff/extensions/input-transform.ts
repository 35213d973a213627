// Transforms and handles prompts: `!skip` prompts are handled (the model is never asked),
// `please` is stripped; a reminder follows every prompt that reaches the model.
export default function (pi) {
  pi.on("input", (event) => {
    if (event.text.startsWith("!skip")) return { action: "handled" };
    if (event.text.startsWith("please ")) return { action: "transform", text: event.text.slice(7) };
    return { action: "continue" };
  });
  pi.on("before_agent_start", (event) => ({ message: { customType: "note", content: [{ type: "text", text: `Reminder: ${event.prompt.length} characters` }], display: true } }));
}
