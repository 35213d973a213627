#!/usr/bin/env bun
// Differential judge: runs a modlearn `pi` spec against a Pi extension in the REAL Pi runtime
// (@earendil-works/pi-coding-agent, an npm install found through PI_CODING_AGENT_DIR), and
// prints one verdict per assertion, or why it was not compared:
//
//   PI_CODING_AGENT_DIR=/work/pi16-runtime bun scripts/pi-diff/judge.mjs <spec.json> <extension.ts|js>
//
// {"piVersion", "scenarios": [{"name", "assertions": [{"type", "passed": bool|null, "message", "skipped"?}]}]}
//
// Each probe runs a whole turn of a real session (the scripted model calls the probed tool, or
// answers), with the handlers of the events outside the probe's stage set aside for its duration
// (crates/modlearn-engine/js/pi/stages.js says which events each stage runs). What a check reads
// is what reached the provider: the requests Pi's Anthropic provider sent to the loopback model.
import * as fs from "node:fs";
import * as path from "node:path";
import { TOOL_CALL_ID, createPiSession, deepEqual, loadPi, textOf } from "./pi-harness.mjs";
import { MODEL_TEXT, PROBE_PROMPT, STAGE_EVENTS } from "../../crates/modlearn-engine/js/pi/stages.js";

const [specPath, extPath] = process.argv.slice(2);
if (!specPath || !extPath) {
  process.stderr.write("usage: bun scripts/pi-diff/judge.mjs <spec.json> <extension.ts|js>\n");
  process.exit(2);
}

// Stdout carries the verdicts only: Pi and extensions may print.
const writeOut = process.stdout.write.bind(process.stdout);
console.log = (...a) => console.error(...a);
console.info = (...a) => console.error(...a);

const DEFAULT_INPUT = [{ type: "message", role: "user", content: "Install a Python package." }];
const asList = (v) => (v == null ? [] : Array.isArray(v) ? v : [v]);
const j = (v) => JSON.stringify(v);

function checkText(text, contains, notContains) {
  const missing = asList(contains).filter((c) => !text.includes(String(c)));
  const present = asList(notContains).filter((c) => text.includes(String(c)));
  const problems = [];
  if (missing.length) problems.push(`missing ${j(missing)}`);
  if (present.length) problems.push(`unexpectedly contains ${j(present)}`);
  return problems;
}

// ---- what the extension leaves running: timers it made, errors thrown where nothing catches ----

const extFile = path.resolve(extPath);
// The extension's pending timers, each numbered as made, so a session counts only its own.
const timers = new Map();
let timersMade = 0;
const timersSince = (from) => [...timers.values()].filter((timer) => timer.seq >= from).length;
const wrapTimer = (set, clear, kind) => {
  const made = (callback, ms, ...rest) => {
    const mine = (new Error().stack ?? "").includes(path.basename(extFile));
    const handle = set((...args) => {
      if (kind === "timeout") timers.delete(handle);
      return callback(...args);
    }, ms, ...rest);
    if (mine) timers.set(handle, { kind, ms, seq: timersMade++ });
    return handle;
  };
  const cleared = (handle) => (timers.delete(handle), clear(handle));
  return [made, cleared];
};
[globalThis.setTimeout, globalThis.clearTimeout] = wrapTimer(globalThis.setTimeout.bind(globalThis), globalThis.clearTimeout.bind(globalThis), "timeout");
[globalThis.setInterval, globalThis.clearInterval] = wrapTimer(globalThis.setInterval.bind(globalThis), globalThis.clearInterval.bind(globalThis), "interval");
// Globals an extension adds, weighed by the entries they hold all the way down: state kept on
// globalThis outlives a reload, which imports the module afresh.
const globalsAtStart = new Set(Reflect.ownKeys(globalThis));
function weigh(value, seen = new Set()) {
  if (value === null || (typeof value !== "object" && typeof value !== "function") || seen.has(value)) return 0;
  seen.add(value);
  let entries = 0;
  if (value instanceof Map || value instanceof Set) for (const item of value.entries()) entries += 1 + weigh(item[0], seen) + weigh(item[1], seen);
  else for (const key of Object.keys(value)) entries += 1 + weigh(value[key], seen);
  return entries;
}
function addedGlobals() {
  const added = {};
  for (const key of Reflect.ownKeys(globalThis)) if (!globalsAtStart.has(key) && typeof key === "string") added[key] = weigh(globalThis[key]);
  return added;
}
const uncaught = [];
process.on("uncaughtException", (error) => uncaught.push(String(error?.message ?? error)));
process.on("unhandledRejection", (error) => uncaught.push(String(error?.message ?? error)));

