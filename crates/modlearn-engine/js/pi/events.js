// Pi's events on modlearn's core events. Each core emission (the probes the
// judge sends are Letta-shaped) runs the Pi handlers routed to it, in Pi's
// order and with Pi's payloads and rules for combining results; what those
// handlers decide is written back onto the core event, so the judge reads one
// vocabulary for both dialects. Pi 0.58.3 rules (../../../shared/reference/pi-dsh.md §1.3).

import { clock } from "../platform.js";
import { contentText } from "../content.js";
import { structuredCloneValue } from "../clone.js";

/** The system prompt `before_agent_start` handlers start from (and `ctx.getSystemPrompt()` reads). */
export const BASE_SYSTEM_PROMPT = "You are a coding agent.";

/** What the model is told when a tool_call handler blocks without a reason (Pi's agent loop). */
export const BLOCKED_WITHOUT_REASON = "Tool execution was blocked";

/**
 * Pi event → the core event it runs in and its stage there (lower first: Pi's
 * `input` comes before `before_agent_start`, which comes before `turn_start`).
 * Events missing here are accepted, as Pi accepts any name, but never fire.
 */
export const PI_ROUTES = Object.freeze({
  input: { core: "turn_start", stage: 0 },
  before_agent_start: { core: "turn_start", stage: 1 },
  agent_start: { core: "turn_start", stage: 2 },
  turn_start: { core: "turn_start", stage: 3 },
  context: { core: "turn_start", stage: 4 },
  tool_execution_start: { core: "tool_start", stage: 0 },
  tool_call: { core: "tool_start", stage: 1 },
  tool_result: { core: "tool_end", stage: 0 },
  tool_execution_end: { core: "tool_end", stage: 1 },
  turn_end: { core: "turn_end", stage: 0 },
  agent_end: { core: "turn_end", stage: 1 },
  session_before_compact: { core: "compact_start", stage: 0 },
  session_compact: { core: "compact_end", stage: 0 },
});

/** Where the turn's prompt is: the last user item of the input, or -1. */
function lastUserIndex(input) {
  for (let index = input.length - 1; index >= 0; index--) {
    if (input[index] && input[index].role === "user") return index;
  }
  return -1;
}

/** The tool's own result, as Pi's `tool_result` and `tool_execution_end` see it before any patch. */
function toolResult(event) {
  return { content: [{ type: "text", text: String(event.output ?? "") }], details: undefined, isError: event.status === "error" };
}

/** Per emission: what earlier Pi handlers decided, which later ones see or are skipped by. */
function emissionState(event) {
  const input = Array.isArray(event.input) ? event.input : [];
  const prompt = lastUserIndex(input);
  return {
    prompt: prompt < 0 ? "" : contentText(input[prompt].content),
    baseLength: input.length,
    handled: false,
    systemPrompt: BASE_SYSTEM_PROMPT,
    messages: [],
    result: null,
  };
}

/** The items before_agent_start adds to the turn: collected messages, then the system prompt's additions. */
function writeAgentStart(event, state) {
  if (!Array.isArray(event.input)) return;
  event.input.length = Math.min(event.input.length, state.baseLength);
  for (const message of state.messages) {
    event.input.push({ type: "message", role: "user", content: message.content, customType: message.customType });
  }
  if (state.systemPrompt !== BASE_SYSTEM_PROMPT) {
    const added = state.systemPrompt.startsWith(BASE_SYSTEM_PROMPT)
      ? state.systemPrompt.slice(BASE_SYSTEM_PROMPT.length).replace(/^\s+/, "")
      : state.systemPrompt;
    event.input.push({ type: "message", role: "system", content: added });
  }
}

/** What a dialog asked, as the approval's reason: its title and its message. */
function dialogReason(title, message) {
  return [title, message].filter((part) => typeof part === "string" && part !== "").join(": ");
}

function coreResult(content, isError) {
  return { status: isError ? "error" : "success", output: contentText(content) };
}

/**
 * One adapter per Pi event: `(piHandler, event, ctx, state) => core result`.
 * It builds Pi's payload from the core event, calls the handler and applies
 * Pi's rule for its result.
 */
