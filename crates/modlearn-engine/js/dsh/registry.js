// The core registry's view of what a DSH plugin registered: its tools and
// commands as DSH's own services hold them, and the events it listens to as
// its fiber's effects name them. Rebuilt before every operation and snapshot,
// so what a plugin registers late (in a listener, after a timer) is seen too.

import { listenedEvents, loadedCandidate } from "./session.js";
import { contentText } from "../content.js";
import { dialectCommand, dialectTool } from "../registry.js";


function coreTool(tools, schema, owner) {
  const definition = tools.get(schema.name);
  return dialectTool({
    name: schema.name,
    description: schema.description,
    parameters: schema.parameters,
    owner,
    // The whole pipeline, as the model's call would go: gates, guards, the body, post-execute.
    async run(ctx) {
      const result = await tools.execute({ callId: ctx.toolCallId, name: schema.name, arguments: ctx.args ?? {}, signal: ctx.signal });
      if (result.isError) throw new Error(String(result.error?.message ?? contentText(result.content)));
      return definition?.output ? contentText(result.content) : JSON.stringify(result.value);
    },
  });
}

function coreCommand(commands, descriptor, owner, agent) {
  return dialectCommand({
    id: descriptor.name,
    description: descriptor.description,
    owner,
    async run(ctx) {
      const definition = commands.find(undefined, descriptor.name);
      const rawInput = ctx.args ? ` ${ctx.args}` : "";
      const result = await definition.handler({ commandId: "command-eval-1", agent, rawInput, attachments: [] });
      if (result && result.kind === "error") throw new Error(String(result.text ?? "command failed"));
      return result && typeof result.text === "string" ? { type: "output", output: result.text } : { type: "handled" };
    },
  });
}

/** Refreshes `host.registry` from the DSH services and the candidate's fiber. */
export function syncRegistry(host) {
  const runtime = host.dsh;
  const registry = host.registry;
  if (!runtime) return;
  const candidate = loadedCandidate(host);
  registry.tools.clear();
  registry.commands.clear();
  registry.hostEvents = Object.create(null);
  if (!candidate) return;
  const { owner, fiber } = candidate;
  const tools = runtime.root.get("tools");
  for (const schema of tools.schemas()) registry.tools.set(schema.name, coreTool(tools, schema, owner));
  const commands = runtime.root.get("commands");
  for (const descriptor of commands.list(undefined)) registry.commands.set(descriptor.name, coreCommand(commands, descriptor, owner, runtime.agent));
  registry.hostEvents = listenedEvents(fiber);
}
