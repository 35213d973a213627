// A real Pi session around one extension, for judge.mjs: Pi's SDK (createAgentSession) with
// Pi's own resource loader, extension runner, tools and agent loop, from an npm install of
// @earendil-works/pi-coding-agent found through PI_CODING_AGENT_DIR. The model is Pi's real
// Anthropic provider talking to a loopback server that answers from a script, so what the
// judge reads is what reached the provider. Supplied here, not by Pi: temporary directories,
// in-memory settings, session and credentials, the script, and tool bodies that record what they
// were called with instead of touching the machine.
import * as fs from "node:fs";
import * as http from "node:http";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";

export const TOOL_CALL_ID = "mod-learning-assertion-tool-call";

function findPackage(installDir, name) {
  for (const dir of [path.join(installDir, "node_modules", name), path.join(installDir, "node_modules", "@earendil-works", "pi-coding-agent", "node_modules", name)]) {
    if (fs.existsSync(path.join(dir, "package.json"))) return dir;
  }
  throw new Error(`cannot find ${name} under ${installDir}/node_modules (set PI_CODING_AGENT_DIR to the directory holding node_modules)`);
}

let loaded = null;
/** Pi's modules from the install, once. */
export async function loadPi() {
  if (loaded) return loaded;
  const installDir = process.env.PI_CODING_AGENT_INSTALL_DIR || process.env.PI_CODING_AGENT_DIR;
  if (!installDir) throw new Error("PI_CODING_AGENT_DIR must point at an npm install of @earendil-works/pi-coding-agent");
  const pkgDir = findPackage(installDir, "@earendil-works/pi-coding-agent");
  const aiDir = findPackage(installDir, "@earendil-works/pi-ai");
  // Pi reads PI_CODING_AGENT_DIR as its own agent directory: point it at an empty one, so no
  // global extension, setting or key of this machine takes part.
  process.env.PI_CODING_AGENT_INSTALL_DIR = installDir;
  const agentDir = fs.mkdtempSync(path.join(os.tmpdir(), "pi-diff-agent-"));
  process.env.PI_CODING_AGENT_DIR = agentDir;
  process.env.PI_OFFLINE = "1";
  process.on("exit", () => fs.rmSync(agentDir, { recursive: true, force: true }));
  const version = JSON.parse(fs.readFileSync(path.join(pkgDir, "package.json"), "utf8")).version;
  const pi = await import(pathToFileURL(path.join(pkgDir, "dist", "index.js")).href);
  const ai = await import(pathToFileURL(path.join(aiDir, "dist", "compat.js")).href);
  const agentCore = await import(pathToFileURL(path.join(findPackage(installDir, "@earendil-works/pi-agent-core"), "dist", "index.js")).href);
  const systemPrompt = await import(pathToFileURL(path.join(pkgDir, "dist", "core", "system-prompt.js")).href);
  const { theme } = await import(pathToFileURL(path.join(pkgDir, "dist", "modes", "interactive", "theme", "theme.js")).href);
  loaded = { pi, ai, agentCore, systemPrompt, theme, version };
  return loaded;
}

/**
 * A loopback server that speaks Anthropic's Messages API: each request pops one planned turn
 * (`{text}` or `{toolCall: {id, name, arguments}}`; the model says MODEL_TEXT when the plan is
 * empty) and is recorded as Pi's provider sent it.
 */
export async function scriptedModel(defaultText) {
  const requests = [];
  const plan = [];
  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      requests.push(JSON.parse(body));
      const step = plan.shift() ?? { text: defaultText };
      response.writeHead(200, { "content-type": "text/event-stream" });
      const send = (type, data) => response.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      send("message_start", { message: { id: `msg_${requests.length}`, type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], stop_reason: null, usage: { input_tokens: 1, output_tokens: 0 } } });
      if (step.toolCall) {
        send("content_block_start", { index: 0, content_block: { type: "tool_use", id: step.toolCall.id, name: step.toolCall.name, input: {} } });
        send("content_block_delta", { index: 0, delta: { type: "input_json_delta", partial_json: JSON.stringify(step.toolCall.arguments) } });
        send("content_block_stop", { index: 0 });
        send("message_delta", { delta: { stop_reason: "tool_use" }, usage: { output_tokens: 1 } });
      } else {
        send("content_block_start", { index: 0, content_block: { type: "text", text: "" } });
        send("content_block_delta", { index: 0, delta: { type: "text_delta", text: step.text } });
        send("content_block_stop", { index: 0 });
        send("message_delta", { delta: { stop_reason: "end_turn" }, usage: { output_tokens: 1 } });
      }
      send("message_stop", {});
      response.end();
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { requests, plan, url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}

/** Pi's event bus, with the subscriptions live on it counted per channel. */
export function countingEventBus(createEventBus) {
  const real = createEventBus();
  const live = new Map();
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
        live.clear();
        return real.clear();
      },
    },
    counts: () => Object.fromEntries([...live.entries()].filter(([, n]) => n > 0).sort()),
    total: () => [...live.values()].reduce((a, b) => a + b, 0),
  };
}

/**
 * The person at the keyboard as a scenario's `ui` rules describe them, answering through the
 * shapes Pi's RPC mode parses: a dismissed confirm is false, a dismissed select, input or
 * editor undefined; a select answer that is not among the options is a dismissal.
 */
