// Mutant `rewrite-everything` (Pi): edits the spec's first rewrite example into
// every tool call's input, whatever the tool.
const DATA = JSON.parse(__MUTANT_DATA__);

export default function (pi) {
  pi.on("tool_call", (event) => {
    Object.assign(event.input, DATA.rewrite.args);
  });
}
