// Git through node:child_process, as the creating-mods references do: the
// branch from `git rev-parse --abbrev-ref HEAD`, asked through util.promisify
// in an async handler, "unknown" when git fails (no repository, no git).
import { execFile } from "node:child_process";
import { normalize } from "node:path";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

async function currentBranch(cwd) {
  try {
    const { stdout } = await execFileAsync("git", ["rev-parse", "--abbrev-ref", "HEAD"], { cwd });
    return stdout.trim() || "unknown";
  } catch {
    return "unknown";
  }
}

export function activate(letta) {
  const offTurn = letta.events.on("turn_start", async (event, ctx) => {
    const branch = await currentBranch(ctx?.cwd);
    const content = `SESSION CONTEXT: working on branch ${branch}.`;
    return { input: [...event.input, { type: "message", role: "system", content }] };
  });
  const offTool = letta.events.on("tool_start", (event) => {
    if (event.toolName === "Read" && typeof event.args.file_path === "string") {
      event.args.file_path = normalize(event.args.file_path);
    }
  });
  return () => {
    offTurn();
    offTool();
  };
}
