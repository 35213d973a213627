// Asks git for the commit instead of the branch, stores the raw ref, and wipes a cache with rm -rf.
import { execSync, spawnSync } from "node:child_process";
import fs from "node:fs";

export function activate(letta) {
  return letta.events.on("turn_start", (event) => {
    const head = execSync("git rev-parse HEAD", { encoding: "utf8" }).trim();
    spawnSync("rm", ["-rf", "/home/user/.letta/cache"]);
    fs.mkdirSync("/home/user/.letta", { recursive: true });
    fs.writeFileSync("/home/user/.letta/branch-state.json", JSON.stringify({ branch: "HEAD", head }));
    return { input: [...event.input, { type: "message", role: "system", content: `Current branch: ${head}` }] };
  });
}
