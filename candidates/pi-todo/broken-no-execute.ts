// Broken: the tool has no execute. Pi registers it anyway (it validates nothing), so
// the extension loads and every call fails with "definition.execute is not a function".
export default function (pi) {
  pi.registerTool({ name: "todo", label: "Todo", description: "A todo list", parameters: { type: "object", properties: {} } });
}