const ADAPTERS = {
  async input(handler, event, ctx, state) {
    if (state.handled) return undefined;
    const result = await handler({ type: "input", text: state.prompt, images: undefined, source: "interactive" }, ctx);
    if (!result || typeof result !== "object") return undefined;
    if (result.action === "handled") {
      state.handled = true;
      return { cancel: { reason: "input handled by an extension" } };
    }
    if (result.action === "transform" && typeof result.text === "string") {
      state.prompt = result.text;
      const prompt = lastUserIndex(event.input);
      if (prompt >= 0) event.input[prompt] = { ...event.input[prompt], content: result.text };
    }
    return undefined;
  },

  async before_agent_start(handler, event, ctx, state) {
    if (state.handled) return undefined;
    const payload = { type: "before_agent_start", prompt: state.prompt, images: undefined, systemPrompt: state.systemPrompt };
    const result = await handler(payload, ctx);
    if (result && typeof result === "object") {
      if (result.message && typeof result.message === "object") state.messages.push(result.message);
      // An empty prompt puts the base prompt back, as Pi's chain does.
      if (typeof result.systemPrompt === "string") state.systemPrompt = result.systemPrompt || BASE_SYSTEM_PROMPT;
    }
    writeAgentStart(event, state);
    return undefined;
  },

  async agent_start(handler, _event, ctx, state) {
    if (!state.handled) await handler({ type: "agent_start" }, ctx);
    return undefined;
  },

  async turn_start(handler, _event, ctx, state) {
    if (!state.handled) await handler({ type: "turn_start", turnIndex: 0, timestamp: clock.now }, ctx);
    return undefined;
  },

  // Before the model is called: each handler gets a copy of the messages so far and may answer
  // `{ messages }`, which the next handler and the model get instead. The system prompt is not
  // a message here, so the turn's system items stay after the messages.
  async context(handler, event, ctx, state) {
    if (state.handled || !Array.isArray(event.input)) return undefined;
    state.context ??= event.input
      .filter((item) => item && item.role !== "system")
      .map((item) => ({ role: item.role === "assistant" ? "assistant" : "user", content: [{ type: "text", text: contentText(item.content) }], timestamp: clock.now }));
    const result = await handler({ type: "context", messages: structuredCloneValue(state.context) }, ctx);
    if (!result || typeof result !== "object" || !Array.isArray(result.messages)) return undefined;
    state.context = result.messages;
    const systems = event.input.filter((item) => item && item.role === "system");
    event.input.length = 0;
    for (const message of result.messages) {
      if (!message || typeof message !== "object") continue;
      event.input.push({ type: "message", role: message.role === "assistant" ? "assistant" : "user", content: contentText(message.content) });
    }
    event.input.push(...systems);
    return undefined;
  },

  async tool_execution_start(handler, event, ctx) {
    await handler({ type: "tool_execution_start", toolCallId: event.toolCallId, toolName: event.toolName, args: event.args }, ctx);
    return undefined;
  },

  // The first block stops the chain; a handler that throws blocks too (Pi
  // fails safe here). In-place edits of `input` are edits of the core args.
  async tool_call(handler, event, ctx, state) {
    if (state.result !== null) return undefined;
    // A dialog opened for this call puts the call to a human (`asks_approval`):
    // Pi's gates ask with `confirm` or with a yes/no `select`. `granted` is false
    // once any answer was a refusal or none (the call must then stop), true when
    // every answer was a confirmed yes, and null when a chosen option says neither.
    const asking = { ...ctx, ui: { ...ctx.ui } };
    for (const kind of ["confirm", "select", "input"]) {
      const open = ctx.ui?.[kind];
      if (typeof open !== "function") continue;
      asking.ui[kind] = async (title, detail, ...rest) => {
        event.approval ??= { asked: true, reason: dialogReason(title, kind === "select" ? undefined : detail), granted: true };
        const answer = await open(title, detail, ...rest);
        const granted = kind === "confirm" ? answer === true : answer === undefined ? false : null;
        const before = event.approval.granted;
        event.approval.granted = before === false || granted === false ? false : before === null || granted === null ? null : true;
        return answer;
      };
    }
    let result;
    try {
      result = await handler({ type: "tool_call", toolCallId: event.toolCallId, toolName: event.toolName, input: event.args }, asking);
    } catch (error) {
      // The model sees an Error's own message; anything else thrown, Pi's wrapper text.
      const reason = error instanceof Error ? error.message : `Extension failed, blocking execution: ${String(error)}`;
      result = { block: true, reason };
    }
    if (result && typeof result === "object" && result.block === true) {
      const reason = typeof result.reason === "string" && result.reason !== "" ? result.reason : BLOCKED_WITHOUT_REASON;
      state.result = { status: "error", output: reason };
      event.result = state.result;
    }
    return undefined;
  },

  // Middleware: each handler sees the latest result; fields it leaves out are kept. Pi's
  // session forwards the patched content and details of a successful call only: a failed
  // call's result and the `isError` flag stay as the tool left them.
  async tool_result(handler, event, ctx, state) {
    state.current ??= toolResult(event);
    const current = state.current;
    const payload = { type: "tool_result", toolCallId: event.toolCallId, toolName: event.toolName, input: event.args, ...current };
    const patch = await handler(payload, ctx);
    if (!patch || typeof patch !== "object") return undefined;
    const next = {
      content: patch.content !== undefined ? patch.content : current.content,
      details: patch.details !== undefined ? patch.details : current.details,
      isError: patch.isError !== undefined ? patch.isError === true : current.isError,
    };
    state.current = next;
    if (event.status !== "error" && patch.content !== undefined) {
      event.result = coreResult(next.content, false);
      event.postExecute = { decision: "replace", contexts: [] };
    }
    return undefined;
  },

  async tool_execution_end(handler, event, ctx, state) {
    const current = state.current ?? toolResult(event);
    const payload = { type: "tool_execution_end", toolCallId: event.toolCallId, toolName: event.toolName, result: current, isError: current.isError };
    await handler(payload, ctx);
    return undefined;
  },

  async turn_end(handler, event, ctx) {
    const text = typeof event.assistantMessage === "string" ? event.assistantMessage : "";
    const message = { role: "assistant", content: [{ type: "text", text }] };
    await handler({ type: "turn_end", turnIndex: 0, message, toolResults: [] }, ctx);
    return undefined;
  },

  async agent_end(handler, _event, ctx) {
    await handler({ type: "agent_end", messages: [] }, ctx);
    return undefined;
  },

  async session_before_compact(handler, _event, ctx) {
    await handler({ type: "session_before_compact", preparation: {}, branchEntries: [], customInstructions: undefined, signal: ctx.signal }, ctx);
    return undefined;
  },

  async session_compact(handler, _event, ctx) {
    await handler({ type: "session_compact", compactionEntry: {}, fromExtension: false }, ctx);
    return undefined;
  },
};

/**
 * The registrations a core emission of `core` runs for a Pi registry: each Pi
 * handler routed there, wrapped in its adapter, by stage then registration order.
 * `contextFor(owner)` gives the Pi ctx a handler receives; a handler that
 * throws is logged with `onError(owner, name, error)` and the chain goes on,
 * as Pi's runner does (tool_call's fail-safe block is in its adapter).
 */
export function piRegistrations(registry, core, event, contextFor, onError) {
  const state = emissionState(event);
  const routed = [];
  for (const [name, route] of Object.entries(PI_ROUTES)) {
    if (route.core !== core) continue;
    for (const entry of registry.piHandlers[name] ?? []) routed.push({ entry, stage: route.stage, name });
  }
  routed.sort((a, b) => a.stage - b.stage);
  return routed.map(({ entry, name }) => ({
    name,
    owner: entry.owner,
    async handler(coreEvent) {
      try {
        return await ADAPTERS[name](entry.handler, coreEvent, contextFor(entry.owner), state);
      } catch (error) {
        onError(entry.owner, name, error);
        return undefined;
      }
    },
  }));
}
