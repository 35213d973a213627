// DeepSeek Harness inside one engine: the real Cordis root with DSH's own
// `tools`, `systemPrompt` and `commands` services and the timer plugin
// (vendor/dsh.js, built from DSH's source), plus modlearn's `agents` service:
// the one evaluation agent whose inbox, steering and follow-ups the checks read.

import { messageText } from "../content.js";
import { CommandRuntime, Context, FiberState, Service, SystemPrompt, TimerService, ToolRuntime } from "../vendor/dsh.js";

export const EVAL_AGENT_ID = "mod-learning-eval-agent";

/** The evaluation agent's handle: what plugins queue through it is recorded for the checks. */
function evalAgent(ctx) {
  const outbox = { injected: [], steered: [], followups: [] };
  // The durable session log DSH's services append to (`command/run`, `command/done`).
  const log = [];
  const session = { append: (type, data) => (log.push({ type, data }), { seq: log.length }), log };
  const agent = {
    id: EVAL_AGENT_ID,
    options: {},
    status: "idle",
    ctx,
    outbox,
    session,
    inject: (message) => void outbox.injected.push(messageText(message)),
    steer: (message) => void outbox.steered.push(messageText(message)),
    followup: (message) => void outbox.followups.push(messageText(message)),
    send: (message, target) => void (target === "next-step" ? outbox.steered : outbox.followups).push(messageText(message)),
    cancel: () => undefined,
    whenIdle: async () => undefined,
  };
  return agent;
}

/** `agents`: the agent registry a headless evaluation has, one agent. */
class EvalAgents extends Service {
  constructor(ctx) {
    super(ctx, "agents");
    this.agent = evalAgent(ctx);
  }

  get(id) {
    return id === EVAL_AGENT_ID ? this.agent : undefined;
  }

  list() {
    return [this.agent];
  }
}

/** The listeners on the root and the fibers under it, now: what a plugin added later is its own. */
export function rootEffects(root) {
  const hooks = [];
  for (const [name, list] of Object.entries(root.events._hooks)) for (const hook of list ?? []) hooks.push({ name, hook });
  const fibers = [];
  for (const runtime of root.registry.values()) for (const fiber of runtime.fibers) fibers.push({ name: String(runtime.name ?? ""), fiber });
  return { hooks, fibers };
}

/** Starts the root and its services; resolves once every service is active. */
export async function startRuntime() {
  const root = new Context();
  const services = [root.plugin(TimerService), root.plugin(SystemPrompt, {}), root.plugin(ToolRuntime, {}), root.plugin(CommandRuntime), root.plugin(EvalAgents)];
  for (const fiber of services) await fiber;
  const stuck = services.filter((fiber) => fiber.state !== FiberState.ACTIVE);
  if (stuck.length > 0) throw new Error(`DSH services did not start: ${stuck.map((fiber) => fiber.runtime?.name).join(", ")}`);
  return { root, agent: root.get("agents").agent, baseline: rootEffects(root) };
}
