// Reference: keep working through a checklist.
//   * turn_start: appends a system reminder to finish or explicitly defer every
//     unchecked "- [ ]" item;
//   * turn_end: when the assistant's final message still lists unchecked items,
//     asks for one more turn with { continue }, at most MAX_CONTINUES times in a
//     row;
//   * tool `checklist_progress` (read-only, auto-approved): counts checked and
//     unchecked items in a markdown text passed as ctx.args.markdown;
//   * command `/checklist-reset` resets the continue budget.

const MAX_CONTINUES = 3;
const UNCHECKED = /^\s*[-*]\s+\[ \]\s+(.+)$/gm;
const CHECKED = /^\s*[-*]\s+\[[xX]\]\s+(.+)$/gm;

const REMINDER =
  "<system-reminder>When you work from a checklist, finish each unchecked item or say explicitly " +
  "why it is deferred before ending your turn.</system-reminder>";

function countItems(markdown) {
  const open = [...markdown.matchAll(UNCHECKED)].map((m) => m[1].trim());
  const done = [...markdown.matchAll(CHECKED)].length;
  return { open, done };
}

export function activate(letta) {
  let continuesInARow = 0;

  letta.events.on("turn_start", (event) => ({
    input: [...event.input, { type: "message", role: "system", content: REMINDER }],
  }));

  letta.events.on("turn_end", (event) => {
    const message = typeof event.assistantMessage === "string" ? event.assistantMessage : "";
    const { open } = countItems(message);
    if (open.length === 0) {
      continuesInARow = 0;
      return undefined;
    }
    if (continuesInARow >= MAX_CONTINUES) return undefined;
    continuesInARow += 1;
    const next = open.slice(0, 3).join("; ");
    return { continue: `Continue with the unchecked checklist items: ${next}.` };
  });

  letta.tools.register({
    name: "checklist_progress",
    description: "Count checked and unchecked markdown checklist items in the given text.",
    parameters: {
      type: "object",
      properties: {
        markdown: { type: "string", description: "Markdown text containing - [ ] / - [x] items." },
      },
      required: ["markdown"],
    },
    requiresApproval: false,
    run(ctx) {
      const markdown = typeof ctx.args.markdown === "string" ? ctx.args.markdown : "";
      const { open, done } = countItems(markdown);
      return JSON.stringify({ done, open: open.length, next: open[0] ?? null });
    },
  });

  letta.commands.register({
    id: "checklist-reset",
    description: "Reset the automatic checklist continuation budget.",
    run() {
      continuesInARow = 0;
      return { type: "output", output: "Checklist continuation budget reset." };
    },
  });
}