// ---- stages ----

/** Runs `fn` with the extension's handlers of events outside `stage` set aside (see stages.js). */
async function inStage(h, stage, fn) {
  const extension = h.runner.extensions[0];
  if (!extension) return fn();
  const keep = new Set(STAGE_EVENTS[stage]);
  const aside = [];
  for (const [event, handlers] of extension.handlers) {
    if (!keep.has(event)) aside.push([event, handlers]);
  }
  for (const [event] of aside) extension.handlers.delete(event);
  try {
    return await fn();
  } finally {
    for (const [event, handlers] of aside) extension.handlers.set(event, [...handlers, ...(extension.handlers.get(event) ?? [])]);
  }
}

/** Observes a runner method (call-through): what it was called with, what it returned or threw. */
function observe(h, method) {
  const runner = h.runner;
  const log = [];
  const original = runner[method];
  runner[method] = async (...args) => {
    const entry = { dialogsFrom: h.dialogs.length };
    log.push(entry);
    try {
      entry.result = await original.apply(runner, args);
      return entry.result;
    } catch (error) {
      entry.threw = error instanceof Error ? error.message : String(error);
      throw error;
    } finally {
      entry.dialogsTo = h.dialogs.length;
    }
  };
  return { log, restore: () => (runner[method] = original) };
}

/** The tool `name` of the session, its body replaced by `execute` for one probe. */
function replaceBody(h, name, execute) {
  const tools = [h.session._toolRegistry?.get(name), ...h.session.agent.state.tools.filter((t) => t.name === name)].filter(Boolean);
  const originals = tools.map((tool) => [tool, tool.execute]);
  for (const tool of tools) tool.execute = execute;
  return () => {
    for (const [tool, original] of originals) tool.execute = original;
  };
}

/** The tool_result block the provider got for the probe's call, across the requests since `from`. */
function deliveredResult(h, from) {
  // Every request carries the whole conversation, earlier probes' calls included: the last one counts.
  for (const request of h.model.requests.slice(from).reverse()) {
    for (const message of [...(request.messages ?? [])].reverse()) {
      for (const block of Array.isArray(message.content) ? [...message.content].reverse() : []) {
        if (block.type === "tool_result" && block.tool_use_id === TOOL_CALL_ID) {
          const text = typeof block.content === "string" ? block.content : textOf(block.content);
          return { text, isError: block.is_error === true };
        }
      }
    }
  }
  return null;
}

/** A turn in which the model calls `toolName(args)`, then answers; what happened at the gate and after. */
async function toolTurn(h, stage, toolName, args, body) {
  const seen = { ran: false, args: undefined };
  const restoreBody = replaceBody(h, toolName, async (_id, params) => {
    seen.ran = true;
    seen.args = structuredClone(params);
    return body();
  });
  const gate = observe(h, "emitToolCall");
  const from = h.model.requests.length;
  h.model.plan.push({ toolCall: { id: TOOL_CALL_ID, name: toolName, arguments: structuredClone(args ?? {}) } }, { text: MODEL_TEXT });
  try {
    await inStage(h, stage, () => h.session.prompt(PROBE_PROMPT));
  } finally {
    gate.restore();
    restoreBody();
    h.model.plan.length = 0;
  }
  const dispatched = gate.log.length > 0;
  const gateDialogs = dispatched ? h.dialogs.slice(gate.log[0].dialogsFrom, gate.log[0].dialogsTo) : [];
  return { ...seen, dispatched, gateDialogs, delivered: deliveredResult(h, from) };
}

