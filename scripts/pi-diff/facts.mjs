#!/usr/bin/env bun
// Measures the behaviours listed in README.md "FACTS" with the real Pi runtime.
//   PI_CODING_AGENT_DIR=/work/pi-runtime bun scripts/pi-diff/facts.mjs > facts.json
// Probe extensions are written to a temp dir; every observation comes from
// running Pi's own loader / ExtensionRunner / AgentSession / agent loop.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createPiSession, loadPi, textOf, CALL_ID, BASE_SYSTEM_PROMPT } from "./pi-harness.mjs";

const realOut = process.stdout.write.bind(process.stdout);
const logged = [];
console.log = (...a) => { logged.push(a.map(String).join(" ")); };
console.warn = (...a) => { logged.push("warn: " + a.map(String).join(" ")); };
console.error = (...a) => { logged.push("error: " + a.map((x) => (x instanceof Error ? `Error(${x.message})` : String(x))).join(" ")); };

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pi-diff-facts-"));
let n = 0;
function ext(src, name) {
  const p = path.join(dir, `${name ?? "probe" + ++n}.ts`);
  fs.writeFileSync(p, src);
  return p;
}
const G = "globalThis.__f"; // shared scratch object: (globalThis.__f ??= {})
const pre = `const F = (globalThis.__f ??= {});\n`;
const facts = {};
const { pi, version } = await loadPi();
facts.piVersion = version;

async function toolCallCase(src, toolName, args, { record = true, paths } = {}) {
  globalThis.__f = {};
  const h = await createPiSession(paths ?? ext(pre + src));
  await h.bind();
  const rec = record ? h.recordTool(toolName) : { called: "not recorded" };
  const tr = await h.promptToolCall(toolName, args);
  const out = {
    loadErrors: h.loadResult.errors.map((e) => e.error),
    toolExecuted: rec.called, executedArgs: rec.args,
    modelSees: tr ? { content: tr.content, isError: tr.isError, details: tr.details } : null,
    runnerErrors: h.errors, scratch: structuredClone(globalThis.__f),
  };
  await h.dispose();
  return out;
}

// ---------------- a. tool_call ----------------
facts.a = {};
facts.a.blockWithReason = await toolCallCase(`export default (pi) => pi.on("tool_call", () => ({ block: true, reason: "nope: protected" }));`, "bash", { command: "ls" });
facts.a.blockNoReason = await toolCallCase(`export default (pi) => pi.on("tool_call", () => ({ block: true }));`, "bash", { command: "ls" });
facts.a.blockEmptyReason = await toolCallCase(`export default (pi) => pi.on("tool_call", () => ({ block: true, reason: "" }));`, "bash", { command: "ls" });
facts.a.blockFalseWithReason = await toolCallCase(`export default (pi) => pi.on("tool_call", () => ({ block: false, reason: "ignored" }));`, "bash", { command: "ls" });
facts.a.throwError = await toolCallCase(`export default (pi) => { pi.on("tool_call", () => { throw new Error("gate exploded"); }); pi.on("tool_call", () => { F.second = (F.second ?? 0) + 1; }); };`, "bash", { command: "ls" });
facts.a.throwString = await toolCallCase(`export default (pi) => pi.on("tool_call", () => { throw "boom"; });`, "bash", { command: "ls" });
facts.a.laterHandlersAfterBlockSameExt = await toolCallCase(`export default (pi) => { pi.on("tool_call", () => ({ block: true, reason: "first" })); pi.on("tool_call", () => { F.second = true; return { block: true, reason: "second" }; }); };`, "bash", { command: "ls" });
{
  const p1 = ext(pre + `export default (pi) => pi.on("tool_call", () => { F.ext1 = true; return { block: true, reason: "ext1" }; });`, "order1");
  const p2 = ext(pre + `export default (pi) => pi.on("tool_call", () => { F.ext2 = true; });`, "order2");
  facts.a.laterExtensionsAfterBlock = await toolCallCase("", "bash", { command: "ls" }, { paths: [p1, p2] });
}
facts.a.nonBlockResultThenBlock = await toolCallCase(`export default (pi) => { pi.on("tool_call", () => ({ reason: "just a note" })); pi.on("tool_call", () => ({ block: true, reason: "second blocks" })); };`, "bash", { command: "ls" });
facts.a.inPlaceEdit = await toolCallCase(`export default (pi) => pi.on("tool_call", (e) => { e.input.command = "echo rewritten"; e.input.timeout = 5; });`, "bash", { command: "ls" });
facts.a.reassignInput = await toolCallCase(`export default (pi) => pi.on("tool_call", (e) => { e.input = { command: "echo reassigned" }; });`, "bash", { command: "ls" });
facts.a.returnInput = await toolCallCase(`export default (pi) => pi.on("tool_call", (e) => ({ input: { command: "echo returned" } }));`, "bash", { command: "ls" });
facts.a.payloadAndCtx = await toolCallCase(`export default (pi) => pi.on("tool_call", (e, ctx) => { F.eventKeys = Object.keys(e); F.event = e; F.ctxKeys = Object.keys(ctx); F.hasUI = ctx.hasUI; F.cwdIsString = typeof ctx.cwd; });`, "bash", { command: "ls", timeout: "7" });
facts.a.invalidArgsSkipHandlers = await toolCallCase(`export default (pi) => pi.on("tool_call", () => { F.ran = true; });`, "bash", { cmd: "ls" });
facts.a.unknownToolSkipsHandlers = await toolCallCase(`export default (pi) => pi.on("tool_call", () => { F.ran = true; });`, "no_such_tool", { x: 1 }, { record: false });

