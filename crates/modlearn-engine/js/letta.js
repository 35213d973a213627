// The `letta` handle a mod's activate(letta) receives. One handle per owner
// and load generation; calls through a handle whose generation is gone are
// ignored with a stale_handle diagnostic, as in Letta Code.

import { cloneCapabilities, EVENT_CAPABILITY } from "./capabilities.js";
import { withGetContextTrap } from "./context.js";
import { validateProvider } from "./providers.js";
import {
  checkCollision,
  normalizeCommand,
  normalizePermission,
  normalizeTool,
  validateId,
  validateEventName,
  validateToolName,
} from "./registry.js";

const noop = () => undefined;
const noopPanel = Object.freeze({ close: noop, update: noop });

function removedApi(engine, owner, id, replacement) {
  return () => {
    engine.record({
      owner,
      phase: "deprecated_api",
      capability: { id, kind: "api" },
      error: new Error(`${id} was removed; ${replacement}`),
    });
  };
}

function lazyClient(engine, path = []) {
  const target = function client() {};
  return new Proxy(target, {
    get(_target, property) {
      if (property === "then") return undefined;
      if (typeof property === "symbol") return undefined;
      return lazyClient(engine, [...path, property]);
    },
    async apply(_target, _this, args) {
      const client = await engine.getClient();
      let owner = client;
      let value = client;
      for (const key of path) {
        owner = value;
        value = value == null ? undefined : value[key];
      }
      if (typeof value !== "function") {
        throw new TypeError(`letta.client.${path.join(".")} is not callable`);
      }
      return value.apply(owner, args);
    },
  });
}

