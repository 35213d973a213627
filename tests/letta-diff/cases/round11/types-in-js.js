// TypeScript in a .js answer, as models often write it: Letta copies every candidate to a .ts
// file and transpiles it, so this loads there.
interface Reminder {
  text: string;
}

const reminder: Reminder = { text: "REMIND:ok" };

export function activate(letta: any): () => void {
  const offTurn = letta.events.on("turn_start", (event: { input: unknown[] }) => {
    event.input.push({ type: "message", role: "system", content: reminder.text });
  });
  const offTool = letta.events.on("tool_start", (event: any) => {
    if (event.toolName === "Bash" && String(event.args.command).startsWith("rm ")) {
      return { args: { ...event.args, command: `echo ${event.args.command as string}` } };
    }
    return undefined;
  });
  return () => {
    offTurn();
    offTool();
  };
}
