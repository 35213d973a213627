// Local state the way Letta's plan-mode reference keeps it: a JSON file under
// ~/.letta/mods/, keyed by conversation, read and written with node:fs's sync calls.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

const STATE_DIR = join(homedir(), ".letta", "mods");
const STATE_PATH = join(STATE_DIR, "session-context.state.json");

type State = { turns: Record<string, number> };

function readState(): State {
  try {
    if (!existsSync(STATE_PATH)) return { turns: {} };
    const parsed = JSON.parse(readFileSync(STATE_PATH, "utf8"));
    return parsed?.turns ? { turns: parsed.turns } : { turns: {} };
  } catch {
    return { turns: {} };
  }
}

function writeState(state: State): void {
  mkdirSync(STATE_DIR, { recursive: true });
  writeFileSync(STATE_PATH, JSON.stringify(state, null, 2));
}

export default function activate(letta: any) {
  const disposers: Array<() => void> = [];
  disposers.push(
    letta.events.on("turn_start", (event: any) => {
      const state = readState();
      const key = event.conversationId || "__global__";
      const turn = (state.turns[key] ?? 0) + 1;
      state.turns[key] = turn;
      writeState(state);
      const content = `<system-reminder>SESSION CONTEXT: turn ${turn} of this conversation.</system-reminder>`;
      return { input: [...event.input, { type: "message", role: "system", content }] };
    }),
  );
  disposers.push(
    letta.events.on("tool_start", (event: any) => {
      if (event.toolName !== "Read" || typeof event.args.file_path !== "string") return;
      return { args: { ...event.args, file_path: join("/", event.args.file_path) } };
    }),
  );
  if (letta.capabilities?.commands) {
    disposers.push(
      letta.commands.register({
        id: "session-context",
        description: "Show how many turns this conversation has had",
        run(ctx: any) {
          const turns = readState().turns[ctx.conversation?.id || "__global__"] ?? 0;
          return { type: "output", output: `SESSION CONTEXT: ${turns} turn(s).` };
        },
      }),
    );
  }
  return () => disposers.reverse().forEach((dispose) => dispose());
}