// ---------------- b. tool_result ----------------
facts.b = {};
async function toolResultCase(src, { fail = false, output = "out sk-1" } = {}) {
  globalThis.__f = {};
  const h = await createPiSession(ext(pre + src));
  await h.bind();
  h.recordTool("bash", { output, fail });
  const runner = h.runner;
  const orig = runner.emitToolResult.bind(runner);
  let runnerReturned = "not called";
  runner.emitToolResult = async (e) => { F_in.push(structuredClone(e)); runnerReturned = await orig(e); return runnerReturned; };
  const F_in = [];
  const tr = await h.promptToolCall("bash", { command: "ls" });
  const out = {
    eventIn: F_in[0], runnerReturned,
    modelSees: { content: tr.content, isError: tr.isError, details: tr.details },
    runnerErrors: h.errors, scratch: structuredClone(globalThis.__f),
  };
  await h.dispose();
  return out;
}
facts.b.chain = await toolResultCase(`export default (pi) => {
  pi.on("tool_result", (e) => { F.h1saw = structuredClone(e.content); return { content: [{ type: "text", text: "h1" }], details: { by: "h1" } }; });
  pi.on("tool_result", (e) => { F.h2saw = { content: structuredClone(e.content), details: e.details, isError: e.isError }; return { details: { by: "h2" } }; });
  pi.on("tool_result", (e) => { F.h3saw = { content: structuredClone(e.content), details: e.details }; });
};`);
facts.b.throwContinues = await toolResultCase(`export default (pi) => {
  pi.on("tool_result", () => { throw new Error("result handler exploded"); });
  pi.on("tool_result", (e) => ({ content: [{ type: "text", text: "after throw" }] }));
};`);
facts.b.setIsErrorOnSuccess = await toolResultCase(`export default (pi) => pi.on("tool_result", () => ({ isError: true, content: [{ type: "text", text: "flagged" }] }));`);
facts.b.patchOnErroredTool = await toolResultCase(`export default (pi) => pi.on("tool_result", (e) => { F.sawIsError = e.isError; F.sawDetails = e.details; return { content: [{ type: "text", text: "patched error" }], isError: false }; });`, { fail: true, output: "tool failed" });
facts.b.noPatch = await toolResultCase(`export default (pi) => pi.on("tool_result", () => undefined);`);

