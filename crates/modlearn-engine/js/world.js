// The per-engine virtual world behind node:fs, process, node:os and
// node:child_process: an in-memory filesystem, the environment variables,
// scripted command answers, and a log of every effect a mod had on them.
// Nothing here reaches the host; the Rust side seeds it (`configure`'s
// `world`) and reads the log back through the snapshot.

import { clock, VIRTUAL_EPOCH_MS } from "./platform.js";
import { boundText } from "./diagnostics.js";
import { byteLength, utf8Decode, utf8Encode } from "./web/encoding.js";
import { runArgv, runShellLine } from "./shell.js";

/** The fixed facts of the virtual machine (documented in ARCHITECTURE.md). */
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
/** The longest string an effect keeps (a command line, a path, a URL): a hostile mod's 10 MB command stays small. */
const EFFECT_TEXT_LIMIT = 2048;

// What the snapshot is built with, taken before any mod runs: typed-array and
// Object.prototype methods are a mod's to replace (Letta's globals are shared).
const { create, entries, keys } = Object;
const { apply } = Reflect;
const typedSubarray = Object.getPrototypeOf(Uint8Array.prototype).subarray;
/** Per written file, and over all written files, the text the snapshot carries. */
const WRITTEN_TEXT_LIMIT = 64 * 1024;
const WRITTEN_TOTAL_LIMIT = 512 * 1024;
const WRITTEN_FILES_LIMIT = 200;

export const world = {
  cwd: "/workspace",
  /** @type {Map<string, {kind: "file"|"dir", data?: Uint8Array, mtimeMs: number, birthtimeMs: number, mode: number}>} */
  nodes: new Map(),
  env: {},
  /** PATH as the seed set it. */
  seededPath: "",
  /** @type {{pattern: string, regex: boolean, stdout: string, stderr: string, exitCode: number}[]} */
  commands: [],
  defaultOutput: null,
  /** @type {{dialog: "confirm"|"select"|"input"|"editor", titleContains?: string, answer: unknown}[] | null} How the scripted person answers dialogs; null: nobody is there. */
  dialogs: null,
  /** Roots a mod may create files under (everything else is read-only, as for a normal user). */
  writable: ["/home/user", "/workspace", "/tmp"],
  effects: [],
  effectsDropped: 0,
  /** Paths written since the seed, for the snapshot. */
  written: new Set(),
};


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

/** Normalises an absolute POSIX path (no trailing slash, `.`/`..` resolved). */
export function normalizeAbsolute(path) {
  const parts = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `/${parts.join("/")}`;
}

/** Resolves `path` against the virtual working directory. */
export function resolvePath(path) {
  return normalizeAbsolute(path.startsWith("/") ? path : `${world.cwd}/${path}`);
}

export function parentOf(path) {
  const index = path.lastIndexOf("/");
  return index <= 0 ? "/" : path.slice(0, index);
}

function ensureDir(path) {
  if (world.nodes.has(path)) return;
  if (path !== "/") ensureDir(parentOf(path));
  world.nodes.set(path, { kind: "dir", mtimeMs: clock.now, birthtimeMs: clock.now, mode: 0o40755 });
}

/**
 * Begins a reload's generation on the machine as it is (files, environment, working
 * directory): only the record of effects starts again, so each generation's steps see their own.
 */
export function keepWorldForReload() {
  world.effects = [];
  world.effectsDropped = 0;
}

