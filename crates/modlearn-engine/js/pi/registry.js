// The core registry's view of what a Pi extension registered, read from Pi's runner: its tools
// (as the model would call them, through pi-agent-core's tool pipeline), its commands (under the
// names Pi invokes them by), and its handler counts per event. Rebuilt before every operation
// and snapshot, so what an extension registers late is seen too.

import * as Pi from "../vendor/pi.js";
import { contentText } from "../content.js";
import { dialectCommand, dialectTool } from "../registry.js";

/**
 * A run of tool `name` as the model's call runs it, without the session's gate and result
 * handlers (the tool as it is): Pi prepares and validates the arguments, calls `execute`, and
 * makes a thrown error or a returned `isError: true` an error.
 */
function coreTool(session, definition, owner) {
  return dialectTool({
    name: definition.name,
    description: definition.description,
    parameters: definition.parameters,
    owner,
    async run(ctx) {
      const tools = session.current?.tools;
      const tool = tools?.get(definition.name);
      const call = { type: "toolCall", id: String(ctx.toolCallId ?? "call-eval-1"), name: definition.name, arguments: structuredClone(ctx.args ?? {}) };
      const finished = await Pi.runToolCall(call, {
        tools: tool ? [tool] : [],
        assistantMessage: { role: "assistant", content: [call], stopReason: "toolUse", timestamp: 0 },
        context: { messages: [], tools: tool ? [tool] : [] },
        signal: ctx.signal,
      });
      const content = finished.result?.content;
      return { status: finished.isError ? "error" : "success", output: Array.isArray(content) ? contentText(content) : String(content ?? "") };
    },
  });
}

/**
 * A run of command `/name args` as Pi's prompt runs one: the handler with the runner's command
 * ctx. What the command leaves the session with: a user message it sent, else what it told the
 * user, else nothing (`handled`). A handler that throws fails the run (Pi reports the error).
 */
function coreCommand(session, command, owner) {
  return dialectCommand({
    id: command.invocationName,
    description: command.description,
    owner,
    async run(ctx) {
      const runner = session.runner;
      const found = runner?.getCommand(command.invocationName);
      if (!found) throw new Error(`/${command.invocationName} is not registered`);
      const sent = session.sent.length;
      const told = session.host.notifications.length;
      await found.handler(ctx.args ?? "", runner.createCommandContext());
      const messages = session.sent.slice(sent).filter((message) => message.user);
      if (messages.length > 0) return { type: "prompt", content: messages.map((message) => message.text).join("\n"), systemReminder: false };
      const notes = session.host.notifications.slice(told).filter((note) => note.mod === owner.id);
      if (notes.length > 0) return { type: "output", output: notes.map((note) => note.message).join("\n") };
      return { type: "handled" };
    },
  });
}

/** Refreshes `host.registry` from the loaded extension. */
export function syncRegistry(host) {
  const session = host.pi;
  if (!session) return;
  const registry = host.registry;
  registry.tools.clear();
  registry.commands.clear();
  registry.hostEvents = Object.create(null);
  const current = session.current;
  if (!current?.extension || !host.isLive(current.owner)) return;
  const { owner, extension, runner } = current;
  session.refreshTools();
  for (const { definition, builtIn } of current.definitions.values()) {
    if (!builtIn) registry.tools.set(definition.name, coreTool(session, definition, owner));
  }
  for (const command of runner.getRegisteredCommands()) registry.commands.set(command.invocationName, coreCommand(session, command, owner));
  for (const [event, handlers] of extension.handlers) registry.hostEvents[event] = handlers.length;
}
