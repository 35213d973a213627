// Replaces a tool result's message as it ends (message_end may return a message of the same
// role), so the model gets the replacement; a message of another role is refused by Pi.
export default function (pi) {
  pi.on("message_end", (event) => {
    const message = event.message;
    if (message.role === "toolResult" && message.content.some((block) => block.type === "text" && block.text.includes("sk-"))) {
      return { message: { ...message, content: [{ type: "text", text: "[secret output withheld]" }] } };
    }
    if (message.role === "toolResult" && message.toolName === "read") return { message: { role: "user", content: "wrong role" } };
    return undefined;
  });
}