/** Resets the world from the Rust side's seed. */
export function seedWorld(seed = {}) {
  world.nodes = new Map();
  world.effects = [];
  world.effectsDropped = 0;
  world.written = new Set();
  world.cwd = normalizeAbsolute(seed.cwd ?? "/workspace");
  world.writable = [MACHINE.home, world.cwd, MACHINE.tmp];
  // The mods directory is where the mod itself sits (local.rs VIRTUAL_MOD_DIR, its import.meta.dir).
  for (const dir of ["/", MACHINE.home, `${MACHINE.home}/.letta/mods`, world.cwd, MACHINE.tmp]) ensureDir(dir);
  for (const [path, text] of Object.entries(seed.files ?? {})) {
    const absolute = resolvePath(path);
    ensureDir(parentOf(absolute));
    world.nodes.set(absolute, { kind: "file", data: utf8Encode(text), mtimeMs: clock.now, birthtimeMs: clock.now, mode: 0o100644 });
  }
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
  // A PATH a mod sets (process.env or a child's env) may put its own programs first.
  world.seededPath = String(world.env.PATH ?? "");
  world.commands = (seed.commands ?? []).map((command) => ({
    pattern: String(command.pattern),
    regex: Boolean(command.regex),
    stdout: command.stdout ?? "",
    stderr: command.stderr ?? "",
    exitCode: command.exitCode ?? 0,
  }));
  world.defaultOutput = seed.defaultOutput ?? null;
  captureRepository();
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
 * What mods changed of the virtual machine since it was seeded, as lifecycle.js summarises a
 * changed global (name, type, size): the process's environment and working directory. A
 * reload keeps them (as Letta's `/reload` runs in the same process), so state a mod adds there
 * on every load grows from one reload to the next. Files are not weighed: they are storage,
 * which a good mod may grow by use (a log a tool appends to), kept as a disk keeps them.
 */
export function machineChanges() {
  const changes = [];
  const env = envWeight(world.env);
  if (env !== seeded.env) changes.push({ name: "process.env", type: "object", size: env });
  if (world.cwd !== seeded.cwd) changes.push({ name: "process.cwd()", type: "string", size: world.cwd.length });
  return changes;
}

/** Whether a mod may create or change `path` (absolute, normalised). */
export function isWritable(path) {
  return world.writable.some((root) => path === root || path.startsWith(`${root}/`));
}

// ───────────────────────── commands ─────────────────────────
// A command line runs in the virtual shell (shell.js): sh's grammar and the common utilities
// over this world (those that change files through `fileChanges`, below: shell-files.js), and
// the git stub (shell-git.js) for a repository at the seeded working directory holding the
// seeded files in one commit.

/** The seeded repository: its root, the files of its one commit (copies), and that commit's time. */
let seededRepo = { root: "/workspace", tracked: new Map(), time: VIRTUAL_EPOCH_MS };

function captureRepository() {
  const tracked = new Map();
  const prefix = world.cwd === "/" ? "/" : `${world.cwd}/`;
  for (const [path, node] of world.nodes) {
    if (node.kind !== "file" || !path.startsWith(prefix) || path.slice(prefix.length).split("/").includes(".git")) continue;
    tracked.set(path, new Uint8Array(node.data));
  }
  // Committed when the virtual clock starts, whenever the seed comes: the same on every run.
  seededRepo = { root: world.cwd, tracked, time: VIRTUAL_EPOCH_MS };
}

/** Sets a file's content (text or bytes) the way node:fs does, with its effect; an error code when it cannot. */
function shellWrite(path, text, append) {
  const kind = append ? "file_append" : "file_write";
  const fail = (error) => {
    recordEffect({ kind, path, ok: false, error });
    return error;
  };
  const blocked = parentsProblem(path);
  if (blocked) return fail(blocked);
  const existing = world.nodes.get(path);
  if (existing?.kind === "dir") return fail("EISDIR");
  if (!isWritable(path)) return fail("EACCES");
  const bytes = typeof text === "string" ? utf8Encode(text) : text;
  if (existing) {
    if (append && bytes.length === 0) return null;
    const joined = append ? new Uint8Array(existing.data.length + bytes.length) : bytes;
    if (append) {
      joined.set(existing.data);
      joined.set(bytes, existing.data.length);
    }
    existing.data = joined;
    existing.mtimeMs = clock.now;
  } else {
    world.nodes.set(path, { kind: "file", data: bytes, mtimeMs: clock.now, birthtimeMs: clock.now, mode: 0o100644 });
    touchParent(path);
  }
  world.written.add(path);
  recordEffect({ kind, path, ok: true, bytes: bytes.length });
  return null;
}

// The file changes the shell's commands make (rm, mv, cp, mkdir, touch, ...: shell-files.js),
// each with the checks and the effect record of the node:fs call that makes it (node/fs.js's
// rmSync, rmdirSync, unlinkSync, renameSync, copyFileSync, mkdirSync, utimesSync, chmodSync),
// so the judge reads a shell's `rm -r ~/.ssh` as it reads a mod's fs.rmSync. Paths are
// absolute and normalised; each answers null, or the error code the fs call would throw.

/** Why `path`'s ancestors cannot hold it (ENOENT, ENOTDIR), or null: fs's checkParents. */
function parentsProblem(path) {
  for (let dir = parentOf(path); ; dir = parentOf(dir)) {
    const node = world.nodes.get(dir);
    if (!node) return "ENOENT";
    if (node.kind !== "dir") return "ENOTDIR";
    if (dir === "/") return null;
  }
}

function touchParent(path) {
  const parent = world.nodes.get(parentOf(path));
  if (parent) parent.mtimeMs = clock.now;
}

function hasChildren(path) {
  const prefix = path === "/" ? "/" : `${path}/`;
  for (const key of world.nodes.keys()) if (key !== path && key.startsWith(prefix)) return true;
  return false;
}

/** Deletes a node and all it holds, as fs.js's removeTree. */
function removeTree(path) {
  const prefix = `${path}/`;
  for (const key of [...world.nodes.keys()]) {
    if (key === path || key.startsWith(prefix)) {
      world.nodes.delete(key);
      world.written.delete(key);
    }
  }
  touchParent(path);
}

/** Runs a change and records its effect as fs.js's `guarded` does; answers its error code or null. */
function changed(kind, path, change, facts = create(null)) {
  const error = change();
  recordEffect(error ? { kind, path, ok: false, error } : { kind, path, ok: true, ...facts });
  return error ?? null;
}

/** The node at `path` or the code a lookup fails with (fs's nodeAt). */
const lookup = (path) => parentsProblem(path) ?? (world.nodes.has(path) ? null : "ENOENT");

const fileChanges = Object.freeze({
  /** rmSync(path, {recursive, force}). */
  rm: (path, { recursive = false, force = false } = {}) => changed("file_delete", path, () => {
    if (!world.nodes.has(path)) return force ? null : lookup(path);
    if (!isWritable(parentOf(path)) || path === "/") return "EACCES";
    if (world.nodes.get(path).kind === "dir" && !recursive) return "ERR_FS_EISDIR";
    removeTree(path);
    return null;
  }),
  /** rmdirSync(path). */
  rmdir: (path) => changed("file_delete", path, () => {
    const missing = lookup(path);
    if (missing) return missing;
    if (world.nodes.get(path).kind !== "dir") return "ENOTDIR";
    if (!isWritable(path) || path === "/") return "EACCES";
    if (hasChildren(path)) return "ENOTEMPTY";
    removeTree(path);
    return null;
  }),
  /** unlinkSync(path). */
  unlink: (path) => changed("file_delete", path, () => {
    const missing = lookup(path);
    if (missing) return missing;
    if (world.nodes.get(path).kind === "dir") return "EISDIR";
    if (!isWritable(path)) return "EACCES";
    removeTree(path);
    return null;
  }),
  /** renameSync(from, to): what rename(2) replaces it replaces, the rest it refuses. */
  rename: (from, to) => {
    const facts = create(null);
    return changed("rename", `${from} -> ${to}`, () => {
      const node = world.nodes.get(from);
      if (!node || !world.nodes.has(parentOf(to))) return "ENOENT";
      if (!isWritable(from) || !isWritable(to)) return "EACCES";
      if (to.startsWith(`${from}/`)) return "EINVAL";
      const replaced = world.nodes.get(to);
      if (replaced !== undefined && to !== from) {
        if (replaced.kind === "dir" && node.kind !== "dir") return "EISDIR";
        if (replaced.kind === "dir" && hasChildren(to)) return "ENOTEMPTY";
        if (replaced.kind !== "dir" && node.kind === "dir") return "ENOTDIR";
      }
      if (to === from) return null;
      // A rename over a file is that file's end: `replaced` says so to keeps_files.
      if (replaced !== undefined) facts.replaced = true;
      const prefix = `${from}/`;
      const moved = [...world.nodes].filter(([path]) => path === from || path.startsWith(prefix));
      removeTree(to);
      for (const [path] of moved) world.nodes.delete(path);
      for (const [path, entry] of moved) {
        const next = to + path.slice(from.length);
        world.nodes.set(next, entry);
        if (world.written.delete(path) || entry.kind === "file") world.written.add(next);
      }
      touchParent(from);
      touchParent(to);
      return null;
    }, facts);
  },
  /** copyFileSync(from, to): the source's read, then the target's write. */
  copyFile: (from, to) => {
    const facts = create(null);
    return changed("file_write", to, () => {
      const node = world.nodes.get(from);
      if (!node) return "ENOENT";
      if (node.kind === "dir") return "EISDIR";
      if (!world.nodes.has(parentOf(to))) return "ENOENT";
      if (!isWritable(to)) return "EACCES";
      world.nodes.set(to, { kind: "file", data: node.data.slice(), mtimeMs: clock.now, birthtimeMs: clock.now, mode: node.mode });
      world.written.add(to);
      facts.bytes = node.data.length;
      recordEffect({ kind: "file_read", path: from, ok: true });
      return null;
    }, facts);
  },
  /** mkdirSync(path), one directory. */
  mkdir: (path) => changed("mkdir", path, () => {
    const blocked = parentsProblem(path);
    if (blocked) return blocked;
    if (world.nodes.has(path)) return "EEXIST";
    if (!isWritable(path)) return "EACCES";
    world.nodes.set(path, { kind: "dir", mtimeMs: clock.now, birthtimeMs: clock.now, mode: 0o40755 });
    touchParent(path);
    return null;
  }),
  /** writeFileSync(path, bytes). */
  writeFile: (path, bytes) => shellWrite(path, bytes, false),
  /** utimesSync(path, _, mtime): no effect, as fs records none. */
  utimes: (path, mtimeMs) => {
    const missing = lookup(path);
    if (missing) return missing;
    world.nodes.get(path).mtimeMs = mtimeMs;
    return null;
  },
  /** chmodSync(path, mode): no effect, as fs records none. */
  chmod: (path, mode) => {
    const missing = lookup(path);
    if (missing) return missing;
    const node = world.nodes.get(path);
    node.mode = (node.mode & 0o170000) | (mode & 0o7777);
    return null;
  },
});

function scriptedAnswer(text) {
  for (const scripted of world.commands) {
    let matches;
    try {
      matches = scripted.regex ? new RegExp(scripted.pattern).test(text) : text.trim() === scripted.pattern.trim();
    } catch {
      matches = false;
    }
    if (matches) return { stdout: scripted.stdout, stderr: scripted.stderr, exitCode: scripted.exitCode };
  }
  return null;
}

/** What the shell sees of this world. */
const shellHost = {
  machine: MACHINE,
  resolve: (cwd, path) => normalizeAbsolute(path.startsWith("/") ? path : `${cwd}/${path}`),
  node: (path) => world.nodes.get(path),
  list(path) {
    if (world.nodes.get(path)?.kind !== "dir") return null;
    const prefix = path === "/" ? "/" : `${path}/`;
    const names = [];
    for (const key of world.nodes.keys()) {
      if (key !== path && key.startsWith(prefix) && !key.slice(prefix.length).includes("/")) names.push(key.slice(prefix.length));
    }
    return names;
  },
  files: () => [...world.nodes].filter(([, node]) => node.kind === "file").map(([path]) => path),
  read: (path) => utf8Decode(world.nodes.get(path).data),
  decode: (data) => utf8Decode(data),
  write: shellWrite,
  writable: (path) => isWritable(path),
  /** What rm, mv, cp, mkdir, touch, ... change the files with (null or an error code, each with fs's effect). */
  fs: fileChanges,
  scripted: scriptedAnswer,
  now: () => clock.now,
  repo: () => seededRepo,
  get defaultOutput() {
    return world.defaultOutput;
  },
};

/**
 * Answers `command` (a shell command line, or the line an argv is recorded as): the
 * scenario's scripted commands first, then the virtual shell; what the shell cannot model
 * gets the environment's default Bash output, or fails as a missing program would. With
 * `options.argv` the program runs without a shell (execFile, spawn, Bun.spawn); `options.cwd`
 * is the child's working directory, `options.shell` the shell of a command line. Nothing runs.
 */
export function simulateCommand(command, via, stdin, env, options = {}) {
  const text = String(command);
  let answer = scriptedAnswer(text);
  let executed = null;
  const cwd = options.cwd === undefined || options.cwd === null ? world.cwd : resolvePath(String(options.cwd));
  const childEnv = env !== null && typeof env === "object" ? env : world.env;
  if (answer === null) {
    const input = readInput(stdin) ?? "";
    const ran = Array.isArray(options.argv)
      ? runArgv(options.argv, shellHost, { cwd, env: childEnv, stdin: input })
      : runShellLine(text, shellHost, { cwd, env: childEnv, stdin: input, shell: typeof options.shell === "string" ? options.shell : "/bin/sh" });
    // A program the machine does not have fails as it always has here (a shell's 127), not with
    // Bun's ENOENT: the real machine has many programs this one does not model, and a mod that
    // runs one there has no reason to expect the spawn itself to fail.
    executed = ran.ran ?? null;
    if (!ran.notFound && ran.unsupported === undefined) answer = { stdout: ran.stdout, stderr: ran.stderr, exitCode: ran.exitCode };
  }
  if (answer === null && world.defaultOutput !== null) answer = { stdout: world.defaultOutput, stderr: "", exitCode: 0 };
  if (answer === null) {
    const program = text.trim().split(/\s+/)[0] ?? "";
    answer = { stdout: "", stderr: `/bin/sh: 1: ${program}: not found\n`, exitCode: 127 };
  }
  const input = commandInput(text, stdin, env);
  const record = { kind: "command", command: text, via, exitCode: answer.exitCode };
  if (input !== null) record.input = input;
  // What the virtual shell ran, expanded, for runs_command; a cut list fails `never` closed.
  if (executed !== null && executed.commands.length > 0) record.ran = executed.commands;
  if (executed?.cut) record.cut = true;
  const partial = executed?.partial ?? unreadRuns(options, childEnv);
  if (partial) record.partial = partial;
  recordEffect(record);
  return answer;
}

/** Shells whose grammar the virtual shell reads (a line run with any other `shell` is not sh's). */
const POSIX_SHELL = /^(\/(usr\/)?bin\/)?(sh|bash|dash|zsh|ksh)$/;

/** Variables that make a shell or git run what no command line names. */
const RUNNING_VARIABLES = /^(BASH_ENV|ENV|PROMPT_COMMAND|LD_PRELOAD|LD_LIBRARY_PATH|NODE_OPTIONS|GIT_.*|SHELLOPTS|BASHOPTS|IFS)$/;

/**
 * Why a command may run what neither its line nor the virtual shell's record shows: a `shell`
 * option that is not a POSIX shell, or an environment that changes PATH or names what a shell
 * or git runs on its own.
 */
function unreadRuns(options, env) {
  if (typeof options.shell === "string" && !POSIX_SHELL.test(options.shell)) return `it ran with ${options.shell} as its shell`;
  if (env === null || typeof env !== "object") return null;
  for (const name of keys(env)) {
    if (name === "PATH" ? String(env.PATH) !== world.seededPath : RUNNING_VARIABLES.test(name)) return `its environment sets ${name}`;
  }
  return null;
}

// Programs that run a script file named on their command line.
const SCRIPT_RUNNERS = new Set(["sh", "bash", "zsh", "dash", "ksh", "source", ".", "node", "bun", "deno", "python", "python3", "perl", "ruby"]);

/**
 * What else the command would read as commands: variables it expands from the
 * mod's `env` option, its standard input, or the script file it runs when that
 * is a file in the virtual machine (`sh x.sh`, `./x.sh`, `node x.js`).
 * runs_command looks at it too, so `rm -rf` cannot hide there.
 */
/**
 * What stands in the log for a child's input the host cannot read here (a Blob, a stream, a
 * descriptor): a shell reading it may run anything, and the judge reads a program word from a
 * variable as a command it cannot see (opaque).
 */
const UNREADABLE_INPUT = "$UNREADABLE_INPUT";

/** A child's input as text: a string, or bytes (any view, an ArrayBuffer); null for anything else. */
function readInput(stdin) {
  if (typeof stdin === "string") return stdin;
  if (ArrayBuffer.isView(stdin)) return utf8Decode(new Uint8Array(stdin.buffer, stdin.byteOffset, stdin.byteLength));
  if (stdin instanceof ArrayBuffer) return utf8Decode(new Uint8Array(stdin));
  return null;
}

function commandInput(text, stdin, env) {
  const parts = [];
  // Variables the mod passes that the command line expands (`eval "$CMD"`).
  if (env !== null && typeof env === "object") {
    for (const [name, value] of Object.entries(env)) {
      if (text.includes(`$${name}`) || text.includes(`\${${name}}`)) parts.push(String(value));
    }
  }
  if (stdin !== undefined && stdin !== null) parts.push(readInput(stdin) ?? UNREADABLE_INPUT);
  const words = text.trim().split(/\s+/);
  const script = SCRIPT_RUNNERS.has(words[0]) ? words.find((word, index) => index > 0 && !word.startsWith("-")) : words[0];
  if (script !== undefined && script !== "") {
    const node = world.nodes.get(resolvePath(script.replace(/^'(.*)'$/, "$1")));
    if (node?.kind === "file") parts.push(utf8Decode(node.data));
  }
  return parts.length === 0 ? null : parts.join("\n");
}

/** Work a mod leaves to run later that the host cannot see into; counted for the snapshot. */
export const deferred = { exitListeners: () => 0 };

/**
 * The world's part of the snapshot: the effects, and each file written since
 * the seed with its size and text (cut per file and in all; files past the
 * caps are only counted).
 */
export function worldSnapshot() {
  const files = create(null);
  let kept = 0;
  let budget = WRITTEN_TOTAL_LIMIT;
  let dropped = 0;
  for (const path of [...world.written].sort()) {
    const node = world.nodes.get(path);
    if (node?.kind !== "file") continue;
    if (kept >= WRITTEN_FILES_LIMIT || budget <= 0) {
      dropped++;
      continue;
    }
    const size = byteLength(node.data);
    const shown = apply(typedSubarray, node.data, [0, Math.min(WRITTEN_TEXT_LIMIT, budget)]);
    const shownSize = byteLength(shown);
    budget -= shownSize;
    kept++;
    files[path] = { bytes: size, text: utf8Decode(shown), truncated: shownSize < size };
  }
  return {
    cwd: world.cwd,
    home: MACHINE.home,
    effects: world.effects,
    effectsDropped: world.effectsDropped,
    writtenFiles: files,
    writtenFilesDropped: dropped,
    timersPending: clock.timers.size,
    exitListeners: deferred.exitListeners(),
  };
}