/** Builds the handle for `owner`. `engine` is the host (see host.js). */
export function createLettaHandle(engine, owner) {
  const caps = engine.capabilities;
  const registry = () => engine.registry;
  const live = (kind, id) => {
    if (engine.isLive(owner)) return true;
    engine.staleHandle(owner, kind, id);
    return false;
  };

  const events = {
    on(name, handler) {
      validateEventName(name);
      if (!caps.events[EVENT_CAPABILITY[name]]) return noop;
      if (typeof handler !== "function") throw new Error("Mod event registration must include a handler");
      if (!live("event", name)) return noop;
      registry().events[name].push({ handler, name, owner });
      return () => events.off(name, handler);
    },
    off(name, handler) {
      validateEventName(name);
      if (!caps.events[EVENT_CAPABILITY[name]]) return;
      if (!live("event", name)) return;
      const list = registry().events;
      list[name] = list[name].filter((entry) => !(entry.owner.id === owner.id && entry.handler === handler));
    },
  };

  const tools = {
    register(tool) {
      if (!caps.tools) return noop;
      if (!live("tool", tool && tool.name)) return noop;
      const normalized = normalizeTool(tool);
      if (engine.reservedToolNames.has(normalized.name)) {
        throw new Error(`Mod tool '${normalized.name}' conflicts with a built-in tool`);
      }
      const map = registry().tools;
      checkCollision({
        kind: "tool", key: normalized.name, existing: map.get(normalized.name),
        owner, override: normalized.override, allowOverride: true,
      });
      map.set(normalized.name, { ...normalized, owner, path: owner.path });
      return () => tools.unregister(normalized.name);
    },
    unregister(name) {
      if (!caps.tools) return;
      validateToolName(name);
      if (!live("tool", name)) return;
      const map = registry().tools;
      if (map.get(name)?.owner.id === owner.id) map.delete(name);
    },
  };

  const commands = {
    register(command) {
      if (!caps.commands) return noop;
      if (!live("command", command && command.id)) return noop;
      const normalized = normalizeCommand(command, owner.path);
      if (engine.builtinCommandIds.has(normalized.id)) {
        engine.record({
          owner, phase: "command_override", capability: { id: normalized.id, kind: "command" },
          error: new Error(`Mod command '/${normalized.id}' overrides a built-in command`),
        });
      }
      const map = registry().commands;
      checkCollision({
        kind: "command", key: normalized.id, existing: map.get(normalized.id),
        owner, override: normalized.override, allowOverride: true,
      });
      map.set(normalized.id, { ...normalized, owner });
      return () => commands.unregister(normalized.id);
    },
    unregister(id) {
      if (!caps.commands) return;
      validateId("command", id);
      if (!live("command", id)) return;
      const map = registry().commands;
      if (map.get(id)?.owner.id === owner.id) map.delete(id);
    },
  };

  const permissions = {
    register(permission) {
      if (!caps.permissions) return noop;
      if (!live("permission", permission && permission.id)) return noop;
      const normalized = normalizePermission(permission);
      const map = registry().permissions;
      checkCollision({
        kind: "permission", key: normalized.id, existing: map.get(normalized.id),
        owner, allowOverride: false,
      });
      map.set(normalized.id, { ...normalized, owner });
      return () => permissions.unregister(normalized.id);
    },
    unregister(id) {
      if (!caps.permissions) return;
      validateId("permission", id);
      if (!live("permission", id)) return;
      const map = registry().permissions;
      if (map.get(id)?.owner.id === owner.id) map.delete(id);
    },
  };

  const providers = {
    register(name, config) {
      if (!caps.providers) return noop;
      if (!live("provider", name)) return noop;
      validateProvider(name, config);
      // Same-name registrations replace silently, as Letta's global provider map does.
      registry().providers.set(name, { name, config, owner });
      return () => providers.unregister(name);
    },
    unregister(name) {
      if (!caps.providers) return;
      if (!live("provider", name)) return;
      const map = registry().providers;
      if (map.get(name)?.owner.id === owner.id) map.delete(name);
    },
  };

  const diagnostics = {
    report(report) {
      if (!live("report", "diagnostics")) return;
      if (!report || typeof report !== "object") throw new TypeError("letta.diagnostics.report expects { message, severity? }");
      if (typeof report.message !== "string") throw new TypeError("letta.diagnostics.report message must be a string");
      if (report.message.trim() === "") throw new Error("letta.diagnostics.report message must not be empty");
      if (report.severity !== undefined && report.severity !== "error" && report.severity !== "warning") {
        throw new Error('letta.diagnostics.report severity must be "error" or "warning"');
      }
      const error = new Error(report.message);
      error.name = "ModDiagnosticReport";
      engine.record({ owner, phase: "report", error, severity: report.severity });
    },
  };

  const ui = {
    openPanel(panel) {
      if (!caps.ui.panels) return noopPanel;
      const id = panel && panel.id;
      if (!live("panel", id)) return noopPanel;
      if (!panel || typeof panel.render !== "function") {
        const legacy = panel && Object.hasOwn(panel, "content");
        engine.record({
          owner, phase: "activate", severity: "warning", capability: { id: String(id), kind: "panel" },
          error: new Error(
            legacy
              ? "letta.ui.openPanel now requires render(ctx), not content; pass render: (ctx) => text"
              : `letta.ui.openPanel('${String(id)}') requires a render(ctx) function`,
          ),
        });
        return noopPanel;
      }
      engine.upsertPanel(owner, id, { render: panel.render, order: panel.order ?? 100 });
      return {
        close: () => ui.closePanel(id),
        update(options) {
          if (!live("panel", id)) return;
          engine.upsertPanel(owner, id, { order: options && options.order });
        },
      };
    },
    closePanel(id) {
      if (!caps.ui.panels) return;
      if (typeof id !== "string" || id.trim() === "") throw new Error("Mod panel id must be a non-empty string");
      if (!live("panel", id)) return;
      registry().panels.delete(JSON.stringify([owner.id, id]));
    },
    notify(message) {
      if (!engine.isLive(owner)) {
        engine.staleHandle(owner, "panel", "notify");
        return;
      }
      if (typeof message !== "string" || message.trim() === "") return;
      engine.notify(owner, message.trim());
    },
    setStatus: removedApi(engine, owner, "letta.ui.setStatus", "use letta.ui.openPanel({ id, render, order })"),
    clearStatus: removedApi(engine, owner, "letta.ui.clearStatus", "use letta.ui.closePanel(id)"),
    setStatuslineRenderer: removedApi(
      engine, owner, "letta.ui.setStatuslineRenderer", "use letta.ui.openPanel({ id, render, order: 0 })",
    ),
  };

  const handle = {
    capabilities: cloneCapabilities(caps),
    client: lazyClient(engine),
    getClient: () => engine.getClient(),
    signal: engine.signalOf(owner),
    registerProvider: (name, config) => providers.register(name, config),
    unregisterProvider: (name) => providers.unregister(name),
    commands,
    tools,
    providers,
    events,
    permissions,
    diagnostics,
    ui,
  };
  return withGetContextTrap(handle, "letta.getContext", () =>
    engine.record({
      owner, phase: "deprecated_api", capability: { id: "letta.getContext", kind: "api" },
      error: new Error("letta.getContext() was removed"),
    }),
  );
}
