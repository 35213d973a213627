import crypto from "node:crypto";
export function activate(letta) {
  letta.events.on("turn_start", async (e) => {
    const value = Buffer.from(await crypto.webcrypto.subtle.digest("SHA-256", new TextEncoder().encode("x"))).toString("hex").slice(0, 8);
    return { input: [...e.input, { type: "message", role: "system", content: `Use uv. ${value}` }] };
  });
}
