// Mutant `only-reminder` (DSH): adds the spec's reminder (a system-prompt
// section for a `system` reminder, an injected message otherwise) and does
// nothing else.
const DATA = JSON.parse(__MUTANT_DATA__);

export const name = "mutant-only-reminder";
export const inject = ["systemPrompt"];

export function apply(ctx) {
  if (DATA.reminder.role === "system") {
    ctx.systemPrompt.section({ name: "mutant-reminder", order: 900, text: DATA.reminder.text });
  } else {
    ctx.on("agent/pre-step", async (step, next) => {
      const decision = await next();
      return decision.kind === "enter" ? { kind: "enter", messages: [...decision.messages, { role: "user", content: [{ type: "text", text: DATA.reminder.text }] }] } : decision;
    });
  }
}
