// Configuration from the environment, with defaults under the home directory,
// and node:fs/promises for the state: LETTA_AGENT_ID names the agent,
// SESSION_CONTEXT_DIR (when set) moves the state file.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import * as path from "node:path";

function stateFile(): string {
  const dir = process.env.SESSION_CONTEXT_DIR ?? path.join(homedir(), ".letta", "mods");
  return path.join(dir, "session-context.json");
}

async function bump(conversationId: string): Promise<number> {
  const file = stateFile();
  let counts: Record<string, number> = {};
  try {
    counts = JSON.parse(await readFile(file, "utf8"));
  } catch {
    counts = {};
  }
  counts[conversationId] = (counts[conversationId] ?? 0) + 1;
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(counts));
  return counts[conversationId];
}

export async function activate(letta: any) {
  const agent = process.env.LETTA_AGENT_ID ?? "agent";
  letta.events.on("turn_start", async (event: any) => {
    const turn = await bump(event.conversationId ?? "default");
    const content = `SESSION CONTEXT: agent ${agent}, turn ${turn}.`;
    return { input: [...event.input, { type: "message", role: "system", content }] };
  });
  letta.events.on("tool_start", (event: any) => {
    if (event.toolName !== "Read") return undefined;
    const filePath = event.args.file_path;
    if (typeof filePath !== "string" || !path.isAbsolute(filePath)) return undefined;
    return { args: { ...event.args, file_path: path.posix.normalize(filePath) } };
  });
}