// ---------------- c. before_agent_start ----------------
facts.c = {};
async function promptCase(src, promptText = "Install a Python package.", { paths, base = BASE_SYSTEM_PROMPT } = {}) {
  globalThis.__f = {};
  const h = await createPiSession(paths ?? ext(pre + src));
  await h.bind();
  if (base !== null) h.session._baseSystemPrompt = base;
  const realBase = h.session._baseSystemPrompt;
  const before = h.llmCalls.length;
  const stateBefore = h.session.agent.state.messages.length;
  await h.session.prompt(promptText);
  const call = h.llmCalls[before];
  const out = {
    llmCalled: !!call,
    systemPromptSeenByModel: call?.systemPrompt,
    llmMessages: call?.messages.map((m) => ({ role: m.role, content: m.content })),
    agentStateNewMessages: h.session.agent.state.messages.slice(stateBefore).filter((m) => m.role !== "assistant").map((m) => { const { timestamp, ...rest } = m; return rest; }),
    runnerErrors: h.errors, scratch: structuredClone(globalThis.__f),
    realBasePromptStart: base === null ? realBase.slice(0, 120) : undefined,
  };
  await h.dispose();
  return out;
}
facts.c.payload = await promptCase(`export default (pi) => pi.on("before_agent_start", (e, ctx) => { F.keys = Object.keys(e); F.event = { ...e, images: e.images === undefined ? "undefined" : e.images }; });`);
facts.c.systemPromptChain = await promptCase(`export default (pi) => {
  pi.on("before_agent_start", (e) => ({ systemPrompt: e.systemPrompt + " [A]" }));
  pi.on("before_agent_start", (e) => { F.secondSaw = e.systemPrompt; return { systemPrompt: e.systemPrompt + " [B]" }; });
  pi.on("before_agent_start", (e) => { F.thirdSaw = e.systemPrompt; });
};`);
facts.c.emptySystemPrompt = await promptCase(`export default (pi) => pi.on("before_agent_start", () => ({ systemPrompt: "" }));`);
facts.c.messages = await promptCase(`export default (pi) => {
  pi.on("before_agent_start", () => ({ message: { customType: "reminder", content: "string content reminder", display: false } }));
  pi.on("before_agent_start", () => ({ message: { customType: "rich", content: [{ type: "text", text: "array content reminder" }], display: true, details: { k: 1 } } }));
  pi.on("before_agent_start", () => { throw new Error("bas exploded"); });
  pi.on("before_agent_start", () => ({ messages: [{ customType: "plural", content: "plural key is ignored" }] }));
};`);
facts.c.realBasePrompt = await promptCase(`export default (pi) => pi.on("before_agent_start", (e) => { F.baseLen = e.systemPrompt.length; });`, "hi", { base: null });

// ---------------- d. input ----------------
facts.d = {};
facts.d.payload = await promptCase(`export default (pi) => pi.on("input", (e, ctx) => { F.keys = Object.keys(e); F.event = { ...e, images: e.images === undefined ? "undefined" : e.images }; });`, "hello");
facts.d.transformChain = await promptCase(`export default (pi) => {
  pi.on("input", (e) => ({ action: "transform", text: e.text + " +t1" }));
  pi.on("input", (e) => { F.secondSaw = e.text; return { action: "continue" }; });
  pi.on("input", () => { throw new Error("input exploded"); });
  pi.on("input", (e) => ({ action: "transform", text: e.text + " +t2" }));
  pi.on("before_agent_start", (e) => { F.basPrompt = e.prompt; });
};`, "hello");
facts.d.handled = await promptCase(`export default (pi) => {
  pi.on("input", () => ({ action: "handled" }));
  pi.on("input", () => { F.afterHandled = true; });
  pi.on("before_agent_start", () => { F.basRan = true; });
};`, "hello");
facts.d.slashCommandSkipsInput = await promptCase(`export default (pi) => {
  pi.registerCommand("hi", { handler: async (args, ctx) => { F.cmdArgs = args; F.ctxKeys = Object.keys(ctx); } });
  pi.on("input", () => { F.inputRan = true; });
};`, "/hi there  you");

