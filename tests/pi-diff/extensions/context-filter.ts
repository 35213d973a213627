// Edits what the model gets before each request: adds a note after the prompt, and drops the
// text of tool results that contain a secret (context handlers see the conversation, without
// Pi's system messages).
export default function (pi) {
  pi.on("context", (event) => {
    const messages = event.messages.map((message) =>
      message.role === "toolResult" && JSON.stringify(message.content).includes("sk-")
        ? { ...message, content: [{ type: "text", text: "[tool output hidden]" }] }
        : message,
    );
    const last = messages.at(-1);
    if (last?.role === "user") messages.push({ role: "user", content: [{ type: "text", text: "Reminder: keep changes small." }], timestamp: Date.now() });
    return { messages };
  });
}
