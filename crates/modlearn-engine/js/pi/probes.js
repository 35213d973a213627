// Each core event a probe (or a scripted session) emits runs one stage of a Pi session (see
// stages.js) through Pi's own code: the runner's emit functions, and pi-agent-core's tool
// pipeline (argument preparation, validation, the gate, the call, the merge of the result).
// What Pi decided is written back onto the core event in the one vocabulary the judge reads:
// `result` (the call was stopped, or its result replaced), `refused` (Pi refused the call
// before any tool_call handler saw it), `args`, `approval`, `postExecute`, appended `input`
// items, `cancel`, `continue`.

import * as Pi from "../vendor/pi.js";
import { clock } from "../platform.js";
import { contentText } from "../content.js";
import { dataOf } from "../plain-data.js";

/** What the model is told when a tool_call handler blocks without a reason (pi-agent-core). */
export const BLOCKED_WITHOUT_REASON = "Tool execution was blocked";

const USAGE = Object.freeze({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: Object.freeze({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 }) });

function assistantMessage(content, stopReason) {
  return { role: "assistant", content, api: "modlearn", provider: "modlearn", model: "modlearn-script", usage: USAGE, stopReason, timestamp: clock.now };
}

/** The call the model makes in a tool probe, from the core event. */
function toolCallOf(event) {
  const args = event.args && typeof event.args === "object" && !Array.isArray(event.args) ? structuredClone(event.args) : {};
  return { type: "toolCall", id: String(event.toolCallId ?? "call-eval-1"), name: String(event.toolName), arguments: args };
}

/** The toolResult message the agent loop makes of a finished call. */
function toolResultMessage(finished) {
  return {
    role: "toolResult",
    toolCallId: finished.toolCall.id,
    toolName: finished.toolCall.name,
    content: finished.result.content ?? [],
    details: finished.result.details,
    usage: finished.result.usage,
    isError: finished.isError,
    timestamp: clock.now,
  };
}

/**
 * The gate: the extension's `tool_call` handlers, as Pi's session puts them before a call. A
 * handler that throws blocks the call (the runner does not catch here); what is not an Error
 * becomes Pi's wrapper text.
 */
async function gate(session, seen, { toolCall, args }) {
  const runner = session.runner;
  if (!runner?.hasHandlers("tool_call")) return undefined;
  seen.dispatched = true;
  try {
    return await runner.emitToolCall({ type: "tool_call", toolName: toolCall.name, toolCallId: toolCall.id, input: args });
  } catch (error) {
    if (error instanceof Error) throw error;
    throw new Error(`Extension failed, blocking execution: ${String(error)}`);
  }
}

/**
 * After a call: the extension's `tool_result` handlers, whose patch is merged by pi-agent-core,
 * and Pi's normalisation of the images in the content (a content that is no array fails there).
 */
async function afterCall(session, { toolCall, args, result, isError }) {
  const runner = session.runner;
  const patch = runner?.hasHandlers("tool_result")
    ? await runner.emitToolResult({
      type: "tool_result",
      toolName: toolCall.name,
      toolCallId: toolCall.id,
      input: args,
      content: result.content,
      details: result.details,
      ...(result.structuredContent === undefined ? {} : { structuredContent: result.structuredContent }),
      isError,
      usage: result.usage,
    })
    : undefined;
  const content = patch?.content ?? result.content ?? [];
  const normalized = await Pi.normalizeToolResultImages(content, { autoResizeImages: true });
  if (!patch && normalized === content) return undefined;
  return {
    content: normalized,
    details: patch?.details,
    structuredContent: patch ? patch.structuredContent : result.structuredContent,
    isError: patch?.isError ?? isError,
    usage: patch?.usage,
  };
}

/** A call's end as the agent loop reports it: `tool_execution_end`, then its result message. */
async function endCall(session, finished) {
  await session.emit({ type: "tool_execution_end", toolCallId: finished.toolCall.id, toolName: finished.toolCall.name, result: finished.result, isError: finished.isError });
  return session.messageEvents(toolResultMessage(finished));
}

