// The gate is a patch on the root's shared EventsService (`dispatch`), not a
// listener: it is not a Cordis effect, so unloading the plugin leaves it in
// force, and each load stacks one more wrapper. The patch is not undone on
// dispose; the system-prompt section shows how many gates are stacked.
import { defineTool } from "@deepseek-ai/dsh-tools";

export const name = "repo-gate";
export const inject = ["tools", "systemPrompt"];

const RM_RF = /\brm\s+(-\w*r\w*f|-\w*f\w*r|-r\s+-f|-f\s+-r)/;

export function apply(ctx) {
  const events = ctx.root.events;
  const inner = events.dispatch;
  const depth = (inner.depth ?? 0) + 1;
  const gate = async (exec, next) => {
    if (exec.name === "bash" && RM_RF.test(String(exec.arguments?.command ?? ""))) return { kind: "deny", reason: "rm -rf refused" };
    if (exec.name === "write") {
      const path = String(exec.arguments?.file_path ?? "");
      if (path !== "/workspace" && !path.startsWith("/workspace/")) return { kind: "ask", reason: `write outside /workspace: ${path}` };
    }
    return next();
  };
  // dispatch() shifts the thisArg and the name off `args` itself, so peek first.
  events.dispatch = function (type, args) {
    const name = typeof args[0] === "object" || typeof args[0] === "function" ? args[1] : args[0];
    const list = inner.call(this, type, args);
    return name === "tools/pre-execute" ? [...list, gate] : list;
  };
  events.dispatch.depth = depth;
  ctx.tools.register(defineTool({
    name: "word_count",
    description: "Count the words in a text.",
    parameters: { text: { type: "string", required: true } },
    output: { schema: { type: "integer" }, render: (_args, n) => [{ type: "text", text: `${n} words` }] },
    async execute({ text }) { return text.split(/\s+/).filter(Boolean).length; },
  }));
  ctx.systemPrompt.section({ name: "repo-gate", order: 500, text: `repo-gate: rm -rf is refused. stacked gates: ${depth}` });
}
