// Shared harness: boots a REAL Pi AgentSession (from an install located via
// PI_CODING_AGENT_DIR) around one extension, with a scripted stream function in
// place of the LLM so nothing leaves the machine.  Used by judge.mjs and facts.mjs.
//
// Everything that decides a verdict is Pi's own code: DefaultResourceLoader ->
// loadExtensions (jiti) -> ExtensionRunner, AgentSession's beforeToolCall /
// afterToolCall hooks, AgentSession.prompt() (input + before_agent_start),
// AgentSession.reload(), and pi-agent-core's agent loop (prepareToolCall /
// finalizeExecutedToolCall).  The harness only supplies: temp cwd/agentDir,
// in-memory settings/session/auth, a fake API key, the scripted LLM, and tool
// executors that record the arguments they were called with.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";

export const BASE_SYSTEM_PROMPT = "You are a coding agent.";
export const CALL_ID = "call-eval-1";

function findPackage(installDir, name) {
  // Hoisted first, then nested under pi-coding-agent.
  const candidates = [
    path.join(installDir, "node_modules", name),
    path.join(installDir, "node_modules", "@mariozechner", "pi-coding-agent", "node_modules", name),
  ];
  for (const c of candidates) if (fs.existsSync(path.join(c, "package.json"))) return c;
  throw new Error(`cannot find ${name} under ${installDir}/node_modules (set PI_CODING_AGENT_DIR to the directory containing node_modules)`);
}

let _pi = null;
export async function loadPi() {
  if (_pi) return _pi;
  const installDir = process.env.PI_CODING_AGENT_INSTALL_DIR || process.env.PI_CODING_AGENT_DIR;
  if (!installDir) {
    throw new Error("PI_CODING_AGENT_DIR must point at the directory containing node_modules/@mariozechner/pi-coding-agent");
  }
  const pkgDir = findPackage(installDir, "@mariozechner/pi-coding-agent");
  const aiDir = findPackage(installDir, "@mariozechner/pi-ai");
  // Pi itself reads PI_CODING_AGENT_DIR as its *agent config dir* (~/.pi/agent).
  // Remember the install dir and point Pi's agent dir at an empty temp dir so no
  // global extensions/settings/auth leak in.
  process.env.PI_CODING_AGENT_INSTALL_DIR = installDir;
  const agentDir = fs.mkdtempSync(path.join(os.tmpdir(), "pi-diff-agent-"));
  process.env.PI_CODING_AGENT_DIR = agentDir;
  const version = JSON.parse(fs.readFileSync(path.join(pkgDir, "package.json"), "utf8")).version;
  const pi = await import(pathToFileURL(path.join(pkgDir, "dist", "index.js")).href);
  const ai = await import(pathToFileURL(path.join(aiDir, "dist", "index.js")).href);
  process.on("exit", () => { try { fs.rmSync(agentDir, { recursive: true, force: true }); } catch {} });
  _pi = { pi, ai, version, pkgDir, installDir, agentDir };
  return _pi;
}

/** Pi's createEventBus, wrapped so the harness can count live subscriptions. */
export function countingEventBus(createEventBus) {
  const real = createEventBus();
  const live = new Map();
  let cleared = 0;
  return {
    bus: {
      emit: (channel, data) => real.emit(channel, data),
      on: (channel, handler) => {
        live.set(channel, (live.get(channel) ?? 0) + 1);
        const off = real.on(channel, handler);
        let done = false;
        return () => {
          if (!done) {
            done = true;
            live.set(channel, live.get(channel) - 1);
          }
          return off();
        };
      },
      clear: () => {
        cleared++;
        live.clear();
        return real.clear();
      },
    },
    counts: () => Object.fromEntries([...live.entries()].filter(([, n]) => n > 0).sort()),
    total: () => [...live.values()].reduce((a, b) => a + b, 0),
    clearedCount: () => cleared,
  };
}