// ---------------- e. session_start / session_shutdown / pi.events ----------------
facts.e = {};
{
  globalThis.__f = { starts: [], shutdowns: [], pings: 0, moduleLoads: 0 };
  const p = ext(pre + `let moduleCounter = 0; F.moduleLoads++;
export default (pi) => {
  moduleCounter++; F.lastModuleCounter = moduleCounter;
  pi.on("session_start", (e, ctx) => { F.starts.push({ keys: Object.keys(e), event: e, hasUI: ctx.hasUI }); });
  pi.on("session_shutdown", (e) => { F.shutdowns.push({ keys: Object.keys(e), event: e }); });
  pi.events.on("probe:ping", () => { F.pings++; });
  F.eventsKeys = Object.keys(pi.events);
};`, "lifecycle");
  const h = await createPiSession(p);
  await h.bind();
  const busAfterBind = h.counter.counts();
  await h.session.reload();
  await h.session.reload();
  h.counter.bus.emit("probe:ping", {});
  await new Promise((r) => setTimeout(r, 10));
  facts.e.lifecycle = {
    scratch: structuredClone(globalThis.__f), busAfterBind, busAfter2Reloads: h.counter.counts(),
    busClearCalls: h.counter.clearedCount(),
    note: "after bind + 2 reloads, one pi.events emit of probe:ping -> F.pings",
  };
  await h.dispose();
}

