// Baseline for `modlearn bench --node-baseline`: evaluates candidate modules
// the way Letta Code's learning harness does, in one Node.js process: per
// scenario a fresh module import and activation, Letta's dispatch for
// turn_start and tool_start, the four assertion checks, then dispose.
// Usage: node letta-style-harness.mjs plan.json  (prints {evaluations, elapsedMs})

import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const plan = JSON.parse(readFileSync(process.argv[2], "utf8"));
let generation = 0;

function sortedJson(value) {
  return JSON.stringify(value, (_k, v) =>
    v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v);
}

async function loadMod(path) {
  const registry = { events: {}, diagnostics: [], disposers: [] };
  const controller = new AbortController();
  const letta = {
    signal: controller.signal,
    events: {
      on(name, handler) {
        (registry.events[name] ??= []).push(handler);
        return () => {};
      },
      off() {},
    },
    tools: { register: () => () => {}, unregister() {} },
    commands: { register: () => () => {}, unregister() {} },
    permissions: { register: () => () => {}, unregister() {} },
    providers: { register: () => () => {}, unregister() {} },
    diagnostics: { report: (r) => registry.diagnostics.push(r) },
    ui: { openPanel: () => ({ close() {}, update() {} }), closePanel() {}, notify() {} },
    capabilities: {},
  };
  try {
    const module = await import(`${pathToFileURL(path).href}?generation=${++generation}`);
    const factory = typeof module.default === "function" ? module.default : module.activate;
    const disposer = await factory(letta);
    if (typeof disposer === "function") registry.disposers.push(disposer);
    registry.loaded = 1;
  } catch (error) {
    registry.diagnostics.push(error);
    registry.loaded = 0;
  }
  registry.dispose = () => {
    controller.abort("mod disposed");
    for (const d of registry.disposers.reverse()) {
      try { d(); } catch {}
    }
  };
  return registry;
}

async function emit(registry, name, event) {
  const handlers = [...(registry.events[name] ?? [])];
  const diagnostics = [];
  for (const handler of handlers) {
    const key = name === "turn_start" ? "input" : "args";
    const snapshot = name === "turn_start" ? event.input.map((i) => structuredClone(i)) : structuredClone(event.args);
    try {
      const result = await handler(event, { conversation: { id: event.conversationId } });
      if (result && name === "turn_start" && Array.isArray(result.input)) event.input = result.input;
      if (result && name === "tool_start" && result.args && typeof result.args === "object" && !Array.isArray(result.args)) event.args = result.args;
    } catch (error) {
      event[key] = snapshot;
      diagnostics.push(error);
    }
  }
  return { handlerCount: handlers.length, diagnostics };
}

async function check(registry, assertion) {
  const ids = { agentId: "mod-learning-eval-agent", conversationId: "mod-learning-eval-conversation" };
  switch (assertion.type) {
    case "mod_loads":
      return registry.diagnostics.length === 0 && registry.loaded > 0;
    case "turn_start_injects_message": {
      const input = assertion.input ?? [{ type: "message", role: "user", content: "Install a Python package." }];
      const event = { ...ids, input: structuredClone(input) };
      const emission = await emit(registry, "turn_start", event);
      const added = event.input.slice(input.length).filter((m) => m.role === (assertion.role ?? "system"));
      const text = added.map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content))).join("\n");
      const contains = [].concat(assertion.contains ?? []);
      const notContains = [].concat(assertion.notContains ?? []);
      return emission.handlerCount > 0 && added.length > 0 && contains.every((s) => text.includes(s)) &&
        !notContains.some((s) => text.includes(s)) && sortedJson(event.input.slice(0, input.length)) === sortedJson(input) &&
        emission.diagnostics.length === 0;
    }
    case "tool_start_rewrites_args":
    case "tool_start_preserves_args": {
      const event = { ...ids, toolCallId: "mod-learning-assertion-tool-call", toolName: assertion.toolName, args: structuredClone(assertion.args) };
      const emission = await emit(registry, "tool_start", event);
      if (emission.handlerCount === 0 || emission.diagnostics.length > 0) return false;
      if (assertion.type === "tool_start_preserves_args") return sortedJson(event.args) === sortedJson(assertion.args);
      return Object.entries(assertion.expectArgs).every(([k, v]) => sortedJson(event.args[k]) === sortedJson(v));
    }
    default:
      return false;
  }
}

const started = performance.now();
let evaluations = 0;
for (let copy = 0; copy < plan.copies; copy++) {
  for (const path of plan.modules) {
    for (const assertions of plan.scenarios) {
      const registry = await loadMod(path);
      for (const assertion of assertions) await check(registry, assertion);
      registry.dispose();
    }
    evaluations++;
  }
}
process.stdout.write(JSON.stringify({ evaluations, elapsedMs: performance.now() - started }));
