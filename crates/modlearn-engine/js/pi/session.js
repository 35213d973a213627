// A Pi session inside one engine. Pi's own code does the work (../vendor/pi.js, bundled from the
// @earendil-works/pi-coding-agent release by scripts/refresh-vendor-pi): the `pi` API and its
// event bus, the extension runner, pi-agent-core's tool pipeline, the built-in tool definitions,
// the system-prompt builder and the session manager. This module connects them the way Pi's
// AgentSession does for the steps a judge probes (it is not bundled: it pulls in every provider
// SDK Pi ships); what modlearn adds of its own is the person at the keyboard (ui.js) and the
// probes (probes.js).

import * as Pi from "../vendor/pi.js";
import { bindPerson } from "./ui.js";
import { lettaModHint } from "../diagnostics.js";
import { clock } from "../platform.js";
import { contentText } from "../content.js";

/** The tools a Pi session starts with (Pi's DEFAULT_TOOL_NAMES); grep, find and ls are registered inactive. */
export const DEFAULT_ACTIVE_TOOLS = Object.freeze(["read", "bash", "edit", "write"]);

const BUILT_IN_TOOLS = [
  Pi.createReadToolDefinition,
  Pi.createBashToolDefinition,
  Pi.createEditToolDefinition,
  Pi.createWriteToolDefinition,
  Pi.createGrepToolDefinition,
  Pi.createFindToolDefinition,
  Pi.createLsToolDefinition,
];

/** Pi's error for a module whose default export is not a factory, with a hint for a Letta mod. */
export function notAFactory(path, namespace) {
  const letta = lettaModHint(namespace, "pi", "export default function (pi) { ... }");
  return new Error(`Extension does not export a valid factory function: ${path}${letta}`);
}

/** The error Pi's runner reported (`{extensionPath, event, error, stack}`), as an Error to record. */
function reported(report) {
  const error = new Error(String(report.error));
  error.stack = report.stack === undefined ? undefined : String(report.stack);
  return error;
}

/** One engine's Pi: the bus and the session that outlive a reload, and the extension loaded now. */
export class PiSession {
  constructor(host) {
    this.host = host;
    this.cwd = host.baseContext.cwd;
    // One bus for the session, as Pi's resource loader keeps one across reloads.
    this.bus = Pi.createEventBus();
    /** Every `pi.events` subscription made through the bus: `{owner, channel, live}`. */
    this.subscriptions = [];
    this.sessionManager = Pi.SessionManager.inMemory(this.cwd);
    this.startReason = "startup";
    /** The loaded extension: `{owner, extension, runtime, runner}`, or null. */
    this.current = null;
    /** What extensions did through the session's actions (`pi.sendMessage`, `pi.sendUserMessage`). */
    this.sent = [];
    this.activeTools = [...DEFAULT_ACTIVE_TOOLS];
    this.activeToolsChanged = false;
    /** While a probe runs: its watch of dialogs, notifications and sends. */
    this.probe = null;
    this.turnIndex = 0;
  }

  /** A new scenario: a new session on a fresh machine. A reload keeps the session. */
  newGeneration(keepWorld) {
    if (keepWorld) {
      this.startReason = "reload";
      return;
    }
    this.sessionManager = Pi.SessionManager.inMemory(this.cwd);
    this.startReason = "startup";
    this.sent = [];
    this.activeTools = [...DEFAULT_ACTIVE_TOOLS];
    this.activeToolsChanged = false;
    this.turnIndex = 0;
  }

  /** The bus as `owner`'s `pi.events` sees it: Pi's own, with each subscription remembered. */
  busFor(owner) {
    const { bus, subscriptions } = this;
    return {
      emit: (channel, data) => bus.emit(channel, data),
      on: (channel, handler) => {
        const entry = { owner, channel: String(channel), live: true };
        subscriptions.push(entry);
        const off = bus.on(channel, handler);
        return () => {
          entry.live = false;
          return off();
        };
      },
      clear: () => bus.clear(),
    };
  }

  /**
   * Pi's loader, given the factory modlearn imported: the extension, or what it threw. An
   * extension that does not load leaves Pi's session without it, which the probes still drive.
   */
  async load(owner, namespace) {
    const runtime = Pi.createExtensionRuntime();
    try {
      const factory = namespace.default;
      if (typeof factory !== "function") throw notAFactory(owner.seenAs ?? owner.path, namespace);
      const extension = await Pi.loadExtensionFromFactory(factory, this.cwd, this.busFor(owner), runtime, owner.seenAs ?? owner.path);
      this.bind(owner, extension, runtime);
    } catch (error) {
      this.bind(this.sessionOwner(), null, Pi.createExtensionRuntime());
      throw error;
    }
  }

