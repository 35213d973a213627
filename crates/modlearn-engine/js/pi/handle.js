// The `pi` object a Pi extension's factory receives (Pi 0.58.3's
// ExtensionAPI), and the ctx its handlers, tools and commands get. Every
// registration lands in modlearn's core registry, so the probes, the judge
// and the lifecycle checks treat a Pi extension as they treat a Letta mod.

import { execFile } from "../node/child_process.js";
import { BASE_SYSTEM_PROMPT } from "./events.js";
import { contentText } from "../content.js";
import { dialectCommand, dialectTool } from "../registry.js";
import { world } from "../world.js";

/** Pi's error for an action method called while the factory still runs. */
export const NOT_INITIALIZED = "Extension runtime not initialized. Action methods cannot be called during extension loading.";

/**
 * The UI of a Pi extension's ctx. With no scripted person the session is
 * headless (Pi's print mode, `hasUI: false`) and dialogs answer as Pi's no-op
 * UI does (false or undefined). A scenario's `ui` rules make it Pi's RPC mode
 * (`hasUI: true`): the first matching rule answers a dialog, and one no rule
 * answers (or whose answer is not among a select's options) is dismissed,
 * which Pi's RPC client reports as cancelled. Every
 * dialog is recorded with its answer, so a report shows what was asked.
 */
function sessionUi(host, owner) {
  // `offered`: the options of a select; a person can only pick one of those.
  const ask = (kind, title, detail, unanswered, offered) => {
    const shown = String(title ?? "");
    const rule = world.dialogs?.find((r) => r.dialog === kind && (r.titleContains === undefined || shown.includes(r.titleContains)));
    const answered = rule !== undefined && rule.answer !== null && (offered === undefined || offered.includes(rule.answer));
    const outcome = world.dialogs === null ? {} : answered ? { answer: rule.answer } : { dismissed: true };
    host.recordPrompt({ mod: owner.id, kind, title: shown, ...(detail === undefined ? {} : { detail: String(detail) }), ...outcome });
    return answered ? rule.answer : unanswered;
  };
  const noop = () => undefined;
  return {
    select: async (title, options) => {
      const offered = Array.isArray(options) ? options.map(String) : [];
      return ask("select", title, offered.join(", "), undefined, offered);
    },
    confirm: async (title, message) => ask("confirm", title, message, false),
    input: async (title, placeholder) => ask("input", title, placeholder, undefined),
    editor: async (title) => ask("editor", title, undefined, undefined),
    notify(message, type = "info") {
      if (typeof message === "string" && message.trim() !== "") host.notify(owner, message.trim(), type);
    },
    custom: async () => undefined,
    onTerminalInput: () => noop,
    getEditorText: () => "",
    getAllThemes: () => [],
    getTheme: () => undefined,
    setTheme: () => ({ success: false, error: "no UI in this session" }),
    theme: { fg: (_color, text) => text, bg: (_color, text) => text, bold: (text) => text },
    setStatus: noop, setWorkingMessage: noop, setWidget: noop, setFooter: noop, setHeader: noop, setTitle: noop,
    setEditorText: noop, pasteToEditor: noop, setEditorComponent: noop, setToolsExpanded: noop,
  };
}

const emptySession = Object.freeze({
  getEntries: () => [],
  getBranch: () => [],
  getLeafId: () => null,
  getLeafEntry: () => undefined,
  getHeader: () => undefined,
  getSessionFile: () => undefined,
  // Pi's session ids are UUIDs; a fixed one keeps verdicts deterministic.
  getSessionId: () => "01937a5e-4c2b-7d8e-9f10-2a3b4c5d6e7f",
  getSessionName: () => undefined,
  getCwd: () => "/workspace",
});

/** The ctx (ExtensionContext) a handler or tool of `owner` receives. */
export function piContext(host, owner) {
  const cwd = host.baseContext.cwd;
  return {
    ui: sessionUi(host, owner),
    hasUI: world.dialogs !== null,
    cwd,
    sessionManager: emptySession,
    modelRegistry: { getAll: () => [], getAvailable: () => [], find: () => undefined },
    model: undefined,
    signal: host.signalOf(owner),
    isIdle: () => true,
    abort: () => undefined,
    hasPendingMessages: () => false,
    shutdown: () => undefined,
    getContextUsage: () => undefined,
    compact: () => undefined,
    getSystemPrompt: () => BASE_SYSTEM_PROMPT,
  };
}

/** A command handler's ctx (ExtensionCommandContext): the ctx and the session controls. */
function commandContext(host, owner) {
  const unavailable = async () => ({ cancelled: true });
  return {
    ...piContext(host, owner),
    waitForIdle: async () => undefined,
    newSession: unavailable,
    fork: unavailable,
    navigateTree: unavailable,
    switchSession: unavailable,
    reload: async () => undefined,
  };
}

// Pi validates nothing when a tool registers: a missing execute fails when the tool is called.
function piTool(host, owner, definition) {
  const { name, description, parameters } = definition;
  return dialectTool({
    name,
    description,
    parameters: parameters && typeof parameters === "object" ? parameters : { type: "object", properties: {} },
    owner,
    async run(ctx) {
      const onUpdate = () => undefined;
      const result = await definition.execute(ctx.toolCallId, ctx.args, ctx.signal, onUpdate, piContext(host, owner));
      // Pi hands the content to the model; only a throw makes an error.
      const content = result && typeof result === "object" ? result.content : undefined;
      const blocks = Array.isArray(content) ? content : [];
      return blocks.every((block) => block && block.type === "text") ? contentText(blocks) : blocks;
    },
  });
}