/** What a dialog asked, as an approval's reason: its title and its message. */
function dialogReason(dialog) {
  return [dialog.title, dialog.detail].filter((part) => typeof part === "string" && part !== "").join(": ");
}

/**
 * The dialogs a gate opened, as an approval: asked with the first one's text; granted only when
 * every answer was a yes (a confirmed one, or one the scenario's rule `assents` to), refused once
 * any was a no or none, and neither (null) when an answer says nothing about yes or no.
 */
function approvalOf(dialogs) {
  let granted = true;
  for (const dialog of dialogs) {
    const said = dialog.assents === undefined ? null : dialog.assents === true;
    const answer = dialog.kind === "confirm" ? dialog.answer === true : dialog.answer === undefined ? false : said;
    granted = granted === false || answer === false ? false : granted === null || answer === null ? null : true;
  }
  return { asked: true, reason: dialogReason(dialogs[0]), granted };
}

/** The tools the model may call, with `name`'s body replaced by `execute`. */
function toolsWith(session, name, execute) {
  return session.activeAgentTools().map((tool) => (tool.name === name ? { ...tool, execute } : tool));
}

const ROUTES = {
  /** A call's gate: the call is prepared and validated, the gate runs, the body is only watched. */
  async tool_start(session, event, probe) {
    const call = toolCallOf(event);
    await session.emit({ type: "tool_execution_start", toolCallId: call.id, toolName: call.name, args: call.arguments });
    const seen = { dispatched: false, ran: false, args: undefined, dialogs: [] };
    const tools = toolsWith(session, call.name, async (_id, params) => {
      seen.ran = true;
      seen.args = dataOf(params);
      return { content: [], details: undefined };
    });
    const finished = await Pi.runToolCall(call, {
      tools,
      assistantMessage: assistantMessage([call], "toolUse"),
      context: { messages: [], tools },
      signal: probe.signal,
      beforeToolCall: async (context) => {
        const from = probe.dialogs.length;
        try {
          return await gate(session, seen, context);
        } finally {
          seen.dialogs = probe.dialogs.slice(from);
        }
      },
    });
    if (seen.dialogs.length > 0) event.approval = approvalOf(seen.dialogs);
    if (seen.ran) {
      event.args = seen.args;
      return;
    }
    const text = contentText(finished.result.content);
    if (seen.dispatched) event.result = { status: "error", output: text };
    else event.refused = text;
    await endCall(session, finished);
  },

  /** A call's result: the tool ends with the probe's status and output, the result handlers patch it. */
  async tool_end(session, event, probe) {
    const call = toolCallOf(event);
    const failed = event.status === "error";
    const output = String(event.output ?? "");
    const tools = toolsWith(session, call.name, async () => {
      if (failed) throw new Error(output);
      return { content: [{ type: "text", text: output }], details: undefined };
    });
    const finished = await Pi.runToolCall(call, {
      tools,
      assistantMessage: assistantMessage([call], "toolUse"),
      context: { messages: [], tools },
      signal: probe.signal,
      afterToolCall: (context) => afterCall(session, context),
    });
    const message = await endCall(session, finished);
    // What the model gets next: the conversation so far, through the context handlers.
    const prompt = { role: "user", content: [{ type: "text", text: "" }], timestamp: clock.now };
    const conversation = [prompt, assistantMessage([call], "toolUse"), message];
    const sent = session.runner?.hasHandlers("context") ? await session.runner.emitContext(conversation) : conversation;
    const delivered = sent.find((m) => m && m.role === "toolResult" && m.toolCallId === call.id);
    if (!delivered) {
      event.result = { status: "error", output: "" };
      event.postExecute = { decision: "block", contexts: [], dropped: true };
      return;
    }
    const seenText = Array.isArray(delivered.content) ? contentText(delivered.content) : null;
    if (seenText === null) {
      // Every provider converter in pi-ai reads the content as blocks: the request fails.
      event.result = { status: "error", output: "" };
      event.postExecute = { decision: "block", contexts: [], unsendable: true };
      return;
    }
    const isError = delivered.isError === true;
    if (seenText === output && isError === failed) return;
    event.result = { status: isError ? "error" : "success", output: seenText };
    event.postExecute = { decision: isError && !failed ? "block" : "replace", contexts: [] };
  },

  /** A turn's start: `input`, `before_agent_start`, the run's first events, `context`. */
  async turn_start(session, event, probe) {
    const input = Array.isArray(event.input) ? event.input : [];
    const at = lastUserIndex(input);
    let text = at < 0 ? "" : contentText(input[at].content ?? input[at]);
    const runner = session.runner;
    if (runner.hasHandlers("input")) {
      const answer = await runner.emitInput(text, undefined, "interactive", undefined);
      if (answer?.action === "handled") {
        event.cancel = { reason: "an input handler handled the prompt" };
        return { cancel: event.cancel };
      }
      if (answer?.action === "transform" && typeof answer.text === "string" && answer.text !== text) {
        text = answer.text;
        if (at >= 0) input[at] = { ...input[at], content: text };
      }
    }
    const base = session.baseSystemPromptOptions();
    const basePrompt = Pi.buildSystemPrompt(base);
    const started = await runner.emitBeforeAgentStart({ messageType: "user", prompt: text, images: undefined }, base);
    probe.systemPromptOptions = started.systemPromptOptions;
    const options = started.systemPromptOptions;
    const systemPrompt = options.forceSystemPrompt ?? Pi.buildSystemPrompt(options);
    const messages = [{ role: "user", content: [{ type: "text", text }], timestamp: clock.now }, ...session.takeNextTurn()];
    for (const message of started.messages) {
      messages.push({ role: "custom", customType: message.customType, content: message.content ?? [], display: message.display, details: message.details, timestamp: clock.now });
    }
    await session.emit({ type: "agent_start" });
    await session.emit({ type: "turn_start", turnIndex: 0, timestamp: clock.now });
    const delivered = [];
    for (const message of messages) delivered.push(await session.messageEvents(message));
    const sent = runner.hasHandlers("context") ? await runner.emitContext(delivered) : delivered;
    // What the model gets besides the prompt: every user-side message after it.
    const llm = Pi.convertToLlm(sent);
    const promptAt = llm.findIndex((message) => message.role === "user");
    for (const message of llm.slice(promptAt + 1)) {
      if (message.role === "user") input.push({ type: "message", role: "user", content: contentText(message.content) });
    }
    const added = addedLines(basePrompt, systemPrompt);
    if (added !== "") input.push({ type: "message", role: "system", content: added });
    return undefined;
  },

  /** A turn's end: the model's message, the `turn_end` boundary (which may continue the run), the run's end. */
  async turn_end(session, event, probe) {
    const text = typeof event.assistantMessage === "string" ? event.assistantMessage : "";
    const message = await session.messageEvents(assistantMessage([{ type: "text", text }], "stop"));
    const continuation = await session.turnEndBoundary(message, probe);
    if (continuation !== null) {
      if (continuation !== "" && !event.continue) event.continue = continuation;
      return undefined;
    }
    await session.emit({ type: "agent_end", messages: [message] });
    await session.emit({ type: "agent_settled", aborted: false });
    return undefined;
  },
};

/** Where the turn's prompt is: the last user item of the input, or -1. */
function lastUserIndex(input) {
  for (let index = input.length - 1; index >= 0; index--) {
    if (input[index] && input[index].role === "user") return index;
  }
  return -1;
}

/** The lines of `after` that `before` does not have (each line of `before` used once). */
export function addedLines(before, after) {
  if (before === after) return "";
  const left = new Map();
  for (const line of before.split("\n")) left.set(line, (left.get(line) ?? 0) + 1);
  const added = [];
  for (const line of after.split("\n")) {
    const count = left.get(line) ?? 0;
    if (count > 0) left.set(line, count - 1);
    else added.push(line);
  }
  return added.join("\n").trim();
}

/** The registration a core emission runs for the loaded Pi extension: its stage, as one step. */
export function piRegistrations(host, core) {
  const session = host.pi;
  const route = ROUTES[core];
  if (!route || !session?.current) return [];
  const owner = session.current.owner;
  return [{ name: core, owner, handler: (event) => session.probing((probe) => route(session, event, probe)) }];
}