/** The outcome of a gate probe in modlearn's vocabulary: `args` it ran with, or `result`/`refused`. */
async function gateProbe(h, a) {
  const turn = await toolTurn(h, "tool_start", a.toolName, a.args, () => ({ content: [{ type: "text", text: "" }], details: undefined }));
  const outcome = { turn };
  if (turn.gateDialogs.length > 0) outcome.approval = approvalOf(turn.gateDialogs);
  if (turn.ran) outcome.args = turn.args;
  else if (turn.dispatched) outcome.result = { status: "error", output: turn.delivered?.text ?? "" };
  else outcome.refused = turn.delivered?.text ?? "(no result reached the model)";
  return outcome;
}

function approvalOf(dialogs) {
  let granted = true;
  for (const dialog of dialogs) {
    const said = dialog.assents === undefined ? null : dialog.assents === true;
    const answer = dialog.kind === "confirm" ? dialog.answer === true : dialog.answer === undefined ? false : said;
    granted = granted === false || answer === false ? false : granted === null || answer === null ? null : true;
  }
  const first = dialogs[0];
  const reason = [first.title, first.kind === "select" ? undefined : first.detail].filter((p) => typeof p === "string" && p !== "").join(": ");
  return { reason, granted };
}

/** The outcome of a result probe: what the model got for a call that ended with `status` and `output`. */
async function resultProbe(h, a) {
  const failed = a.status === "error";
  const output = String(a.output ?? "");
  const turn = await toolTurn(h, "tool_end", a.toolName, a.args, () => {
    if (failed) throw new Error(output);
    return { content: [{ type: "text", text: output }], details: undefined };
  });
  if (!turn.ran) return { refused: turn.delivered?.text ?? "(no result reached the model)" };
  const delivered = turn.delivered;
  if (!delivered) return { decision: "block", seen: { status: "error", output: "" }, note: "the result never reached the provider" };
  if (delivered.text === output && delivered.isError === failed) return { decision: "accept", seen: { status: a.status ?? "success", output } };
  const seen = { status: delivered.isError ? "error" : "success", output: delivered.text };
  return { decision: delivered.isError && !failed ? "block" : "replace", seen };
}

/** The system prompt a request carried, as text. */
function systemText(request) {
  const system = request?.system;
  return typeof system === "string" ? system : asList(system).map((b) => b.text ?? "").join("");
}

