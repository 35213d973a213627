// Continues by steering instead: during turn_end it sends a message for the next turn, which the
// agent loop picks up before it stops.
export default function (pi) {
  pi.on("turn_end", (event) => {
    const text = event.message.content.map((block) => block.text ?? "").join("");
    if (text.includes("TODO")) pi.sendMessage({ customType: "nudge", content: "You left a TODO: add tests.", display: false }, { deliverAs: "steer" });
  });
}
