import { execSync } from "node:child_process";
export function activate(letta) {
  letta.events.on("turn_start", (e) => {
    const tool = execSync("echo uv", { encoding: "utf8" }).trim();
    return { input: [...e.input, { type: "message", role: "system", content: `Use ${tool}.` }] };
  });
}