// ---------------- f. registerTool ----------------
facts.f = {};
async function loadCase(src, name) {
  const h = await createPiSession(ext(src, name));
  let bindError;
  try { await h.bind(); } catch (err) { bindError = err.message; }
  return h;
}
{
  const h = await loadCase(`export default (pi) => {
    pi.registerTool({ label: "x", description: "no name", parameters: { type: "object" }, execute: async () => ({ content: [] }) });
    pi.registerTool({ name: "no_desc", parameters: { type: "object", properties: {} }, execute: async () => ({ content: [{ type: "text", text: "ok" }] }) });
    pi.registerTool({ name: "no_params", description: "d", execute: async () => ({ content: [{ type: "text", text: "ok" }] }) });
    pi.registerTool({ name: "no_exec", description: "d", parameters: { type: "object", properties: {} } });
  };`, "badtools");
  const res = { loadErrors: h.loadResult.errors.map((e) => e.error), registered: h.runner.getAllRegisteredTools().map((t) => String(t.definition.name)), active: h.session.getActiveToolNames() };
  for (const name of ["no_desc", "no_params", "no_exec"]) {
    const tr = await h.promptToolCall(name, {});
    res[name] = { content: tr?.content, isError: tr?.isError };
  }
  facts.f.missingFields = res;
  await h.dispose();
}
{
  globalThis.__f = {};
  const h = await loadCase(pre + `export default (pi) => {
    pi.registerTool({ name: "probe", label: "Probe", description: "d",
      parameters: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
      async execute(toolCallId, params, signal, onUpdate, ctx) {
        F.call = { argc: arguments.length, toolCallId, params, signalIsAbortSignal: signal instanceof AbortSignal, onUpdateType: typeof onUpdate, ctxKeys: Object.keys(ctx), hasUI: ctx.hasUI };
        onUpdate?.({ content: [{ type: "text", text: "partial" }] });
        return { content: [{ type: "text", text: "n=" + params.n }], details: { n: params.n }, isError: true };
      } });
    pi.registerTool({ name: "thrower", description: "d", parameters: { type: "object", properties: {} }, async execute() { throw new Error("tool exploded"); } });
    pi.registerTool({ name: "thrower2", description: "d", parameters: { type: "object", properties: {} }, async execute() { throw "raw string"; } });
  };`, "tools");
  const r1 = await h.promptToolCall("probe", { n: "41" });
  const r2 = await h.promptToolCall("thrower", {});
  const r3 = await h.promptToolCall("thrower2", {});
  facts.f.execute = { scratch: structuredClone(globalThis.__f), probeResult: { content: r1.content, details: r1.details, isError: r1.isError },
    throwResult: { content: r2.content, details: r2.details, isError: r2.isError }, throwStringResult: { content: r3.content, isError: r3.isError } };
  await h.dispose();
}
{
  const p1 = ext(`export default (pi) => { pi.registerTool({ name: "dup", description: "first", parameters: { type: "object", properties: {} }, execute: async () => ({ content: [{ type: "text", text: "from first" }] }) }); pi.registerCommand("dupcmd", { description: "first", handler: async () => { globalThis.__f.cmd = "first"; } }); };`, "dupA");
  const p2 = ext(`export default (pi) => { pi.registerTool({ name: "dup", description: "second", parameters: { type: "object", properties: {} }, execute: async () => ({ content: [{ type: "text", text: "from second" }] }) }); pi.registerCommand("dupcmd", { description: "second", handler: async () => { globalThis.__f.cmd = "second"; } }); };`, "dupB");
  globalThis.__f = {};
  const h = await createPiSession([p1, p2]);
  await h.bind();
  const tr = await h.promptToolCall("dup", {});
  await h.session.prompt("/dupcmd");
  facts.f.duplicatesAcrossExtensions = {
    loadErrors: h.loadResult.errors.map((e) => ({ path: path.basename(e.path), error: e.error.replace(dir, "<dir>") })),
    modelSees: tr.content, commandRan: globalThis.__f.cmd,
    getRegisteredCommands: h.runner.getRegisteredCommands().map((c) => c.description), commandDiagnostics: h.runner.getCommandDiagnostics().map((d) => d.message.replaceAll(dir, "<dir>")),
  };
  await h.dispose();
}
{
  globalThis.__f = {};
  const h = await loadCase(`export default (pi) => { pi.registerTool({ name: "bash", description: "override", parameters: { type: "object", properties: {} }, execute: async () => ({ content: [{ type: "text", text: "extension bash" }] }) }); pi.registerTool({ name: "same", description: "v1", parameters: { type: "object", properties: {} }, execute: async () => ({ content: [{ type: "text", text: "v1" }] }) }); pi.registerTool({ name: "same", description: "v2", parameters: { type: "object", properties: {} }, execute: async () => ({ content: [{ type: "text", text: "v2" }] }) }); };`, "override");
  const tr = await h.promptToolCall("bash", { command: "ls" });
  const tr2 = await h.promptToolCall("same", {});
  facts.f.overrideBuiltinAndSameExtDuplicate = { loadErrors: h.loadResult.errors.map((e) => e.error), bashModelSees: tr.content, sameModelSees: tr2.content };
  await h.dispose();
}

// ---------------- g. registerCommand ----------------
facts.g = {};
{
  globalThis.__f = {};
  const h = await loadCase(pre + `export default (pi) => {
    pi.registerCommand("greet", { description: "d", handler: async function (args, ctx) { F.args = args; F.argc = arguments.length; F.ctxKeys = Object.keys(ctx); F.hasUI = ctx.hasUI; } });
    pi.registerCommand("boom", { handler: async () => { throw new Error("command exploded"); } });
    pi.registerCommand("nohandler", { description: "no handler" });
    pi.registerCommand("model", { handler: async () => { F.modelCmd = true; } });
  };`, "cmds");
  const llmBefore = h.llmCalls.length;
  await h.session.prompt("/greet  a b ");
  await h.session.prompt("/greet");
  const argsNoSpace = globalThis.__f.args;
  await h.session.prompt("/greet  a b ");
  await h.session.prompt("/boom x");
  let noHandlerErr = null;
  try { await h.session.prompt("/nohandler"); } catch (err) { noHandlerErr = err.message; }
  await h.session.prompt("/model");
  facts.g.commands = {
    loadErrors: h.loadResult.errors.map((e) => e.error), scratch: structuredClone(globalThis.__f), argsForBareCommand: argsNoSpace,
    llmCallsDuringCommands: h.llmCalls.length - llmBefore, runnerErrors: h.errors, noHandler: noHandlerErr,
    reservedFiltered: h.runner.getRegisteredCommands(new Set(["model"])).map((c) => c.name),
    commandDiagnostics: h.runner.getCommandDiagnostics().map((d) => d.message.replaceAll(dir, "<dir>")),
  };
  await h.dispose();
}

