// Pi 1.x's actionable turn_end: after a turn whose message leaves a TODO, add a note for the
// model as a session entry and ask to continue.
export default function (pi) {
  pi.on("turn_end", (event) => {
    const text = event.message.content.filter((block) => block.type === "text").map((block) => block.text).join("");
    if (!/TODO:/.test(text)) return undefined;
    const todo = text.slice(text.indexOf("TODO:") + 5).trim();
    return { continue: true, entries: [{ type: "custom_message", customType: "todo", content: `Finish this before stopping: ${todo}`, display: false }] };
  });
}
