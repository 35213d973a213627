// Copy: spread plus b = 3 (spread keeps an own "__proto__" key); Assign: Object.assign copy (sets the prototype instead).
export function activate(letta) {
  letta.events.on("tool_start", (event) => {
    if (event.toolName === "Copy") return { args: { ...event.args, b: 3 } };
    if (event.toolName === "Assign") return { args: Object.assign({}, event.args) };
    if (event.toolName === "Keys") return { args: JSON.parse(JSON.stringify(event.args)) };
  });
}
