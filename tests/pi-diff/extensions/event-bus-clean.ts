// Subscribes at session start and unsubscribes at shutdown (reason-aware), and relays its own
// events through the bus: a counter tool reads what arrived.
import { Type } from "typebox";

export default function (pi) {
  let off;
  let heard = 0;
  pi.on("session_start", (event) => {
    off = pi.events.on("greeting", () => {
      heard += 1;
    });
    if (event.reason !== "startup" && event.reason !== "reload") throw new Error(`unexpected reason ${event.reason}`);
  });
  pi.on("session_shutdown", () => {
    off?.();
    off = undefined;
  });
  pi.registerTool({
    name: "word_count",
    label: "Word count",
    description: "Count words and say hello on the bus",
    parameters: Type.Object({ text: Type.String() }),
    async execute(_id, { text }) {
      pi.events.emit("greeting", text);
      return { content: [{ type: "text", text: `${text.split(/\s+/).filter(Boolean).length} words, ${heard} greetings heard` }] };
    },
  });
}