function zeroUsage() {
  return {
    input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}

/**
 * Build a real AgentSession with one extension loaded via Pi's loader.
 * Returns { session, runner, loadResult, llmCalls, script(), errors, bus, ... }.
 */
/**
 * The person at the keyboard, as a spec's `ui` rules describe them: answers go through the
 * shapes Pi's RPC mode parses (`confirmed`, `value`, `cancelled`), so a dismissed confirm is
 * false and a dismissed select, input or editor undefined.
 */
function scriptedUi(rules, dialogs) {
  const answer = (kind, title) => {
    const shown = String(title ?? "");
    const rule = rules.find((r) => r.dialog === kind && (r.titleContains === undefined || shown.includes(r.titleContains)));
    if (rule === undefined || rule.answer === null) return { cancelled: true };
    return kind === "confirm" ? { confirmed: rule.answer } : { value: rule.answer };
  };
  const record = (kind, title, detail, value) => (dialogs.push({ kind, title: String(title ?? ""), detail, answer: value }), value);
  const text = (response) => (response.cancelled ? undefined : response.value);
  const noop = () => {};
  return {
    select: async (title, options) => record("select", title, options, text(answer("select", title))),
    confirm: async (title, message) => {
      const response = answer("confirm", title);
      return record("confirm", title, message, response.cancelled ? false : response.confirmed);
    },
    input: async (title, placeholder) => record("input", title, placeholder, text(answer("input", title))),
    editor: async (title, prefill) => record("editor", title, prefill, text(answer("editor", title))),
    notify: noop, onTerminalInput: () => noop, setStatus: noop, setWorkingMessage: noop, setWidget: noop,
    setFooter: noop, setHeader: noop, setTitle: noop, custom: async () => undefined, pasteToEditor: noop,
    setEditorText: noop, getEditorText: () => "", setEditorComponent: noop, theme: undefined,
    getAllThemes: () => [], getTheme: () => undefined, setTheme: () => ({ success: false, error: "rpc" }),
    getToolsExpanded: () => false, setToolsExpanded: noop,
  };
}

// Print mode's no-op UI is one object shared by every session, so it is wrapped once and
// records into the dialogs of the session bound last (sessions here run one at a time).
let headlessDialogs = [];
const WRAPPED = Symbol("pi-diff dialogs");

/** Records the dialogs of print mode's no-op UI without replacing it, so `hasUI` stays false. */
function recordHeadlessDialogs(runner, dialogs) {
  headlessDialogs = dialogs;
  const ui = runner?.uiContext;
  if (!ui || ui[WRAPPED]) return;
  ui[WRAPPED] = true;
  for (const kind of ["select", "confirm", "input", "editor"]) {
    const original = ui[kind];
    ui[kind] = async (title, detail, ...rest) => {
      const answer = await original.call(ui, title, detail, ...rest);
      headlessDialogs.push({ kind, title: String(title ?? ""), detail, answer });
      return answer;
    };
  }
}

export async function createPiSession(extensionPath /* string | string[] */, { eventBusCounter, ui } = {}) {
  const { pi, ai } = await loadPi();
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), "pi-diff-cwd-"));
  const agentDir = fs.mkdtempSync(path.join(os.tmpdir(), "pi-diff-agentdir-"));
  const counter = eventBusCounter ?? countingEventBus(pi.createEventBus);
  const settingsManager = pi.SettingsManager.inMemory({});
  const resourceLoader = new pi.DefaultResourceLoader({
    cwd,
    agentDir,
    settingsManager,
    eventBus: counter.bus,
    additionalExtensionPaths: [].concat(extensionPath).map((p) => path.resolve(p)),
    noSkills: true,
    noPromptTemplates: true,
    noThemes: true,
    agentsFilesOverride: () => ({ agentsFiles: [] }),
    appendSystemPromptOverride: () => [],
  });
  await resourceLoader.reload();
  const authStorage = pi.AuthStorage.inMemory();
  authStorage.setRuntimeApiKey("anthropic", "pi-diff-fake-key");
  const modelRegistry = new pi.ModelRegistry(authStorage, path.join(agentDir, "models.json"));
  const model = ai.getModel("anthropic", "claude-sonnet-4-5");
  const sessionManager = pi.SessionManager.inMemory(cwd);
  const { session, extensionsResult } = await pi.createAgentSession({
    cwd, agentDir, authStorage, modelRegistry, settingsManager, sessionManager, resourceLoader,
    model, thinkingLevel: "off",
  });

  // Scripted LLM: each call pops one planned assistant turn (default: text "ok").
  const llmCalls = [];
  const plan = [];
  session.agent.streamFn = (mdl, context) => {
    llmCalls.push({
      systemPrompt: context.systemPrompt,
      messages: structuredClone(context.messages),
      tools: (context.tools ?? []).map((t) => t.name),
    });
    const step = plan.shift() ?? { text: "ok" };
    const content = step.toolCall
      ? [{ type: "toolCall", id: step.toolCall.id, name: step.toolCall.name, arguments: step.toolCall.arguments }]
      : [{ type: "text", text: step.text }];
    const message = {
      role: "assistant", content, api: mdl.api, provider: mdl.provider, model: mdl.id,
      usage: zeroUsage(), stopReason: step.toolCall ? "toolUse" : "stop", timestamp: Date.now(),
    };
    const stream = ai.createAssistantMessageEventStream();
    queueMicrotask(() => {
      stream.push({ type: "start", partial: message });
      stream.push({ type: "done", reason: message.stopReason, message });
      stream.end(message);
    });
    return stream;
  };

  const errors = []; // runner.emitError payloads (handler throws that the runner swallows)
  const bindings = {
    // Same shape print mode (pi -p, hasUI false) passes.
    commandContextActions: {
      waitForIdle: () => session.agent.waitForIdle(),
      newSession: async () => ({ cancelled: true }),
      fork: async () => ({ cancelled: true }),
      navigateTree: async () => ({ cancelled: true }),
      switchSession: async () => ({ cancelled: true }),
      reload: async () => { await session.reload(); },
    },
    onError: (err) => errors.push({ extensionPath: err.extensionPath, event: err.event, error: err.error }),
  };
  const dialogs = [];
  if (Array.isArray(ui)) bindings.uiContext = scriptedUi(ui, dialogs);

  const h = {
    pi, ai, session, cwd, agentDir, resourceLoader, counter, llmCalls, plan, errors, bindings, dialogs,
    loadResult: extensionsResult,
    get runner() { return session.extensionRunner ?? session._extensionRunner; },
    async bind() {
      await session.bindExtensions(bindings);
      if (!Array.isArray(ui)) recordHeadlessDialogs(h.runner, dialogs);
    },
    /** Replace (or add) the agent tool `name` with a recorder; returns the record. */
    recordTool(name, { output = "probe ok", fail = false } = {}) {
      const rec = { called: false, args: undefined, added: false };
      const exec = async (toolCallId, params) => {
        rec.called = true;
        rec.toolCallId = toolCallId;
        rec.args = structuredClone(params);
        rec.argsRef = params;
        if (fail) throw new Error(output);
        return { content: [{ type: "text", text: output }], details: undefined };
      };
      const tools = [...session.agent.state.tools];
      const idx = tools.findIndex((t) => t.name === name);
      if (idx >= 0) {
        tools[idx] = { ...tools[idx], execute: exec };
      } else {
        rec.added = true;
        tools.push({
          name, label: name, description: "pi-diff probe",
          parameters: { type: "object", additionalProperties: true }, execute: exec,
        });
      }
      session.agent.setTools(tools);
      return rec;
    },
    /** Make the scripted LLM call `name(args)` once, then answer "ok". Runs the real loop. */
    async promptToolCall(name, args, promptText = "go") {
      plan.push({ toolCall: { id: CALL_ID, name, arguments: structuredClone(args) } });
      plan.push({ text: "ok" });
      await session.prompt(promptText);
      const msgs = session.agent.state.messages;
      const toolResult = [...msgs].reverse().find((m) => m.role === "toolResult" && m.toolCallId === CALL_ID);
      return toolResult;
    },
    async dispose() {
      try { session.dispose?.(); } catch {}
      for (const d of [cwd, agentDir]) {
        try { fs.rmSync(d, { recursive: true, force: true }); } catch {}
      }
    },
  };
  return h;
}

export function textOf(content) {
  if (content == null) return "";
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.filter((c) => c && c.type === "text").map((c) => c.text).join("\n");
  }
  return "";
}

export function deepEqual(a, b) {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a), kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => deepEqual(a[k], b[k]));
}

export function extensionStats(runner, counter) {
  let handlers = 0;
  const byEvent = {};
  for (const ext of runner?.extensions ?? []) {
    for (const [ev, list] of ext.handlers) {
      handlers += list.length;
      byEvent[ev] = (byEvent[ev] ?? 0) + list.length;
    }
  }
  return {
    handlers, byEvent,
    tools: runner ? runner.getAllRegisteredTools().length : 0,
    commands: runner ? runner.getRegisteredCommandsWithPaths().length : 0,
    eventListeners: counter.total(),
    eventListenersByChannel: counter.counts(),
  };
}