function scriptedUi(rules, watch) {
  const answer = (kind, title, options) => {
    const shown = String(title ?? "");
    const rule = rules.find((r) => r.dialog === kind && (r.titleContains === undefined || shown.includes(r.titleContains)));
    const offered = kind === "select" && Array.isArray(options) ? options.map(String) : undefined;
    if (rule === undefined || rule.answer === null || (offered && !offered.includes(rule.answer))) return { value: kind === "confirm" ? false : undefined };
    return { value: rule.answer, assents: rule.assents };
  };
  const dialog = (kind) => async (title, detail) => {
    const given = answer(kind, title, detail);
    return watch.dialog(kind, title, detail, given.value, given.assents);
  };
  const noop = () => {};
  return {
    select: dialog("select"), confirm: dialog("confirm"), input: dialog("input"), editor: dialog("editor"),
    notify: (message) => watch.notify(message),
    onTerminalInput: () => noop, setStatus: noop, setWorkingMessage: noop, setWorkingVisible: noop, setWorkingIndicator: noop,
    setHiddenThinkingLabel: noop, setWidget: noop, setFooter: noop, setHeader: noop, setTitle: noop, custom: async () => undefined,
    pasteToEditor: noop, setEditorText: noop, getEditorText: () => "", addAutocompleteProvider: noop, setEditorComponent: noop,
    getEditorComponent: () => undefined, getAllThemes: () => [], getTheme: () => undefined,
    setTheme: () => ({ success: false, error: "Theme switching not supported in RPC mode" }), getToolsExpanded: () => false, setToolsExpanded: noop,
    // Pi's own theme, which nothing initialises here (as the engine's): reading from it throws.
    get theme() {
      return loaded.theme;
    },
  };
}

// Print mode's no-op UI is one object shared by every session: watched in place, once, for
// the session bound last (sessions here run one at a time), so `hasUI` stays false.
const headless = { watch: null, patched: new WeakSet() };
function watchHeadless(runner, watch) {
  headless.watch = watch;
  const ui = runner.getUIContext();
  if (headless.patched.has(ui)) return;
  headless.patched.add(ui);
  for (const kind of ["select", "confirm", "input", "editor"]) {
    const original = ui[kind];
    ui[kind] = async (title, detail, ...rest) => headless.watch.dialog(kind, title, detail, await original.call(ui, title, detail, ...rest));
  }
  const notify = ui.notify;
  ui.notify = (message, type) => (headless.watch.notify(message), notify.call(ui, message, type));
}

/** A real Pi session with `extension` loaded, bound as print mode (or RPC mode with `ui` rules) binds it. */
export async function createPiSession(extension, { ui, modelText }) {
  const { pi, ai } = await loadPi();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pi-diff-"));
  const cwd = path.join(tmp, "workspace");
  const agentDir = path.join(tmp, "agent");
  fs.mkdirSync(cwd);
  fs.mkdirSync(agentDir);
  const model = await scriptedModel(modelText);
  const counter = countingEventBus(pi.createEventBus);
  const settingsManager = pi.SettingsManager.inMemory({ compaction: { enabled: false }, retry: { enabled: false } });
  const resourceLoader = new pi.DefaultResourceLoader({
    cwd, agentDir, settingsManager, eventBus: counter.bus,
    additionalExtensionPaths: [path.resolve(extension)],
    noSkills: true, noPromptTemplates: true, noThemes: true, noContextFiles: true,
  });
  await resourceLoader.reload();
  const modelRuntime = await pi.ModelRuntime.create({ authPath: path.join(agentDir, "auth.json"), modelsPath: null, refreshOnCreate: false });
  await modelRuntime.setRuntimeApiKey("anthropic", "pi-diff-fake-key");
  const { session, extensionsResult } = await pi.createAgentSession({
    cwd, agentDir, modelRuntime, resourceLoader, settingsManager, sessionManager: pi.SessionManager.inMemory(cwd),
    model: { ...ai.getModel("anthropic", "claude-sonnet-4-5"), baseUrl: model.url }, thinkingLevel: "off",
  });
  const errors = [];
  const dialogs = [];
  const notes = [];
  const watch = {
    dialog: (kind, title, detail, answer, assents) => (dialogs.push({ kind, title: String(title ?? ""), detail, answer, assents }), answer),
    notify: (message) => typeof message === "string" && message.trim() !== "" && notes.push(message.trim()),
  };
  const bindings = {
    commandContextActions: {
      waitForIdle: () => session.agent.waitForIdle(),
      newSession: async () => ({ cancelled: true }),
      fork: async () => ({ cancelled: true }),
      navigateTree: async () => ({ cancelled: true }),
      switchSession: async () => ({ cancelled: true }),
      reload: async () => undefined,
    },
    onError: (error) => errors.push({ event: error.event, error: error.error }),
  };
  if (Array.isArray(ui)) Object.assign(bindings, { uiContext: scriptedUi(ui, watch), mode: "rpc" });
  const h = {
    pi, session, cwd, model, counter, errors, dialogs, notes,
    loadResult: extensionsResult,
    get runner() {
      return session.extensionRunner;
    },
    async bind() {
      await session.bindExtensions(bindings);
      if (!Array.isArray(ui)) watchHeadless(h.runner, watch);
    },
    async dispose() {
      try {
        session.dispose();
      } catch {}
      model.close();
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
  return h;
}

/** The text of content as Pi writes it: a string, or text blocks joined by newlines. */
export function textOf(content) {
  if (content == null) return "";
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.filter((c) => c && c.type === "text").map((c) => c.text).join("\n");
  return "";
}

export function deepEqual(a, b) {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => deepEqual(a[k], b[k]));
}