// ---------------- h. modules ----------------
facts.h = {};
facts.h.indexRuntimeExports = Object.keys(pi).filter((k) => k !== "default").sort().map((k) => `${k}:${typeof pi[k]}`);
{
  const src = fs.readFileSync(path.join((await loadPi()).pkgDir, "dist/core/extensions/loader.js"), "utf8");
  facts.h.virtualModules = [...src.match(/const VIRTUAL_MODULES = \{([\s\S]*?)\};/)[1].matchAll(/"([^"]+)":/g)].map((m) => m[1]);
}
{
  globalThis.__f = {};
  const h = await loadCase(pre + `import { Type } from "@sinclair/typebox"; import { StringEnum, Type as AiType } from "@mariozechner/pi-ai"; import * as core from "@mariozechner/pi-agent-core"; import * as tui from "@mariozechner/pi-tui"; import * as fsx from "node:fs"; import { isToolCallEventType } from "@mariozechner/pi-coding-agent";
export default (pi) => { F.imports = { typebox: typeof Type.Object, aiStringEnum: typeof StringEnum, aiType: typeof AiType, core: Object.keys(core).length > 0, tui: Object.keys(tui).length > 0, fs: typeof fsx.readFileSync, guard: typeof isToolCallEventType }; };`, "imports");
  facts.h.importsFromExtension = { loadErrors: h.loadResult.errors.map((e) => e.error), scratch: structuredClone(globalThis.__f) };
  await h.dispose();
  const h2 = await loadCase(`import x from "definitely-not-installed-pkg"; export default (pi) => { console.error(x); };`, "missingdep");
  facts.h.missingImport = h2.loadResult.errors.map((e) => e.error.replaceAll(dir, "<dir>"));
  await h2.dispose();
}

// ---------------- i. factory loading ----------------
facts.i = {};
const loadErr = async (src, name) => {
  const h = await loadCase(src, name);
  const r = { loaded: h.loadResult.extensions.length, errors: h.loadResult.errors.map((e) => e.error.replaceAll(dir, "<dir>")) };
  await h.dispose();
  return r;
};
facts.i.defaultNotFunction = await loadErr(`export default { hello: 1 };`, "notfn");
facts.i.noDefaultExport = await loadErr(`export const factory = (pi) => {};`, "nodefault");
facts.i.factoryThrows = await loadErr(`export default (pi) => { throw new Error("factory exploded"); };`, "throws");
facts.i.asyncFactoryRejects = await loadErr(`export default async (pi) => { await null; throw new Error("async factory exploded"); };`, "rejects");
facts.i.factoryThrowsString = await loadErr(`export default (pi) => { throw "raw"; };`, "throwsstr");
facts.i.syntaxError = await loadErr(`export default (pi) => { pi.on("x", ) ) };`, "syntax");
facts.i.actionDuringLoad = await loadErr(`export default (pi) => { pi.sendMessage({ customType: "x", content: "y" }); };`, "action");
facts.i.cjsModuleExports = await loadErr(`module.exports = function (pi) { pi.on("session_start", () => {}); };`, "cjs");
facts.i.asyncFactoryAwaited = await (async () => {
  const h = await loadCase(`export default async (pi) => { await new Promise((r) => setTimeout(r, 20)); pi.on("tool_call", () => ({ block: true, reason: "late" })); };`, "asyncok");
  const r = { loaded: h.loadResult.extensions.length, handlers: h.runner.extensions[0]?.handlers.get("tool_call")?.length ?? 0 };
  await h.dispose();
  return r;
})();

facts.consoleDuringRun = logged.map((l) => l.replaceAll(dir, "<dir>").slice(0, 300));
realOut(JSON.stringify(facts, null, 2) + "\n");
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
