// Hashes and ids from node:crypto: a short, stable id for the conversation
// (sha256 of its id) in the reminder, and a random UUID per turn kept in memory.
import { createHash, randomUUID } from "node:crypto";
import { resolve } from "node:path";

const shortId = (text) => createHash("sha256").update(text).digest("hex").slice(0, 8);

export default function activate(letta) {
  const turnIds = new Map();
  letta.events.on("turn_start", (event) => {
    const conversation = event.conversationId ?? "default";
    const ids = turnIds.get(conversation) ?? [];
    ids.push(randomUUID());
    turnIds.set(conversation, ids);
    const content = `SESSION CONTEXT: conversation ${shortId(conversation)}, ${ids.length} turn(s) here.`;
    return { input: [...event.input, { type: "message", role: "system", content }] };
  });
  letta.events.on("tool_start", (event) => {
    const filePath = event.args.file_path;
    if (event.toolName !== "Read" || typeof filePath !== "string" || !filePath.startsWith("/")) return;
    return { args: { ...event.args, file_path: resolve(filePath) } };
  });
  return () => turnIds.clear();
}
