// The core registry's view of what a DSH plugin registered: its tools and
// commands as DSH's own services hold them, and the events it listens to as
// its fiber's effects name them. Rebuilt before every operation and snapshot,
// so what a plugin registers late (in a listener, after a timer) is seen too.

import { listenedEvents, loadedCandidate } from "./session.js";
import { contentText } from "../content.js";
import { dialectCommand, dialectTool } from "../registry.js";
import { isStandIn } from "./builtins.js";
import { hostService } from "./runtime.js";


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
    // Through DSH's own `commands.execute`: its parsing, its signal, and its check of what
    // the handler returns (a result without a `kind` is an error there, not an answer).
    async run(ctx) {
      const line = `/${descriptor.name}${ctx.args ? ` ${ctx.args}` : ""}`;
      const signal = ctx.signal ?? new AbortController().signal;
      const outcome = await commands.execute(agent, line, [], signal);
      const result = outcome?.result;
      if (!result) throw new Error(`/${descriptor.name} is not registered`);
      if (result.kind === "error") throw new Error(String(result.text ?? "command failed"));
      return typeof result.text === "string" ? { type: "output", output: result.text } : { type: "handled" };
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
  const tools = hostService(runtime.root, "tools");
  for (const schema of tools.schemas()) {
    if (!isStandIn(tools.get(schema.name))) registry.tools.set(schema.name, coreTool(tools, schema, owner));
  }
  const commands = hostService(runtime.root, "commands");
  for (const descriptor of commands.list(undefined)) registry.commands.set(descriptor.name, coreCommand(commands, descriptor, owner, runtime.agent));
  registry.hostEvents = listenedEvents(fiber);
}