function piCommand(host, owner, name, options) {
  return dialectCommand({
    id: String(name),
    description: options?.description,
    owner,
    // What the command leaves the session with: a user message it sent, else
    // what it told the user, else nothing (`handled`).
    async run(ctx) {
      const sent = host.piSent.length;
      const notes = host.notifications.length;
      await options.handler(ctx.args ?? "", commandContext(host, owner));
      const messages = host.piSent.slice(sent).filter((message) => message.mod === owner.id && message.user);
      if (messages.length > 0) return { type: "prompt", content: messages.map((m) => m.text).join("\n"), systemReminder: false };
      const told = host.notifications.slice(notes).filter((note) => note.mod === owner.id);
      if (told.length > 0) return { type: "output", output: told.map((note) => note.message).join("\n") };
      return { type: "handled" };
    },
  });
}

/**
 * Builds `pi` for `owner`. `loading.active` is true while the factory runs:
 * then registrations work and action methods throw, as in Pi.
 */
export function createPiHandle(host, owner, loading) {
  const registry = () => host.registry;
  const live = () => host.isLive(owner);
  const action = (fn) => (...args) => {
    if (loading.active) throw new Error(NOT_INITIALIZED);
    return fn(...args);
  };
  const flags = new Map();
  let activeTools = null;

  const send = (message) => host.piSent.push({ mod: owner.id, ...message });

  return {
    on(event, handler) {
      if (!live()) return;
      const table = registry().piHandlers;
      (table[event] ??= []).push({ handler, owner, name: String(event) });
    },
    registerTool(definition) {
      if (!live()) return;
      const tool = piTool(host, owner, definition);
      const existing = registry().tools.get(tool.name);
      // First registration wins across extensions; within one, the latest replaces.
      if (existing && existing.owner.id !== owner.id) return;
      registry().tools.set(tool.name, tool);
    },
    registerCommand(name, options) {
      if (!live()) return;
      const command = piCommand(host, owner, name, options);
      const existing = registry().commands.get(command.id);
      if (existing && existing.owner.id !== owner.id) {
        host.record({
          owner, phase: "activate", severity: "warning", capability: { id: command.id, kind: "command" },
          error: new Error(`Command '/${command.id}' is already registered by ${existing.owner.path}; skipped`),
        });
        return;
      }
      registry().commands.set(command.id, command);
    },
    registerShortcut() {},
    registerFlag(name, options = {}) {
      if (!flags.has(name)) flags.set(name, options.default);
    },
    getFlag: (name) => flags.get(name),
    registerMessageRenderer() {},
    registerProvider(name, config) {
      if (live()) registry().providers.set(String(name), { name: String(name), config, owner });
    },
    unregisterProvider(name) {
      const map = registry().providers;
      if (map.get(name)?.owner.id === owner.id) map.delete(name);
    },
    sendMessage: action((message, options) => {
      send({ user: false, customType: message?.customType, text: contentText(message?.content), deliverAs: options?.deliverAs });
    }),
    sendUserMessage: action((content, options) => {
      send({ user: true, text: contentText(content), deliverAs: options?.deliverAs });
    }),
    appendEntry: action(() => undefined),
    setSessionName: action(() => undefined),
    getSessionName: () => undefined,
    setLabel: action(() => undefined),
    exec: action(
      (command, args = [], options = {}) =>
        new Promise((resolve) => {
          execFile(command, args, { cwd: options.cwd }, (error, stdout, stderr) => {
            resolve({ stdout: String(stdout), stderr: String(stderr), code: error ? Number(error.code) || 1 : 0, killed: false });
          });
        }),
    ),
    getActiveTools: action(() => activeTools ?? [...registry().tools.keys()]),
    getAllTools: action(() => [...registry().tools.values()].map((tool) => ({ name: tool.name, description: tool.description }))),
    setActiveTools: action((names) => {
      activeTools = Array.isArray(names) ? names.map(String) : activeTools;
    }),
    getCommands: action(() => [...registry().commands.values()].map((command) => ({ name: command.id, description: command.description }))),
    setModel: action(async () => false),
    getThinkingLevel: () => "off",
    setThinkingLevel: action(() => undefined),
    events: {
      on(channel, handler) {
        const entry = { owner, channel: String(channel), handler };
        host.piBus.push(entry);
        return () => {
          const index = host.piBus.indexOf(entry);
          if (index >= 0) host.piBus.splice(index, 1);
        };
      },
      emit(channel, data) {
        for (const entry of [...host.piBus]) {
          if (entry.channel !== String(channel)) continue;
          try {
            const returned = entry.handler(data);
            if (returned && typeof returned.then === "function") {
              returned.then(undefined, (error) => host.record({ owner: entry.owner, phase: "event", error, capability: { id: entry.channel, kind: "event" } }));
            }
          } catch (error) {
            host.record({ owner: entry.owner, phase: "event", error, capability: { id: entry.channel, kind: "event" } });
          }
        }
      },
    },
  };
}
