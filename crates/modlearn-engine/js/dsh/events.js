// DSH's extension points on modlearn's core events. A core `tool_start` is a
// call through DSH's real tool pipeline up to the body (pre-execute waterfall,
// approval, guards, around-dispatch); `tool_end` is the post-execute
// waterfall; `turn_start` is `agent/pre-step` plus the assembled system
// prompt; `turn_end` is `agent/turn-stopping`. What DSH decided is written
// back onto the core event, so the judge reads one vocabulary.

import { loadedCandidate } from "./session.js";
import { contentText, messageText } from "../content.js";
import { bodyWatch, standIn } from "./builtins.js";
import { hostListener, hostService } from "./runtime.js";
import { dataOf } from "../plain-data.js";

/** What the innermost `tools/execute` listener answers instead of running the body. */
const NOT_RUN = Object.freeze({ isError: false, value: null, content: [] });

/** A copy of the host's own JSON data (the core event's arguments). */
function deepCopy(value) {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

/**
 * The final pre-execute decision as plain data, each field read once. DSH is
 * handed this copy, so it and the judge see one decision whatever getters the
 * plugin's object has.
 */
function plainDecision(decision) {
  if (decision === null || typeof decision !== "object") return decision;
  const kind = decision.kind;
  const reason = decision.reason;
  return Object.freeze({ kind, ...(reason === undefined ? {} : { reason }) });
}

/**
 * One call of `toolName` through `tools.execute`, stopped before the body:
 * the last decision of `tools/pre-execute`, and the arguments the body would
 * have run with (or why it would not run).
 */
async function preflight(runtime, event) {
  const { root } = runtime;
  const tools = hostService(root, "tools");
  const disposers = [];
  const seen = { decision: null, reached: false, bodyRan: false, args: undefined };
  try {
    // The body of a tool is a stand-in (DSH's built-ins are registered before any plugin; a
    // tool nobody registered gets one for this call). A plugin may run it from its own
    // `tools/execute` listener instead of `next()`: then the call went ahead, whatever
    // result the listener makes up.
    if (tools.get(event.toolName) === undefined) disposers.push(tools.register(standIn(event.toolName)));
    bodyWatch.current = (args) => {
      seen.bodyRan = true;
      seen.args = dataOf(args);
    };
    disposers.push(() => (bodyWatch.current = null));
    disposers.push(hostListener(root, "tools/pre-execute", async (exec, next) => (seen.decision = plainDecision(await next())), true));
    disposers.push(hostListener(root, "tools/execute", async (exec) => {
      seen.reached = true;
      seen.args = dataOf(exec.arguments);
      return NOT_RUN;
    }));
    const result = await tools.execute({ callId: event.toolCallId, name: event.toolName, arguments: deepCopy(event.args) ?? {}, signal: new AbortController().signal });
    return { ...seen, result };
  } finally {
    for (const dispose of disposers.reverse()) dispose();
  }
}

const ROUTES = {
  async tool_start(runtime, event) {
    const seen = await preflight(runtime, event);
    // Headless DSH has no approval channel: an ask is never granted.
    if (seen.decision && seen.decision.kind === "ask") event.approval = { asked: true, reason: seen.decision.reason ?? null, granted: false };
    if (seen.reached || seen.bodyRan) {
      // DSH logs the arguments frozen, yet `exec.arguments` itself can be swapped: report what would run.
      event.args = seen.args;
      return;
    }
    event.result = { status: "error", output: contentText(seen.result.content) || String(seen.result.error?.message ?? "") };
  },

  async tool_end(runtime, event) {
    const { root } = runtime;
    const original = Object.freeze({ type: "text", text: String(event.output ?? "") });
    const result = Object.freeze({
      isError: event.status === "error",
      ...(event.status === "error" ? { error: { message: String(event.output ?? "") } } : { value: null }),
      content: Object.freeze([original]),
    });
    const exec = Object.freeze({ callId: event.toolCallId, name: event.toolName, arguments: Object.freeze(deepCopy(event.args) ?? {}) });
    const returned = await root.waterfall("tools/post-execute", exec, result, async () => ({ kind: "accept" }));
    if (!returned || typeof returned !== "object") return;
    // Each field read once, as DSH's postExecute reads them.
    const { kind, content, value, feedback, additionalContexts } = returned;
    const contexts = Array.isArray(additionalContexts) ? additionalContexts.map(messageText) : [];
    if (kind === "block") {
      const text = contentText(feedback);
      event.result = { status: "error", output: text || "tool result blocked by post-execute policy" };
      event.postExecute = { decision: "block", contexts };
    } else if (kind === "accept" && Array.isArray(content) && value !== undefined) {
      throw new TypeError("tools/post-execute accept decision cannot replace both value and content");
    } else if (kind === "accept" && Array.isArray(content)) {
      event.result = { status: event.status === "error" ? "error" : "success", output: contentText(content) };
      event.postExecute = { decision: "replace", contexts };
    } else if (kind === "accept" && value !== undefined) {
      if (event.status === "error") throw new TypeError("tools/post-execute cannot replace the value of a failed result");
      event.result = { status: "success", output: JSON.stringify(value) };
      event.postExecute = { decision: "replace", contexts };
    } else {
      // DSH checks no other kind: anything else accepts the result as it is.
      event.postExecute = { decision: "accept", contexts };
    }
  },

  async turn_start(runtime, event) {
    const { root, agent } = runtime;
    const input = Array.isArray(event.input) ? event.input : [];
    const messages = input.filter((item) => item && item.role === "user").map((item) => ({ role: "user", content: [{ type: "text", text: messageText(item) }] }));
    const pending = agent.outbox.injected.splice(0);
    const decision = await root.waterfall(
      "agent/pre-step",
      { agent, messages, turn: 1, step: 1, signal: new AbortController().signal },
      async () => ({ kind: "enter", messages }),
    );
    if (decision && decision.kind === "reject") {
      event.cancel = { reason: "the step was rejected by a plugin" };
      return { cancel: event.cancel };
    }
    const entered = decision && Array.isArray(decision.messages) ? decision.messages.slice(messages.length) : [];
    const added = [...pending, ...agent.outbox.injected.splice(0), ...entered.map(messageText)];
    for (const text of added) input.push({ type: "message", role: "user", content: text });
    const assembly = await hostService(root, "systemPrompt").assemble({});
    const text = assembly.sections.map((section) => section.text).filter((part) => typeof part === "string" && part !== "").join("\n\n");
    if (text !== "") input.push({ type: "message", role: "system", content: text });
    return undefined;
  },

  async turn_end(runtime, event) {
    const { root, agent } = runtime;
    const before = agent.outbox.steered.length;
    await root.serial("agent/turn-stopping", { agent, turn: 1, signal: new AbortController().signal });
    const steered = agent.outbox.steered.slice(before);
    if (steered.length > 0 && !event.continue) event.continue = steered.join("\n");
    return undefined;
  },
};

/** The registrations a core emission runs for a DSH plugin: one, through DSH's own dispatch. */
export function dshRegistrations(host, core) {
  const route = ROUTES[core];
  const runtime = host.dsh;
  const candidate = loadedCandidate(host);
  if (!route || !runtime || !candidate) return [];
  return [{ name: core, owner: candidate.owner, handler: (event) => route(runtime, event) }];
}
