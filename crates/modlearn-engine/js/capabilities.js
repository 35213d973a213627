// Capability profiles: which parts of the mod API a host surface offers.
// When a capability is off, registration is a silent no-op (as in Letta).

const ALL_ON = {
  tools: true, commands: true, permissions: true, providers: true,
  events: { lifecycle: true, tools: true, turns: true, compact: true, llm: true },
  ui: { panels: true },
};

/** The surfaces Letta Code runs mods on. */
export const PROFILES = Object.freeze({
  /** Engine default; also what Letta's learning harness uses. */
  engine: ALL_ON,
  tui: ALL_ON,
  headless: { ...ALL_ON, commands: false, ui: { panels: false } },
  listener: {
    ...ALL_ON,
    events: { lifecycle: false, tools: true, turns: true, compact: false, llm: false },
    ui: { panels: false },
  },
  "listener-agent": {
    ...ALL_ON,
    providers: false,
    events: { lifecycle: false, tools: true, turns: true, compact: false, llm: false },
    ui: { panels: false },
  },
  "providers-only": {
    tools: false, commands: false, permissions: false, providers: true,
    events: { lifecycle: false, tools: false, turns: false, compact: false, llm: false },
    ui: { panels: false },
  },
});

/** The ten event names, each with the capability flag that gates it. */
export const EVENT_CAPABILITY = Object.freeze({
  conversation_open: "lifecycle",
  conversation_close: "lifecycle",
  tool_start: "tools",
  tool_end: "tools",
  turn_start: "turns",
  turn_end: "turns",
  compact_start: "compact",
  compact_end: "compact",
  llm_start: "llm",
  llm_end: "llm",
});

/** Deep copy of a profile, so mods that mutate theirs change nothing. */
export function cloneCapabilities(capabilities) {
  // Letta's own clone, key for key and in its order: a mod that serialises or hashes
  // `letta.capabilities` sees what it sees in Letta.
  const { events = {}, ui = {} } = capabilities;
  return {
    tools: capabilities.tools,
    commands: capabilities.commands,
    events: { lifecycle: events.lifecycle, tools: events.tools, turns: events.turns, compact: events.compact, llm: events.llm },
    permissions: capabilities.permissions,
    providers: capabilities.providers,
    ui: { panels: ui.panels },
  };
}

/** Looks up a profile by name; throws on an unknown one. */
export function profileNamed(name) {
  const profile = PROFILES[name];
  if (!profile) throw new Error(`unknown capability profile '${name}'`);
  return cloneCapabilities(profile);
}