  /** Who a session without an extension is, for the steps its probes run. */
  sessionOwner() {
    return { id: "pi:session", path: "<pi session>", scope: "global", generation: this.host.registry.generation, controller: new AbortController() };
  }

  /** A runner for the extension (none: no extension loaded), bound to the session as AgentSession binds one. */
  bind(owner, extension, runtime) {
    const runner = new Pi.ExtensionRunner(extension ? [extension] : [], runtime, this.cwd, this.sessionManager, undefined);
    this.current = { owner, extension, runtime, runner };
    runner.bindCore(this.actions(), this.contextActions());
    runner.bindCommandContext(this.commandActions());
    runner.onError((report) => this.host.record({ owner, phase: "event", error: reported(report), capability: { id: String(report.event), kind: "event" } }));
    bindPerson(runner, this.watch());
    this.refreshTools();
  }

  /** Where dialogs, notifications and sends go: the probe running now, and the host's records. */
  watch() {
    const { host } = this;
    const owner = () => this.current?.owner;
    return {
      record: (dialog) => host.recordPrompt({ mod: owner()?.id, ...dialog }),
      opened: (dialog) => this.probe?.dialogs.push(dialog),
      notify: (message, type) => {
        if (owner() && typeof message === "string" && message.trim() !== "") host.notify(owner(), message.trim(), type);
      },
    };
  }

  /** `session_start`, after the factory, as Pi's bindExtensions and reload emit it. */
  async start() {
    const { runner } = this.current;
    await runner.emit({ type: "session_start", reason: this.startReason });
    if (runner.hasHandlers("resources_discover")) await runner.emitResourcesDiscover(this.cwd, this.startReason === "reload" ? "reload" : "startup");
  }

  /** `session_shutdown`, Pi's only cleanup hook, then the runner goes stale (Pi removes the extension's bus subscriptions). */
  async shutdown(reason) {
    const current = this.current;
    if (!current) return;
    try {
      await Pi.emitSessionShutdownEvent(current.runner, { type: "session_shutdown", reason });
    } finally {
      current.runner.invalidate();
      this.current = null;
    }
  }

  /** Subscriptions on the bus whose extension is no longer loaded. */
  stranded() {
    return this.subscriptions
      .filter((entry) => entry.live && !this.host.isLive(entry.owner))
      .map((entry) => ({ mod: entry.owner.id, generation: entry.owner.generation, channel: entry.channel }));
  }

  // ---- tools, as AgentSession keeps them: the built-ins, then the extension's (a name it reuses replaces a built-in) ----

  refreshTools() {
    const current = this.current;
    if (!current) return;
    const definitions = new Map(BUILT_IN_TOOLS.map((create) => {
      const definition = create(this.cwd);
      return [definition.name, { definition, builtIn: true }];
    }));
    for (const tool of current.runner.getAllRegisteredTools()) definitions.set(tool.definition.name, { definition: tool.definition, builtIn: false });
    const previous = current.definitions;
    current.definitions = definitions;
    current.tools = new Map([...definitions].map(([name, entry]) => [name, Pi.wrapRegisteredTool({ definition: entry.definition }, current.runner)]));
    // A tool an extension registers becomes active unless it says otherwise.
    for (const [name, entry] of definitions) {
      const fresh = !previous?.has(name) || previous.get(name).definition !== entry.definition;
      if (!entry.builtIn && fresh && this.declarable(name) && entry.definition.defaultActive !== false && !this.activeTools.includes(name)) {
        this.activeTools.push(name);
      }
    }
  }

  exposure(name) {
    return this.current?.definitions?.get(name)?.definition.exposure ?? "direct";
  }

  declarable(name) {
    const exposure = this.exposure(name);
    return exposure === "direct" || exposure === "model-only";
  }

  /** The tools the model may call now. */
  activeAgentTools() {
    const tools = this.current?.tools;
    if (!tools) return [];
    return this.activeTools.filter((name) => tools.has(name) && this.exposure(name) !== "hidden").map((name) => tools.get(name));
  }

  /** The system prompt options a run starts from (AgentSession's base options). */
  baseSystemPromptOptions() {
    const definitions = this.current?.definitions ?? new Map();
    const toolSnippets = {};
    const toolGuidelines = {};
    for (const [name, { definition }] of definitions) {
      const snippet = typeof definition.promptSnippet === "string" ? definition.promptSnippet.replace(/\s+/g, " ").trim() : "";
      if (snippet) toolSnippets[name] = snippet;
      const guidelines = [...new Set((definition.promptGuidelines ?? []).map((line) => String(line).trim()).filter(Boolean))];
      if (guidelines.length > 0) toolGuidelines[name] = guidelines;
    }
    return Pi.normalizeBuildSystemPromptOptions({
      cwd: this.cwd,
      skills: [],
      contextFiles: [],
      appendSystemPrompt: "",
      selectedTools: this.activeAgentTools().map((tool) => tool.name),
      hiddenTools: [],
      toolSnippets,
      toolGuidelines,
    });
  }