function addedLines(before, after) {
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

/** The text of a provider message's user-side content. */
function messageText(message) {
  return typeof message.content === "string" ? message.content : textOf(message.content);
}

/** A turn from `input` (its last user item is the prompt): what the model was given beyond the prompt. */
async function turnProbe(h, input) {
  const { systemPrompt } = await loadPi();
  const items = asList(input ?? DEFAULT_INPUT);
  const users = items.filter((i) => i && i.role === "user");
  const last = users.at(-1);
  const prompt = last === undefined ? "" : typeof last.content === "string" ? last.content : textOf(last.content);
  const base = systemPrompt.buildSystemPrompt(h.session._baseSystemPromptOptions);
  const from = h.model.requests.length;
  h.model.plan.push({ text: MODEL_TEXT });
  try {
    await inStage(h, "turn_start", () => h.session.prompt(prompt));
  } finally {
    h.model.plan.length = 0;
  }
  const request = h.model.requests[from];
  if (!request) return { cancelled: true };
  const messages = request.messages ?? [];
  // The turn's prompt: the last user message that is the prompt as given (an input handler that
  // rewrote it leaves none). What follows it on the user side was added to the turn.
  let promptAt = -1;
  for (let i = messages.length - 1; i >= 0 && promptAt < 0; i--) {
    const first = Array.isArray(messages[i].content) ? messages[i].content[0] : undefined;
    if (messages[i].role === "user" && first?.type === "text" && first.text === prompt) promptAt = i;
  }
  const injected = promptAt < 0 ? [] : messages.slice(promptAt + 1).filter((m) => m.role === "user").map(messageText);
  return { cancelled: false, promptKept: promptAt >= 0, injected, system: addedLines(base, systemText(request)) };
}

/** A turn that ends with `text`: what the next request added when the run went on. */
async function turnEndProbe(h, text) {
  const from = h.model.requests.length;
  h.model.plan.push({ text: text ?? "" }, { text: MODEL_TEXT });
  try {
    await inStage(h, "turn_end", () => h.session.prompt(PROBE_PROMPT));
  } finally {
    h.model.plan.length = 0;
  }
  const [first, second] = h.model.requests.slice(from);
  if (!second) return { continued: false };
  const known = (first.messages ?? []).length + 1;
  const added = (second.messages ?? []).slice(known).filter((m) => m.role === "user").map(messageText);
  return { continued: true, text: added.join("\n") };
}

// ---- the checks, in modlearn's readings ----

function gateFailure(outcome) {
  if (outcome.refused !== undefined) return `Pi refused the call before any tool_call handler saw it: ${j(outcome.refused)}`;
  if (outcome.result) return `the call is blocked, so the tool never runs: ${j(outcome.result.output)}`;
  return null;
}

const judges = {
  async tool_start_blocks(a, h) {
    const o = await gateProbe(h, a);
    if (o.refused !== undefined) return { passed: false, message: gateFailure(o) };
    if (!o.result) return { passed: false, message: `not blocked: the tool ran with ${j(o.args)}` };
    if (a.status && a.status !== "error") return { passed: false, message: `blocked with an error, expected ${a.status}` };
    const problems = checkText(o.result.output, a.contains);
    return { passed: problems.length === 0, message: `blocked: ${j(o.result.output)}${problems.length ? `; ${problems.join("; ")}` : ""}` };
  },

  async asks_approval(a, h) {
    const o = await gateProbe(h, a);
    if (o.refused !== undefined) return { passed: false, message: gateFailure(o) };
    if (!o.approval) return { passed: false, message: o.result ? `decided without asking: ${j(o.result.output)}` : "went ahead without asking" };
    const stopped = o.result !== undefined;
    if (o.approval.granted === false && !stopped) return { passed: false, message: `asked (${o.approval.reason}), but the call went ahead without a yes` };
    if (o.approval.granted === true && stopped) return { passed: false, message: `asked (${o.approval.reason}), but the call was stopped though the answer was yes` };
    if (o.approval.granted === null) return { passed: false, message: `asked (${o.approval.reason}), but the answer says neither yes nor no` };
    const problems = checkText(o.approval.reason, a.reasonContains);
    return { passed: problems.length === 0, message: `asked: ${j(o.approval.reason)}${problems.length ? `; ${problems.join("; ")}` : ""}` };
  },

  async tool_start_rewrites_args(a, h) {
    const o = await gateProbe(h, a);
    const failure = gateFailure(o);
    if (failure) return { passed: false, message: failure };
    const expect = a.expectArgs ?? {};
    const bad = Object.keys(expect).filter((k) => !deepEqual(o.args?.[k], expect[k]));
    return { passed: bad.length === 0, message: `the tool ran with ${j(o.args)}${bad.length ? `; mismatched ${j(bad)}` : ""}` };
  },

  async tool_start_preserves_args(a, h) {
    const o = await gateProbe(h, a);
    const failure = gateFailure(o);
    if (failure) return { passed: false, message: failure };
    const same = deepEqual(o.args, a.args ?? {});
    return { passed: same, message: same ? `the tool ran with ${j(o.args)}` : `args changed to ${j(o.args)}` };
  },

  async tool_end_rewrites_result(a, h) {
    const o = await resultProbe(h, a);
    if (o.refused !== undefined) return { passed: false, message: `Pi refused the call: ${j(o.refused)}` };
    if (o.decision === "accept") return { passed: false, message: "the result reached the model as the tool left it" };
    const problems = [];
    if (a.expectStatus && a.expectStatus !== o.seen.status) problems.push(`status ${o.seen.status}, expected ${a.expectStatus}`);
    problems.push(...checkText(o.seen.output, a.contains, a.notContains));
    return { passed: problems.length === 0, message: `the model got ${o.seen.status} ${j(o.seen.output)}${o.note ? ` (${o.note})` : ""}${problems.length ? `; ${problems.join("; ")}` : ""}` };
  },

  async post_execute_decides(a, h) {
    const o = await resultProbe(h, a);
    if (o.refused !== undefined) return { passed: false, message: `Pi refused the call: ${j(o.refused)}` };
    const problems = [];
    if (o.decision !== a.decision) problems.push(`decision ${o.decision}, expected ${a.decision}`);
    problems.push(...checkText(o.seen.output, a.contains, a.notContains));
    return { passed: problems.length === 0, message: `${o.decision}: ${j(o.seen.output)}${problems.length ? `; ${problems.join("; ")}` : ""}` };
  },

  async turn_start_injects_message(a, h) {
    const o = await turnProbe(h, a.input);
    if (o.cancelled) return { passed: false, message: "the turn never reached the model (an input handler handled it)" };
    const role = a.role ?? "system";
    const text = role === "system" ? o.system : o.injected.join("\n");
    if (text === "") return { passed: false, message: `no ${role} message was added` };
    const problems = checkText(text, a.contains, a.notContains);
    if (!o.promptKept) problems.push("the prompt was changed");
    return { passed: problems.length === 0, message: `${role} added ${j(text)}${problems.length ? `; ${problems.join("; ")}` : ""}` };
  },

  async turn_start_cancels(a, h) {
    const o = await turnProbe(h, a.input);
    return { passed: o.cancelled, message: o.cancelled ? "an input handler handled the prompt; the model was not asked" : "the model was asked" };
  },

  async turn_end_continues(a, h) {
    const o = await turnEndProbe(h, a.assistantMessage);
    if (!o.continued) return { passed: false, message: "the run ended with the turn" };
    if (o.text === "") return { passed: false, message: "the run went on with nothing new for the model" };
    const problems = checkText(o.text, a.contains);
    return { passed: problems.length === 0, message: `continued with ${j(o.text)}${problems.length ? `; ${problems.join("; ")}` : ""}` };
  },

  async mod_loads(a, h) {
    const { extensions, errors } = h.loadResult;
    const startErrors = h.errorsAtLoad;
    const count = extensions.length;
    const expected = a.expectedLoadedCount;
    const problems = [...errors.map((e) => e.error), ...startErrors.map((e) => `${e.event}: ${e.error}`)];
    const countOk = expected == null ? count >= 1 : count === expected;
    return { passed: problems.length === 0 && countOk, message: `loaded ${count}${problems.length ? `; errors ${j(problems)}` : ""}` };
  },

  async tool_registered(a, h) {
    const definition = h.runner.getToolDefinition(a.toolName);
    return { passed: !!definition, message: definition ? `tool ${a.toolName} registered` : `no tool ${a.toolName}` };
  },

  async tool_run_returns(a, h) {
    const { agentCore } = await loadPi();
    if (!h.runner.getToolDefinition(a.toolName)) return { passed: false, message: `no tool ${a.toolName} registered` };
    const tool = h.session._toolRegistry.get(a.toolName);
    const call = { type: "toolCall", id: TOOL_CALL_ID, name: a.toolName, arguments: structuredClone(a.args ?? {}) };
    const finished = await agentCore.runToolCall(call, { tools: [tool], assistantMessage: { role: "assistant", content: [call] }, context: { messages: [], tools: [tool] }, signal: new AbortController().signal });
    const status = finished.isError ? "error" : "success";
    const output = textOf(finished.result?.content);
    const problems = [];
    if (a.status && a.status !== status) problems.push(`status ${status}, expected ${a.status}`);
    if (a.equals !== undefined && output !== a.equals) problems.push("output differs");
    problems.push(...checkText(output, a.contains, a.notContains));
    return { passed: problems.length === 0, message: `${status}: ${j(output)}${problems.length ? `; ${problems.join("; ")}` : ""}` };
  },

  async command_registered(a, h) {
    const name = String(a.command ?? "").replace(/^\//, "");
    const command = h.runner.getCommand(name);
    const problems = command ? checkText(command.description ?? "", a.description) : ["not registered"];
    return { passed: problems.length === 0, message: command ? `command /${name}` : `no command /${name}` };
  },

  async command_runs(a, h) {
    const name = String(a.command ?? "").replace(/^\//, "");
    if (!h.runner.getCommand(name)) return { passed: false, message: `no command /${name}` };
    const errorsBefore = h.errors.length;
    const notesBefore = h.notes.length;
    const sent = [];
    const original = h.session.sendUserMessage.bind(h.session);
    h.session.sendUserMessage = async (content) => void sent.push(typeof content === "string" ? content : textOf(content));
    try {
      await h.session.prompt(`/${name}${a.args ? ` ${a.args}` : ""}`);
    } finally {
      h.session.sendUserMessage = original;
    }
    const failed = h.errors.slice(errorsBefore).find((e) => e.event === "command");
    if (failed) return { passed: false, message: `the command failed: ${failed.error}` };
    const result = sent.length > 0 ? { type: "prompt", text: sent.join("\n") } : h.notes.length > notesBefore ? { type: "output", text: h.notes.slice(notesBefore).join("\n") } : { type: "handled", text: "" };
    const problems = [];
    if (a.resultType && a.resultType !== result.type) problems.push(`result ${result.type}, expected ${a.resultType}`);
    problems.push(...checkText(result.text, a.contains));
    return { passed: problems.length === 0, message: `${result.type}: ${j(result.text)}${problems.length ? `; ${problems.join("; ")}` : ""}` };
  },

  async reload_idempotent(a, _h, scenario) {
    const h = await openSession(scenario);
    try {
      if (h.loadResult.errors.length > 0) return { passed: false, message: `the extension did not load: ${j(h.loadResult.errors)}` };
      const cycles = [];
      for (let i = 0; i < Math.max(1, a.cycles ?? 3); i++) {
        if (i > 0) await h.session.reload();
        const errorsBefore = h.errors.length;
        const steps = [];
        for (const step of a.steps ?? []) steps.push(await runStep(h, step));
        cycles.push({ registrations: registrations(h), steps, errors: h.errors.length - errorsBefore, timers: timersSince(h.timersFrom), listeners: h.counter.total(), globals: addedGlobals() });
      }
      const key = (c) => j({ r: c.registrations, s: c.steps, l: c.listeners, g: c.globals });
      const first = cycles[0];
      const differs = cycles.findIndex((c) => key(c) !== key(first) || c.errors > first.errors || c.timers > first.timers);
      return { passed: differs < 0, message: differs < 0 ? `${cycles.length} cycles alike: ${j(first.registrations)}` : `cycle ${differs + 1} differs: ${j(cycles[differs])} against ${j(first)}` };
    } finally {
      await h.dispose();
    }
  },

  async disposes_cleanly(a, _h, scenario) {
    const h = await openSession(scenario);
    try {
      if (h.loadResult.errors.length > 0) return { passed: false, message: `the extension did not load: ${j(h.loadResult.errors)}` };
      for (const step of a.steps ?? []) await runStep(h, step);
      const errorsBefore = h.errors.length;
      const uncaughtBefore = uncaught.length;
      await h.session.extensionRunner.emit({ type: "session_shutdown", reason: "quit" });
      h.shutDown = true;
      h.session.dispose();
      const shutdownFailed = h.errors.length > errorsBefore;
      // The host's clock after a dispose: what the extension left scheduled still fires.
      await new Promise((resolve) => setTimeout(resolve, Math.min(a.settleMs ?? 60000, 200)));
      const leaks = [];
      if (shutdownFailed) leaks.push(`session_shutdown failed: ${j(h.errors.slice(errorsBefore))}`);
      const pending = timersSince(h.timersFrom);
      if (pending > 0) leaks.push(`${pending} timer(s) still scheduled`);
      if (h.counter.total() > 0) leaks.push(`${h.counter.total()} pi.events subscription(s) ${j(h.counter.counts())}`);
      if (uncaught.length > uncaughtBefore) leaks.push(`code still ran after dispose: ${uncaught.slice(uncaughtBefore)[0]}`);
      return { passed: leaks.length === 0, message: leaks.length ? `leaked: ${leaks.join("; ")}` : "nothing remained after dispose" };
    } finally {
      await h.dispose();
    }
  },
};

/** What a session's registry holds: handler counts per event, tools, commands. */
function registrations(h) {
  const events = {};
  for (const extension of h.runner.extensions) for (const [event, list] of extension.handlers) if (list.length > 0) events[event] = (events[event] ?? 0) + list.length;
  return { events, tools: h.runner.getAllRegisteredTools().map((t) => t.definition.name).sort(), commands: h.runner.getRegisteredCommands().map((c) => c.invocationName).sort() };
}

/** One lifecycle step (`emit`, `runTool`, `runCommand`), summarised for comparison across cycles. */
async function runStep(h, step) {
  if (step.emit === "tool_start") return j(await gateProbe(h, { toolName: step.payload?.toolName, args: step.payload?.args }).then(({ turn, ...o }) => o));
  if (step.emit === "tool_end") return j(await resultProbe(h, { toolName: step.payload?.toolName, args: step.payload?.args, status: step.payload?.status, output: step.payload?.output }));
  if (step.emit === "turn_start") return j(await turnProbe(h, step.payload?.input));
  if (step.emit === "turn_end") return j(await turnEndProbe(h, step.payload?.assistantMessage));
  if (step.runTool) return j(await judges.tool_run_returns({ toolName: step.runTool, args: step.args }, h));
  if (step.runCommand) return j(await judges.command_runs({ command: step.runCommand, args: step.args }, h));
  return "(a step Pi has no equivalent for)";
}

async function openSession(scenario) {
  const timersFrom = timersMade;
  const h = await createPiSession(extFile, { ui: scenario.ui, modelText: MODEL_TEXT });
  h.timersFrom = timersFrom;
  await h.bind();
  h.errorsAtLoad = [...h.errors];
  // The session ends as Pi's does on exit, and whatever the extension left running stops with it,
  // so no scenario sees another's.
  const dispose = h.dispose;
  h.dispose = async () => {
    if (!h.shutDown && h.session.extensionRunner?.hasHandlers("session_shutdown")) await h.session.extensionRunner.emit({ type: "session_shutdown", reason: "quit" }).catch(() => undefined);
    await dispose();
    for (const [handle, timer] of timers) if (timer.seq >= timersFrom) (timer.kind === "interval" ? clearInterval : clearTimeout)(handle), timers.delete(handle);
  };
  return h;
}

/** Assertions the real Pi cannot judge, with why: skipped, never compared. */
const NOT_IN_PI = {
  writes_file: "the engine's virtual machine, not Pi's, decides what was written",
  runs_command: "the engine's virtual machine, not Pi's, decides what ran",
  keeps_files: "the engine's virtual machine, not Pi's, decides what was kept",
  deterministic: "reruns under another seed or clock are modlearn's own probe",
  isolated_conversations: "conversations interleaved in one engine are modlearn's own probe",
};

async function main() {
  const spec = JSON.parse(fs.readFileSync(specPath, "utf8"));
  const { version } = await loadPi();
  const out = { piVersion: version, scenarios: [] };
  for (const scenario of spec.evaluation?.scenarios ?? []) {
    const entry = { name: scenario.name, assertions: [] };
    out.scenarios.push(entry);
    if (scenario.script || scenario.prompt) {
      entry.skipped = "a scripted or prompted session is modlearn's own agent, which Pi does not have";
      continue;
    }
    const ui = scenario.ui ?? spec.evaluation?.ui;
    let h = null;
    try {
      h = await openSession({ ui });
      for (const a of scenario.assertions ?? []) {
        if (NOT_IN_PI[a.type]) {
          entry.assertions.push({ type: a.type, passed: null, message: "not compared", skipped: NOT_IN_PI[a.type] });
          continue;
        }
        const judge = judges[a.type];
        if (!judge) {
          entry.assertions.push({ type: a.type, passed: null, message: "not compared", skipped: "no Pi reading of this assertion" });
          continue;
        }
        try {
          const r = await judge(a, h, { ui });
          entry.assertions.push({ type: a.type, passed: r.passed, message: r.message });
        } catch (error) {
          entry.assertions.push({ type: a.type, passed: false, message: `judge error: ${error?.stack ?? error}` });
        }
      }
    } finally {
      await h?.dispose();
    }
  }
  writeOut(`${JSON.stringify(out, null, 2)}\n`);
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`pi-diff judge failed: ${error?.stack ?? error}\n`);
    process.exit(1);
  },
);
