// The engine's side of the candidate's machine: the process state a mod sees (its working
// directory and environment, reset with each scenario's load as a new process would have
// them) and a log of what it asked of its platform (reads, environment reads, network
// attempts), for the reports. Files and commands are the real machine's (machine.js); what the
// judge reads of them comes from the machine, never from here.

import { clock } from "./platform.js";
import { boundText } from "./diagnostics.js";

/** The fixed facts of the machine (documented in ARCHITECTURE.md; modlearn-machine's plan). */
export const MACHINE = Object.freeze({
  home: "/home/user",
  user: "user",
  uid: 1000,
  gid: 1000,
  hostname: "modlearn",
  tmp: "/tmp",
  shell: "/bin/bash",
});

const EFFECTS_LIMIT = 1000;
/** The longest string an effect keeps (a path, a URL): a hostile mod's 10 MB path stays small. */
const EFFECT_TEXT_LIMIT = 2048;

// Taken before any mod runs: Object's statics are a mod's to replace (Letta's globals are shared).
const { create, entries } = Object;

export const world = {
  cwd: "/workspace",
  env: {},
  /** @type {{dialog: "confirm"|"select"|"input"|"editor", titleContains?: string, answer: unknown}[] | null} How the scripted person answers dialogs; null: nobody is there. */
  dialogs: null,
  effects: [],
  effectsDropped: 0,
  /** The events the host dispatched in this scenario, by name. */
  dispatched: new Set(),
  /** Files the mod watched in this scenario (`fs.watch`, `fs.watchFile`): the machine never calls their callbacks. */
  watched: 0,
};

/** Notes that the host dispatched event `name` (to whatever handles it). */
export function recordDispatch(name) {
  world.dispatched.add(String(name));
}

/** Appends one effect to the log (capped, like the console; long strings cut). */
export function recordEffect(effect) {
  if (world.effects.length >= EFFECTS_LIMIT) {
    world.effectsDropped++;
    return;
  }
  // No prototype: a setter a mod put on Object.prototype must not rewrite what is kept.
  const kept = create(null);
  kept.at = clock.now;
  for (const [key, value] of entries(effect)) {
    if (typeof value !== "string" || value.length <= EFFECT_TEXT_LIMIT) {
      kept[key] = value;
    } else {
      kept[key] = boundText(value, EFFECT_TEXT_LIMIT);
      kept.cut = true;
    }
  }
  world.effects.push(kept);
}

/** Normalises an absolute POSIX path lexically (no trailing slash, `.`/`..` resolved), as Node's `path.resolve`. */
export function normalizeAbsolute(path) {
  const parts = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `/${parts.join("/")}`;
}

/** `path` resolved lexically against the working directory (`path.resolve`, `pathToFileURL`). */
export function resolvePath(path) {
  return normalizeAbsolute(path.startsWith("/") ? path : `${world.cwd}/${path}`);
}

/**
 * `path` as a system call passes it to the kernel: a relative path joined to the working
 * directory and nothing else done to it (`a/../b` through a link is the kernel's to resolve).
 */
export function kernelPath(path) {
  return path.startsWith("/") ? path : `${world.cwd === "/" ? "" : world.cwd}/${path}`;
}

/** Begins a reload's generation in the process as it is: only the log starts again. */
export function keepWorldForReload() {
  world.effects = [];
  world.effectsDropped = 0;
}

/** The process state of a new scenario's load, from the Rust side's seed. */
export function seedWorld(seed = {}) {
  world.effects = [];
  world.dispatched = new Set();
  world.watched = 0;
  world.effectsDropped = 0;
  world.cwd = normalizeAbsolute(seed.cwd ?? "/workspace");
  // What Letta's process has set for a mod on a clean machine; the seed adds and overrides.
  world.env = {
    HOME: MACHINE.home,
    USER: MACHINE.user,
    LOGNAME: MACHINE.user,
    SHELL: MACHINE.shell,
    PATH: "/usr/local/bin:/usr/bin:/bin",
    PWD: world.cwd,
    LANG: "en_US.UTF-8",
    TERM: "xterm-256color",
    TZ: "UTC",
    // No MEMORY_DIR or LETTA_AGENT_ID: Letta's harness runs assertions in its own process,
    // which has neither; a prompt scenario's seed adds MEMORY_DIR, as Letta's headless run has it.
    ...(seed.env ?? {}),
  };
  world.dialogs = Array.isArray(seed.dialogs) ? seed.dialogs.map((rule) => ({ ...rule })) : null;
  seeded = { env: envWeight(world.env), cwd: world.cwd };
}

/** The environment and working directory as seeded (`machineChanges` weighs against them). */
let seeded = { env: 0, cwd: "/" };

/** How much an environment holds: its variables and the characters of their names and values. */
function envWeight(env) {
  let weight = 0;
  for (const [name, value] of Object.entries(env)) weight += 1 + name.length + String(value).length;
  return weight;
}

/**
 * What mods changed of the process since it was seeded, as lifecycle.js summarises a changed
 * global (name, type, size): its environment and working directory. A reload keeps them (as
 * Letta's `/reload` runs in the same process), so state a mod adds there on every load grows
 * from one reload to the next. Files are not weighed: they are storage, which a good mod may
 * grow by use (a log a tool appends to), kept as a disk keeps them.
 */
export function machineChanges() {
  const changes = [];
  const env = envWeight(world.env);
  if (env !== seeded.env) changes.push({ name: "process.env", type: "object", size: env });
  if (world.cwd !== seeded.cwd) changes.push({ name: "process.cwd()", type: "string", size: world.cwd.length });
  return changes;
}

/**
 * Handles a mod holds open on the platform (a file watcher, a channel subscription, a readline
 * on stdin): code the host process runs when something comes, until the mod closes them.
 */
const handles = new Set();

/** Holds a handle on `target` for `what` for the mod running; returns what releases it. */
export function holdHandle(target, what) {
  const entry = { target, event: String(what), owner: clock.currentOwner() };
  handles.add(entry);
  return () => handles.delete(entry);
}

/**
 * Work a mod leaves to run later that the host cannot see into, counted for the snapshot:
 * listeners on `process` and its streams (node/process.js fills them in), and open handles.
 */
export const deferred = {
  processListeners: () => [],
  listeners() {
    const held = [...handles]
      .filter((entry) => entry.owner)
      .map(({ target, event, owner }) => ({ target, event, mod: owner.id, generation: owner.generation }));
    return [...this.processListeners(), ...held];
  },
};

/** The engine's part of the world in the snapshot: the process's state and the log. */
export function worldSnapshot() {
  return {
    cwd: world.cwd,
    home: MACHINE.home,
    effects: world.effects,
    effectsDropped: world.effectsDropped,
    timersPending: clock.timers.size,
    processListeners: deferred.listeners().length,
    dispatched: [...world.dispatched].sort(),
    filesWatched: world.watched,
  };
}