  // ---- what the runner's action and context methods do in this session ----

  actions() {
    const session = this;
    const record = (entry) => {
      session.sent.push(entry);
      session.probe?.sent.push(entry);
    };
    return {
      sendMessage(message, options) {
        record({ user: false, customType: message?.customType, text: contentText(message?.content), deliverAs: options?.deliverAs, triggerTurn: options?.triggerTurn });
        session.deliver({ role: "custom", customType: message?.customType, content: message?.content ?? [], display: message?.display, details: message?.details, timestamp: clock.now }, options);
      },
      sendUserMessage(content, options) {
        const text = typeof content === "string" ? content : Array.isArray(content) ? content.filter((part) => part?.type === "text").map((part) => part.text).join("\n") : "";
        record({ user: true, text, deliverAs: options?.deliverAs });
        session.deliver({ role: "user", content: [{ type: "text", text }], timestamp: clock.now }, { deliverAs: options?.deliverAs ?? "followUp", triggerTurn: true });
      },
      appendEntry: (customType, data) => void session.sessionManager.appendCustomEntry(customType, data),
      setSessionName: (name) => void session.sessionManager.appendSessionInfo(name),
      getSessionName: () => session.sessionManager.getSessionName(),
      setLabel: (entryId, label) => void session.sessionManager.appendLabelChange(entryId, label),
      getActiveTools: () => session.activeAgentTools().map((tool) => tool.name),
      getAllTools: () => [...(session.current?.definitions ?? new Map()).values()].map(({ definition }) => ({
        name: definition.name,
        description: definition.description,
        parameters: definition.parameters,
        promptGuidelines: definition.promptGuidelines,
        exposure: session.exposure(definition.name),
      })),
      getSettings: () => ({}),
      setActiveTools: (names) => {
        const known = session.current?.tools ?? new Map();
        const requested = [...new Set(Array.isArray(names) ? names.map(String) : [])];
        const kept = session.activeTools.filter((name) => requested.includes(name));
        session.activeTools = [...new Set([...kept, ...requested])].filter((name) => known.has(name) && session.exposure(name) !== "hidden");
        session.activeToolsChanged = true;
      },
      refreshTools: () => session.refreshTools(),
      getCommands: () => (session.current?.runner.getRegisteredCommands() ?? []).map((command) => ({ name: command.invocationName, description: command.description, source: "extension" })),
      // No model can be selected: the session's model is modlearn's script.
      setModel: async () => false,
      getThinkingLevel: () => "off",
      setThinkingLevel: () => undefined,
    };
  }

  contextActions() {
    const session = this;
    return {
      getModel: () => undefined,
      getScopedModels: () => [],
      isIdle: () => session.probe?.running !== true,
      isProjectTrusted: () => true,
      getSignal: () => session.probe?.signal,
      abort: () => session.probe?.controller?.abort(),
      hasPendingMessages: () => (session.probe?.queued.length ?? 0) > 0,
      shutdown: () => undefined,
      getContextUsage: () => undefined,
      compact: () => undefined,
      getSystemPrompt: () => Pi.buildSystemPrompt(session.probe?.systemPromptOptions ?? session.baseSystemPromptOptions()),
      getSystemPromptOptions: () => session.baseSystemPromptOptions(),
      getCallableTools: () => session.activeAgentTools(),
    };
  }

  commandActions() {
    const cancelled = async () => ({ cancelled: true });
    return {
      waitForIdle: async () => undefined,
      newSession: cancelled,
      fork: cancelled,
      navigateTree: cancelled,
      switchSession: cancelled,
      reload: async () => undefined,
    };
  }

  /** A message an extension sent: into the run while one is going, else kept for the next. */
  deliver(message, options) {
    const probe = this.probe;
    if (options?.deliverAs === "nextTurn") {
      this.nextTurn ??= [];
      this.nextTurn.push(message);
    } else if (probe?.running && options?.triggerTurn !== false) {
      probe.queued.push({ message, deliverAs: options?.deliverAs === "followUp" ? "followUp" : "steer" });
    } else if (probe?.running) {
      probe.pendingCustom.push(message);
    }
  }

  // ---- running the extension's handlers, as the session's steps do ----

  get runner() {
    return this.current?.runner ?? null;
  }

