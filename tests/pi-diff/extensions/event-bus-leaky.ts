// Subscribes on the shared bus at every session start and never unsubscribes. Pi 0.84+ removes an
// extension's subscriptions itself when it shuts down, so nothing piles up across reloads.
import { Type } from "typebox";

export default function (pi) {
  let items = [];
  pi.on("session_start", () => {
    pi.events.on("todo:clear", () => {
      items = [];
    });
  });
  pi.registerTool({
    name: "todo",
    label: "Todo",
    description: "Add to or list the todo list",
    parameters: Type.Object({ action: Type.String(), text: Type.Optional(Type.String()) }),
    async execute(_id, params) {
      if (params.action === "add") {
        if (!params.text) throw new Error("text is required");
        items.push(params.text);
        pi.events.emit("todo:added", params.text);
        return { content: [{ type: "text", text: `Added: ${params.text}` }] };
      }
      if (params.action !== "list") throw new Error(`unknown action ${params.action}`);
      return { content: [{ type: "text", text: items.length ? items.map((i) => `- ${i}`).join("\n") : "No todos." }] };
    },
  });
}
