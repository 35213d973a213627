// Redacts secrets by editing the text of the result's content blocks in place, returning
// nothing: Pi hands the edited blocks to the model, for failed calls too.
const SECRET = /sk-[a-z]+-\d+/g;

export default function (pi) {
  pi.on("tool_result", (event) => {
    for (const block of event.content) {
      if (block.type === "text") block.text = block.text.replace(SECRET, "[redacted]");
    }
  });
}