  /** Emits `event` to the extension's handlers (errors reported through the runner). */
  async emit(event) {
    const runner = this.runner;
    if (runner?.hasHandlers(event.type)) await runner.emit(event);
  }

  /** `message_start` and `message_end` (whose handlers may replace the message), as AgentSession forwards them. */
  async messageEvents(message) {
    const runner = this.runner;
    if (!runner) return message;
    await this.emit({ type: "message_start", message });
    if (!runner.hasHandlers("message_end")) return message;
    const replacement = await runner.emitMessageEnd({ type: "message_end", message });
    if (!replacement) return message;
    return replacement.content == null ? { ...replacement, content: [] } : replacement;
  }

  /** The messages sent with `deliverAs: "nextTurn"`, which the next turn takes. */
  takeNextTurn() {
    const messages = this.nextTurn ?? [];
    this.nextTurn = [];
    return messages;
  }

  /**
   * The `turn_end` boundary after `message`: the handlers may add session entries and ask to
   * continue, which Pi honours only when the model has something to answer (the entries, or
   * messages sent meanwhile). Returns the text of what the next request adds, or null when the
   * run ends here.
   */
  async turnEndBoundary(message, probe) {
    const runner = this.runner;
    const manager = this.sessionManager;
    const messageEntryId = manager.appendMessage(message);
    const before = Pi.convertToLlm(manager.buildSessionProjection().messages).length;
    let requested = false;
    if (runner?.hasHandlers("turn_end")) {
      const boundary = await runner.emitBoundary(
        { type: "turn_end", turnIndex: this.turnIndex, message, toolResults: [], messageEntryId, toolResultEntryIds: [], outcome: message.stopReason === "error" ? "error" : "completed" },
        (entries) => this.boundaryContext(entries, probe),
      );
      applyDrafts(manager, boundary.entries);
      requested = boundary.continue === true;
      if (requested && !this.boundaryContext([], probe).canContinue) {
        runner.emitError({ extensionPath: "<boundary>", event: "turn_end", error: "turn_end requested continuation without runnable model context" });
        requested = false;
      }
    }
    this.turnIndex += 1;
    // Messages sent during the turn go into the session once it ended.
    for (const pending of probe.pendingCustom.splice(0)) manager.appendCustomMessageEntry(pending.customType, pending.content, pending.display, pending.details);
    const queued = probe.queued.splice(0).map((entry) => entry.message);
    if (!requested && queued.length === 0) return null;
    const added = Pi.convertToLlm([...manager.buildSessionProjection().messages, ...queued]).slice(before);
    return added.filter((entry) => entry.role === "user").map((entry) => contentText(entry.content)).join("\n");
  }

  /** What a boundary handler sees: the session with its drafts, and whether the model could go on. */
  boundaryContext(drafts, probe) {
    const preview = Pi.SessionManager.inMemory(this.cwd, undefined, [this.sessionManager.getHeader(), ...this.sessionManager.getBranch()]);
    applyDrafts(preview, drafts);
    const projection = preview.buildSessionProjection();
    const llmMessages = Pi.convertToLlm(projection.messages);
    const finalRole = llmMessages.at(-1)?.role;
    const withConversation = llmMessages.some((entry) => entry.role !== "system");
    return {
      contextEntries: projection.entries,
      contextMessages: projection.messages,
      llmMessages,
      pendingMessages: probe.queued.map((entry) => entry.message),
      canContinue: (withConversation && finalRole !== "assistant") || probe.pendingCustom.length > 0 || probe.queued.length > 0,
    };
  }

  /** A probe: what runs during `fn(probe)` is watched (dialogs, sends, the run's signal). */
  async probing(fn) {
    const controller = new AbortController();
    const probe = { dialogs: [], sent: [], queued: [], pendingCustom: [], running: true, controller, signal: controller.signal, systemPromptOptions: undefined };
    this.probe = probe;
    try {
      return await fn(probe);
    } finally {
      probe.running = false;
      if (this.probe === probe) this.probe = null;
    }
  }
}

/** Boundary drafts (`{type: "custom" | "custom_message" | "context_edit" | "compaction", ...}`) into `manager`. */
function applyDrafts(manager, drafts) {
  for (const draft of drafts ?? []) {
    if (draft.type === "custom") manager.appendCustomEntry(draft.customType, draft.data);
    else if (draft.type === "custom_message") manager.appendCustomMessageEntry(draft.customType, draft.content, draft.display, draft.details);
    else if (draft.type === "context_edit") manager.appendContextEdit(draft.targetId, draft.replacement);
    else if (draft.type === "compaction") manager.appendCompaction(draft.summary, draft.firstKeptEntryId, 0, draft.details, true, draft.usage);
  }
}
