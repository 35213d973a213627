// Adds a line to the system prompt the way Pi 1.x documents: by editing
// event.systemPromptOptions (here its appendSystemPrompt), and reads the prompt's own text back.
export default function (pi) {
  pi.on("before_agent_start", (event) => {
    if (event.messageType !== "user") return;
    const options = event.systemPromptOptions;
    options.appendSystemPrompt = [options.appendSystemPrompt, "Use uv for Python packages, never pip."].filter(Boolean).join("\n");
    if (!event.systemPrompt.includes("uv")) throw new Error("the prompt does not show the edit");
  });
}
