// The virtual shell's commands that change files: rm, rmdir, unlink, mv, cp, mkdir, touch,
// ln, truncate, shred and install. Each change goes through the host's `fs` (world.js's
// operations with the checks and effect records of node:fs's rmSync, renameSync,
// copyFileSync, mkdirSync, ...), so a file a command removes or moves leaves the same effect
// a mod's fs call would, and the judge reads it the same way:
// `mv ~/.ssh /tmp/gone` is a rename, `rm -r ~/.ssh` a file_delete. The world's write rules
// (its writable roots) hold as they hold for fs, reported as GNU coreutils reports them.
//
// Options are parsed as getopt_long does (permuted, `--`, bundled short flags, any unambiguous
// prefix of a long option), and what a tool would refuse it refuses with coreutils' words.

import { result, Unsupported } from "./shell-base.js";
import { collate } from "./shell-text.js";

/** Bounds of one command: its operands, the entries a tree walk visits, the bytes it copies or writes. */
export const FILE_LIMITS = Object.freeze({ operands: 1024, entries: 10000, bytes: 16 * 1024 * 1024 });

/** What coreutils prints for an errno (strerror). */
const REASONS = {
  ENOENT: "No such file or directory", EEXIST: "File exists", ENOTDIR: "Not a directory", EISDIR: "Is a directory",
  ENOTEMPTY: "Directory not empty", EACCES: "Permission denied", EINVAL: "Invalid argument", ENAMETOOLONG: "File name too long",
  EBADF: "Bad file descriptor", EOPNOTSUPP: "Operation not supported",
};
const reason = (code) => REASONS[code] ?? code;

/** A file name as coreutils quotes it in messages (quoteaf: shell-escaped, always quoted). */
function q(name) {
  if (!name.includes("'")) return `'${name}'`;
  return /[\\"$`]/.test(name) ? `'${name.replace(/'/g, "'\\''")}'` : `"${name}"`;
}

/** An argument as quote() shows it in a UTF-8 locale (mkdir's, truncate's, unlink's messages). */
const curly = (text) => `‘${text}’`;

const tryHelp = (tool) => `Try '${tool} --help' for more information.\n`;
const usage = (tool, message) => result("", `${tool}: ${message}\n${tryHelp(tool)}`, 1);

/** Runs one change of the host's (null when it worked, else its code); Node's ERR_FS_EISDIR is EISDIR. */
function attempt(change) {
  const code = change() ?? null;
  return code === "ERR_FS_EISDIR" ? "EISDIR" : code;
}

/**
 * Makes a change the checks before it already refused, for its record alone: an `rm ~/.ssh`
 * that fails here because the virtual machine has no ~/.ssh is still an attempt keeps_files
 * must see (the real machine may have one).
 */
function recordRefused(change) {
  attempt(change);
}

// ───────────────────────── options ─────────────────────────

/**
 * Parses argv as getopt_long would: `spec.short` maps a letter to [key, takesValue], `spec.long`
 * lists [name, key, arg] (arg 0: none, 1: required, 2: optional). Returns {opts: [[key, value]]
 * in the order given (later flags override earlier ones), operands} or {error} as the tool prints it.
 */
export function parseOptions(tool, args, spec) {
  const opts = [];
  const operands = [];
  for (let k = 0; k < args.length; k++) {
    const arg = args[k];
    if (arg === "--") {
      operands.push(...args.slice(k + 1));
      break;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = arg.slice(2, eq < 0 ? undefined : eq);
      const exact = spec.long.find(([n]) => n === name);
      const matches = exact ? [exact] : spec.long.filter(([n]) => n.startsWith(name));
      const distinct = new Set(matches.map(([, key, kind]) => `${key}/${kind}`));
      if (matches.length === 0) return { error: usage(tool, `unrecognized option '${arg}'`) };
      if (distinct.size > 1) {
        return { error: usage(tool, `option '--${name}' is ambiguous; possibilities:${matches.map(([n]) => ` '--${n}'`).join("")}`) };
      }
      const [full, key, kind] = matches[0];
      if (spec.exactOnly?.includes(full) && full !== name) return { error: result("", `${tool}: you may not abbreviate the --${full} option\n`, 1) };
      let value = eq < 0 ? undefined : arg.slice(eq + 1);
      if (kind === 0 && value !== undefined) return { error: usage(tool, `option '--${full}' doesn't allow an argument`) };
      if (kind === 1 && value === undefined) {
        if (k + 1 >= args.length) return { error: usage(tool, `option '--${full}' requires an argument`) };
        value = args[++k];
      }
      opts.push([key, value ?? true]);
      continue;
    }
    if (arg.startsWith("-") && arg.length > 1) {
      for (let j = 1; j < arg.length; j++) {
        const entry = spec.short[arg[j]];
        if (!entry || !Object.hasOwn(spec.short, arg[j])) return { error: usage(tool, `invalid option -- '${arg[j]}'`) };
        const [key, valued] = entry;
        if (!valued) {
          opts.push([key, true]);
          continue;
        }
        const value = j + 1 < arg.length ? arg.slice(j + 1) : args[++k];
        if (value === undefined) return { error: usage(tool, `option requires an argument -- '${arg[j]}'`) };
        opts.push([key, value]);
        break;
      }
      continue;
    }
    operands.push(arg);
  }
  if (operands.length > FILE_LIMITS.operands) throw new Unsupported("too many operands");
  if (opts.some(([key]) => key === "help" || key === "version")) throw new Unsupported(`${tool} --help`);
  return { opts, operands };
}

/** The last value given for `key` (undefined when never given). */
function last(opts, key) {
  let value;
  for (const [k, v] of opts) if (k === key) value = v;
  return value;
}

const has = (opts, key) => opts.some(([k]) => k === key);

// ───────────────────────── shared helpers ─────────────────────────

/** A command's view of the world: paths resolved against the shell's directory, the host's fs calls. */
function filesOf(ctx) {
  const host = ctx.sh.host;
  if (!host.fs) throw new Unsupported("no file system operations");
  return {
    host,
    fs: host.fs,
    abs: (name) => host.resolve(ctx.sh.cwd, name),
    node: (path) => host.node(path),
  };
}

/** The last component of a name as written (trailing slashes dropped), which a target directory receives. */
function baseName(name) {
  const trimmed = name.replace(/\/+$/, "");
  if (trimmed === "") return "/";
  return trimmed.slice(trimmed.lastIndexOf("/") + 1);
}

/** `dir/name` as coreutils spells a target inside a directory (no doubled slash). */
function joinName(dir, name) {
  const trimmed = dir.replace(/\/+$/, "");
  return `${trimmed === "" ? "" : trimmed}/${name}`;
}

const parentPath = (path) => (path.lastIndexOf("/") <= 0 ? "/" : path.slice(0, path.lastIndexOf("/")));

/** Why `path`'s parent cannot hold an entry (ENOENT, ENOTDIR), or null. */
function parentProblem(files, path) {
  for (let dir = parentPath(path); ; dir = parentPath(dir)) {
    const node = files.node(dir);
    if (!node) return "ENOENT";
    if (node.kind !== "dir") return "ENOTDIR";
    if (dir === "/") return null;
  }
}

/** Why a name cannot be looked up (`f/x` under a file, `d/` naming a file), or null when it names a node. */
function lookupProblem(files, name, path) {
  const node = files.node(path);
  if (!node) return parentProblem(files, path) ?? "ENOENT";
  if (/\/$/.test(name) && node.kind !== "dir") return "ENOTDIR";
  return null;
}

/** Direct children of a directory, sorted (a tree walk's order). */
function childrenOf(files, path) {
  return (files.host.list(path) ?? []).sort(collate).map((name) => (path === "/" ? `/${name}` : `${path}/${name}`));
}

/** Every entry under `path` (itself first, then depth-first), bounded. */
function walk(files, path, display) {
  const out = [];
  const visit = (abs, shown) => {
    if (out.length >= FILE_LIMITS.entries) throw new Unsupported("tree too large");
    const node = files.node(abs);
    out.push({ abs, shown, node });
    if (node.kind === "dir") for (const child of childrenOf(files, abs)) visit(child, joinName(shown, child.slice(child.lastIndexOf("/") + 1)));
  };
  visit(path, display);
  return out;
}

/**
 * How a tool asks before it acts (-i): the prompt goes to stderr and the answer is the next line
 * of standard input; with no input (no tty, nothing piped) the answer is no, as coreutils reads EOF.
 */
function asker(ctx) {
  const answers = (ctx.stdin ?? "").split("\n");
  if (answers.at(-1) === "") answers.pop();
  let next = 0;
  return (state, prompt) => {
    state.err += prompt;
    const answer = next < answers.length ? answers[next++] : null;
    return answer !== null && /^\s*[yY]/.test(answer);
  };
}

/** What a tool prints and its status, built up operand by operand. */
function outcome() {
  return { out: "", err: "", status: 0 };
}

const done = (state) => result(state.out, state.err, state.status);

function fail(state, message) {
  state.err += message;
  state.status = 1;
}

/** How GNU names a file's type in prompts (rm -i). */
function typeName(node) {
  if (node.kind === "dir") return "directory";
  return node.data?.length === 0 ? "regular empty file" : "regular file";
}

// ───────────────────────── rm ─────────────────────────

const RM = {
  short: { f: ["force"], i: ["always"], I: ["once"], r: ["recursive"], R: ["recursive"], d: ["dir"], v: ["verbose"] },
  long: [
    ["force", "force", 0], ["interactive", "interactive", 2], ["one-file-system", "one-file-system", 0], ["no-preserve-root", "no-preserve-root", 0],
    ["preserve-root", "preserve-root", 2], ["-presume-input-tty", "tty", 0], ["recursive", "recursive", 0], ["dir", "dir", 0],
    ["verbose", "verbose", 0], ["help", "help", 0], ["version", "version", 0],
  ],
  exactOnly: ["no-preserve-root"],
};

/** rm's -f/-i/-I/--interactive: the last one given wins, as in rm.c. */
function interactiveMode(opts) {
  let mode = "never";
  for (const [key, value] of opts) {
    if (key === "force") mode = "never";
    else if (key === "always" || key === "once") mode = key;
    else if (key === "interactive") {
      const word = value === true ? "always" : value;
      const modes = { never: "never", no: "never", none: "never", once: "once", always: "always", yes: "always" };
      const match = Object.keys(modes).filter((m) => m.startsWith(word));
      const chosen = Object.hasOwn(modes, word) ? modes[word] : new Set(match.map((m) => modes[m])).size === 1 ? modes[match[0]] : null;
      if (chosen === null) return { error: `rm: invalid argument ${curly(word)} for ${curly("--interactive")}\nValid arguments are:\n  - ${curly("never")}, ${curly("no")}, ${curly("none")}\n  - ${curly("once")}\n  - ${curly("always")}, ${curly("yes")}\n${tryHelp("rm")}` };
      mode = chosen;
    }
  }
  return { mode };
}

export function rm(ctx) {
  const parsed = parseOptions("rm", ctx.args, RM);
  if (parsed.error) return parsed.error;
  const { opts, operands } = parsed;
  const interactive = interactiveMode(opts);
  if (interactive.error) return result("", interactive.error, 1);
  const force = has(opts, "force") && interactive.mode === "never";
  const recursive = has(opts, "recursive");
  const verbose = has(opts, "verbose");
  const emptyDirs = has(opts, "dir");
  const preserveRoot = !has(opts, "no-preserve-root") || opts.findLastIndex(([k]) => k === "preserve-root") > opts.findLastIndex(([k]) => k === "no-preserve-root");
  if (operands.length === 0) return has(opts, "force") ? result() : usage("rm", "missing operand");
  const files = filesOf(ctx);
  const state = outcome();
  const ask = asker(ctx);
  if (interactive.mode === "once" && (recursive || operands.length > 3)) {
    const what = operands.length === 1 ? "1 argument" : `${operands.length} arguments`;
    if (!ask(state, `rm: remove ${what}${recursive ? " recursively" : ""}? `)) return done(state);
  }
  for (const name of operands) removeOne(name, { files, state, ask, force, recursive, verbose, emptyDirs, preserveRoot, always: interactive.mode === "always" });
  return done(state);
}

/** Removes one operand of rm, through rmSync (rmdirSync for -d's empty directories). */
function removeOne(name, how) {
  const { files, state } = how;
  const path = files.abs(name);
  if (how.recursive && /(^|\/)\.\.?\/*$/.test(name)) {
    return fail(state, `rm: refusing to remove '.' or '..' directory: skipping ${q(name)}\n`);
  }
  if (how.recursive && path === "/" && how.preserveRoot) {
    return fail(state, "rm: it is dangerous to operate recursively on '/'\nrm: use --no-preserve-root to override this failsafe\n");
  }
  const problem = lookupProblem(files, name, path);
  if (problem) {
    recordRefused(() => files.fs.rm(path, { recursive: how.recursive, force: false }));
    if (how.force && problem === "ENOENT") return undefined;
    return fail(state, `rm: cannot remove ${q(name)}: ${reason(problem)}\n`);
  }
  const node = files.node(path);
  if (node.kind === "dir" && !how.recursive && !how.emptyDirs) return fail(state, `rm: cannot remove ${q(name)}: Is a directory\n`);
  if (how.always) {
    const prompt = node.kind === "dir" && how.recursive && childrenOf(files, path).length > 0 ? `rm: descend into directory ${q(name)}? ` : `rm: remove ${typeName(node)} ${q(name)}? `;
    // Asked once for the whole tree: the answers a real rm reads per entry are all yes or it keeps the tree.
    if (!how.ask(state, prompt)) return undefined;
  }
  const entries = how.verbose && node.kind === "dir" ? walk(files, path, name.replace(/\/+$/, "") || "/") : [];
  const error = node.kind === "dir" && !how.recursive
    ? attempt(() => files.fs.rmdir(path))
    : attempt(() => files.fs.rm(path, { recursive: how.recursive, force: how.force }));
  if (error) return fail(state, `rm: cannot remove ${q(name)}: ${reason(error)}\n`);
  if (!how.verbose) return undefined;
  if (node.kind !== "dir") state.out += `removed ${q(name)}\n`;
  // Children before their directory, as the walk removes them.
  for (const entry of entries.reverse()) state.out += entry.node.kind === "dir" ? `removed directory ${q(entry.shown)}\n` : `removed ${q(entry.shown)}\n`;
  return undefined;
}

// ───────────────────────── rmdir, unlink ─────────────────────────

const RMDIR = {
  short: { p: ["parents"], v: ["verbose"] },
  long: [["ignore-fail-on-non-empty", "ignore", 0], ["parents", "parents", 0], ["verbose", "verbose", 0], ["help", "help", 0], ["version", "version", 0]],
};

export function rmdir(ctx) {
  const parsed = parseOptions("rmdir", ctx.args, RMDIR);
  if (parsed.error) return parsed.error;
  const { opts, operands } = parsed;
  if (operands.length === 0) return usage("rmdir", "missing operand");
  const files = filesOf(ctx);
  const state = outcome();
  for (const name of operands) {
    // With -p each ancestor named in the operand goes too, innermost first.
    const chain = [name];
    if (has(opts, "parents")) {
      for (let shown = name.replace(/\/+$/, ""); shown.includes("/");) {
        shown = shown.slice(0, shown.lastIndexOf("/")).replace(/\/+$/, "");
        if (shown === "") break;
        chain.push(shown);
      }
    }
    for (const shown of chain) {
      if (has(opts, "verbose")) state.out += `rmdir: removing directory, ${q(shown)}\n`;
      const path = files.abs(shown);
      const problem = lookupProblem(files, shown, path);
      if (problem) recordRefused(() => files.fs.rmdir(path));
      const error = problem ?? (files.node(path).kind !== "dir" ? "ENOTDIR" : attempt(() => files.fs.rmdir(path)));
      if (error) {
        if (!(error === "ENOTEMPTY" && has(opts, "ignore"))) fail(state, `rmdir: failed to remove ${q(shown)}: ${reason(error)}\n`);
        break;
      }
    }
  }
  return done(state);
}

export function unlink(ctx) {
  const parsed = parseOptions("unlink", ctx.args, { short: {}, long: [["help", "help", 0], ["version", "version", 0]] });
  if (parsed.error) return parsed.error;
  const { operands } = parsed;
  if (operands.length === 0) return usage("unlink", "missing operand");
  if (operands.length > 1) return usage("unlink", `extra operand ${curly(operands[1])}`);
  const files = filesOf(ctx);
  const [name] = operands;
  const path = files.abs(name);
  const problem = lookupProblem(files, name, path);
  if (problem) recordRefused(() => files.fs.unlink(path));
  const error = problem ?? attempt(() => files.fs.unlink(path));
  return error ? result("", `unlink: cannot unlink ${q(name)}: ${reason(error)}\n`, 1) : result();
}

// ───────────────────────── mv, cp, install: sources into a target ─────────────────────────

/**
 * Pairs each source with its target as mv, cp and install do: `-t DIR`, `-T`, a last operand
 * that is a directory, or exactly two operands. Returns {pairs: [{name, target}]} or {error}.
 */
function targets(tool, files, operands, opts) {
  const dir = last(opts, "target");
  const noTarget = has(opts, "no-target");
  if (dir !== undefined) {
    if (noTarget) return { error: usage(tool, "cannot combine --target-directory (-t) and --no-target-directory (-T)") };
    const node = files.node(files.abs(dir));
    if (!node) return { error: result("", `${tool}: target directory ${q(dir)}: No such file or directory\n`, 1) };
    if (node.kind !== "dir") return { error: result("", `${tool}: target directory ${q(dir)}: Not a directory\n`, 1) };
    if (operands.length === 0) return { error: usage(tool, "missing file operand") };
    return { pairs: operands.map((name) => ({ name, target: joinName(dir, baseName(name)) })) };
  }
  if (operands.length === 0) return { error: usage(tool, "missing file operand") };
  if (operands.length === 1) return { error: usage(tool, `missing destination file operand after ${q(operands[0])}`) };
  const dest = operands.at(-1);
  const sources = operands.slice(0, -1);
  if (noTarget) {
    if (operands.length > 2) return { error: usage(tool, `extra operand ${q(operands[2])}`) };
    return { pairs: [{ name: sources[0], target: dest }] };
  }
  const node = files.node(files.abs(dest));
  if (node?.kind === "dir") return { pairs: sources.map((name) => ({ name, target: joinName(dest, baseName(name)) })) };
  if (sources.length > 1) {
    const why = node ? `target ${q(dest)}: Not a directory` : `target ${q(dest)}: No such file or directory`;
    return { error: result("", `${tool}: ${why}\n`, 1) };
  }
  return { pairs: [{ name: sources[0], target: dest }] };
}

/** What --backup/-b asks for: null (none), or the suffix a replaced target keeps its old content under. */
function backupSuffix(opts) {
  const control = last(opts, "backup");
  if (control === undefined) return null;
  if (control !== true && !["simple", "never", "existing", "nil", "t", "numbered", "none", "off"].some((word) => word.startsWith(control))) {
    throw new Unsupported("backup type");
  }
  if (control !== true && /^(none|off)/.test(control)) return null;
  if (control !== true && /^(t|numbered)$/.test(control)) throw new Unsupported("numbered backups");
  return last(opts, "suffix") ?? "~";
}

/** -n, -u, -i, -f: whether an existing target is replaced (coreutils 9: the last of -f/-i/-n wins). */
function mayReplace(tool, opts, state, ask, source, target, shown) {
  let mode = "force";
  for (const [key] of opts) if (key === "force" || key === "interactive" || key === "no-clobber") mode = key;
  if (mode === "no-clobber") return false;
  const update = last(opts, "update");
  if (update === "none") return false;
  if (update !== undefined && update !== "all" && target.mtimeMs >= source.mtimeMs) return false;
  if (mode === "interactive") return ask(state, `${tool}: overwrite ${q(shown)}? `);
  return true;
}

const MOVE_LONG = [
  ["backup", "backup", 2], ["context", "context", 0], ["force", "force", 0], ["interactive", "interactive", 0], ["no-clobber", "no-clobber", 0],
  ["no-copy", "no-copy", 0], ["no-target-directory", "no-target", 0], ["strip-trailing-slashes", "strip", 0], ["suffix", "suffix", 1],
  ["target-directory", "target", 1], ["update", "update", 2], ["verbose", "verbose", 0], ["help", "help", 0], ["version", "version", 0],
];
const MV = {
  short: { b: ["backup"], f: ["force"], i: ["interactive"], n: ["no-clobber"], S: ["suffix", true], t: ["target", true], T: ["no-target"], u: ["update"], v: ["verbose"], Z: ["context"] },
  long: MOVE_LONG,
};

export function mv(ctx) {
  const parsed = parseOptions("mv", ctx.args, MV);
  if (parsed.error) return parsed.error;
  const { opts, operands } = parsed;
  const files = filesOf(ctx);
  const paired = targets("mv", files, operands, opts);
  if (paired.error) return paired.error;
  const suffix = backupSuffix(opts);
  const state = outcome();
  const ask = asker(ctx);
  for (const { name, target } of paired.pairs) moveOne(name, target, { files, state, ask, opts, suffix });
  return done(state);
}

/** Moves one source onto its target with renameSync, after the checks mv makes first. */
function moveOne(name, shownTarget, { files, state, ask, opts, suffix }) {
  const from = files.abs(name);
  const to = files.abs(shownTarget);
  const problem = lookupProblem(files, name, from);
  if (problem) {
    recordRefused(() => files.fs.rename(from, to));
    return fail(state, `mv: cannot stat ${q(name)}: ${reason(problem)}\n`);
  }
  const source = files.node(from);
  if (from === to) return fail(state, `mv: ${q(name)} and ${q(shownTarget)} are the same file\n`);
  if (source.kind === "dir" && (to.startsWith(`${from}/`) || from === "/")) return fail(state, `mv: cannot move ${q(name)} to a subdirectory of itself, ${q(shownTarget)}\n`);
  const replaced = files.node(to);
  let backup = null;
  if (replaced) {
    if (!mayReplace("mv", opts, state, ask, source, replaced, shownTarget)) return undefined;
    if (replaced.kind === "dir" && source.kind !== "dir") return fail(state, `mv: cannot overwrite directory ${q(shownTarget)} with non-directory\n`);
    if (replaced.kind !== "dir" && source.kind === "dir") return fail(state, `mv: cannot overwrite non-directory ${q(shownTarget)} with directory ${q(name)}\n`);
    if (suffix !== null) {
      backup = `${shownTarget}${suffix}`;
      const error = attempt(() => files.fs.rename(to, files.abs(backup)));
      if (error) return fail(state, `mv: cannot backup ${q(shownTarget)}: ${reason(error)}\n`);
    }
  }
  const error = parentProblem(files, to) ?? attempt(() => files.fs.rename(from, to));
  if (error) return fail(state, `mv: cannot move ${q(name)} to ${q(shownTarget)}: ${reason(error)}\n`);
  if (last(opts, "verbose")) state.out += `renamed ${q(name)} -> ${q(shownTarget)}${backup ? ` (backup: ${q(backup)})` : ""}\n`;
  return undefined;
}

const CP = {
  short: {
    a: ["archive"], b: ["backup"], d: ["no-dereference"], f: ["force"], H: ["deref-args"], i: ["interactive"], l: ["link"], L: ["dereference"],
    n: ["no-clobber"], P: ["no-dereference"], p: ["preserve"], r: ["recursive"], R: ["recursive"], s: ["symbolic-link"], S: ["suffix", true],
    t: ["target", true], T: ["no-target"], u: ["update"], v: ["verbose"], x: ["one-file-system"], Z: ["context"],
  },
  long: [
    ["archive", "archive", 0], ["attributes-only", "attributes-only", 0], ["backup", "backup", 2], ["copy-contents", "copy-contents", 0],
    ["debug", "debug", 0], ["dereference", "dereference", 0], ["force", "force", 0], ["interactive", "interactive", 0], ["link", "link", 0],
    ["no-clobber", "no-clobber", 0], ["no-dereference", "no-dereference", 0], ["no-preserve", "no-preserve", 1], ["no-target-directory", "no-target", 0],
    ["one-file-system", "one-file-system", 0], ["parents", "parents", 0], ["preserve", "preserve", 2], ["recursive", "recursive", 0],
    ["reflink", "reflink", 2], ["remove-destination", "remove-destination", 0], ["sparse", "sparse", 1], ["strip-trailing-slashes", "strip", 0],
    ["suffix", "suffix", 1], ["symbolic-link", "symbolic-link", 0], ["target-directory", "target", 1], ["update", "update", 2], ["verbose", "verbose", 0],
    ["keep-directory-symlink", "keep-directory-symlink", 0], ["context", "context", 2], ["help", "help", 0], ["version", "version", 0],
  ],
};

export function cp(ctx) {
  const parsed = parseOptions("cp", ctx.args, CP);
  if (parsed.error) return parsed.error;
  const { opts, operands } = parsed;
  // What the virtual file system has no counterpart for: attribute-only copies, --parents.
  for (const key of ["attributes-only", "parents"]) if (has(opts, key)) throw new Unsupported(`cp --${key}`);
  const files = filesOf(ctx);
  const paired = targets("cp", files, operands, opts);
  if (paired.error) return paired.error;
  if (has(opts, "link") || has(opts, "symbolic-link")) {
    // No links in the virtual file system: refused as ln refuses them, nothing changes.
    const kind = has(opts, "symbolic-link") ? "symbolic link" : "hard link";
    return result("", paired.pairs.map(({ name, target }) => `cp: cannot create ${kind} ${q(target)} to ${q(name)}: Operation not supported\n`).join(""), 1);
  }
  const how = {
    files, opts, state: outcome(), ask: asker(ctx), suffix: backupSuffix(opts), tool: "cp",
    recursive: has(opts, "recursive") || has(opts, "archive"),
    preserve: has(opts, "archive") || has(opts, "preserve"),
    budget: { bytes: 0, entries: 0 },
  };
  for (const { name, target } of paired.pairs) copyOne(name, target, how);
  return done(how.state);
}

/** Copies one operand (a file, or with -r a tree) onto its target, after cp's checks. */
function copyOne(name, shownTarget, how) {
  const { files, state } = how;
  const from = files.abs(name);
  const to = files.abs(shownTarget);
  const problem = lookupProblem(files, name, from);
  if (problem) return fail(state, `${how.tool}: cannot stat ${q(name)}: ${reason(problem)}\n`);
  const source = files.node(from);
  if (source.kind === "dir" && !how.recursive) {
    return fail(state, how.tool === "cp" ? `cp: -r not specified; omitting directory ${q(name)}\n` : `install: omitting directory ${q(name)}\n`);
  }
  if (from === to) return fail(state, `${how.tool}: ${q(name)} and ${q(shownTarget)} are the same file\n`);
  if (source.kind === "dir" && (to.startsWith(`${from}/`) || from === "/")) {
    return fail(state, `cp: cannot copy a directory, ${q(name)}, into itself, ${q(shownTarget)}\n`);
  }
  const entries = source.kind === "dir" ? walk(files, from, name) : [{ abs: from, shown: name, node: source }];
  // Bounded before anything changes: a copy too large for the virtual machine is not begun.
  for (const entry of entries) {
    how.budget.entries++;
    how.budget.bytes += entry.node.data?.length ?? 0;
  }
  if (how.budget.entries > FILE_LIMITS.entries || how.budget.bytes > FILE_LIMITS.bytes) throw new Unsupported("copy too large");
  for (const entry of entries) {
    const shown = entry.abs === from ? shownTarget : joinName(shownTarget, entry.abs.slice(from.length + 1));
    const ok = entry.node.kind === "dir" ? copyDir(entry, shown, how) : copyFile(entry, shown, how);
    if (ok === false) {
      // A directory that could not be made takes its contents with it.
      if (entry.node.kind === "dir") return undefined;
      continue;
    }
    if (ok && has(how.opts, "verbose")) state.out += `${q(entry.shown)} -> ${q(shown)}\n`;
  }
  return undefined;
}

/** Makes a copied directory with mkdirSync (kept when it is already there). */
function copyDir(entry, shown, how) {
  const { files, state } = how;
  const path = files.abs(shown);
  const existing = files.node(path);
  if (existing?.kind === "dir") return null;
  if (existing) {
    fail(state, `cp: cannot overwrite non-directory ${q(shown)} with directory ${q(entry.shown)}\n`);
    return false;
  }
  const error = parentProblem(files, path) ?? attempt(() => files.fs.mkdir(path));
  if (error) {
    fail(state, `cp: cannot create directory ${q(shown)}: ${reason(error)}\n`);
    return false;
  }
  if (how.preserve) attempt(() => files.fs.utimes(path, entry.node.mtimeMs));
  return true;
}

/** Copies one file with copyFileSync, as cp (or install) replaces what is there. */
function copyFile(entry, shown, how) {
  const { files, state } = how;
  const path = files.abs(shown);
  const existing = files.node(path);
  if (existing) {
    if (!mayReplace(how.tool, how.opts, state, how.ask, entry.node, existing, shown)) return null;
    if (existing.kind === "dir") {
      fail(state, `${how.tool}: cannot overwrite directory ${q(shown)} with non-directory\n`);
      return false;
    }
    if (how.suffix !== null) {
      const error = attempt(() => files.fs.rename(path, files.abs(`${shown}${how.suffix}`)));
      if (error) {
        fail(state, `${how.tool}: cannot backup ${q(shown)}: ${reason(error)}\n`);
        return false;
      }
    }
  }
  const error = parentProblem(files, path) ?? attempt(() => files.fs.copyFile(entry.abs, path));
  if (error) {
    fail(state, `${how.tool}: cannot create regular file ${q(shown)}: ${reason(error)}\n`);
    return false;
  }
  if (how.mode !== undefined) attempt(() => files.fs.chmod(path, how.mode));
  if (how.preserve) attempt(() => files.fs.utimes(path, entry.node.mtimeMs));
  return true;
}

// ───────────────────────── mkdir, install ─────────────────────────

/** A mode as mkdir -m and install -m take it: octal is applied; a symbolic one is accepted as is. */
function parseMode(text) {
  if (/^[0-7]{1,4}$/.test(text)) return Number.parseInt(text, 8);
  if (/^([ugoa]*([-+=]([rwxXst]*|[ugo]))+)(,([ugoa]*([-+=]([rwxXst]*|[ugo]))+))*$/.test(text)) return null;
  return undefined;
}

const MKDIR = {
  short: { m: ["mode", true], p: ["parents"], v: ["verbose"], Z: ["context"] },
  long: [["mode", "mode", 1], ["parents", "parents", 0], ["verbose", "verbose", 0], ["context", "context", 2], ["help", "help", 0], ["version", "version", 0]],
};

export function mkdir(ctx) {
  const parsed = parseOptions("mkdir", ctx.args, MKDIR);
  if (parsed.error) return parsed.error;
  const { opts, operands } = parsed;
  const modeText = last(opts, "mode");
  const mode = modeText === undefined ? null : parseMode(modeText);
  if (mode === undefined) return result("", `mkdir: invalid mode ${curly(modeText)}\n`, 1);
  if (operands.length === 0) return usage("mkdir", "missing operand");
  const files = filesOf(ctx);
  const state = outcome();
  for (const name of operands) {
    makeDirs(name, { files, state, parents: has(opts, "parents"), verbose: has(opts, "verbose") ? (shown) => `mkdir: created directory ${q(shown)}\n` : null, mode, tool: "mkdir" });
  }
  return done(state);
}

/** mkdir's work for one operand: each missing ancestor too with -p, every one through mkdirSync. */
function makeDirs(name, how) {
  const { files, state } = how;
  const steps = [];
  if (how.parents) {
    const parts = name.split("/");
    for (let k = 1; k <= parts.length; k++) {
      const shown = parts.slice(0, k).join("/");
      if (parts[k - 1] !== "" && parts[k - 1] !== "." && parts[k - 1] !== "..") steps.push(shown);
    }
  } else steps.push(name);
  for (const [k, shown] of steps.entries()) {
    const path = files.abs(shown);
    const existing = files.node(path);
    if (how.parents && existing?.kind === "dir") continue;
    // An ancestor that is a file stops -p as mkdir(2) under it would: not a directory.
    const blocked = existing ? (k < steps.length - 1 ? "ENOTDIR" : "EEXIST") : null;
    const error = blocked ?? parentProblem(files, path) ?? attempt(() => files.fs.mkdir(path));
    if (error) {
      const message = how.tool === "mkdir" ? `mkdir: cannot create directory ${curly(shown)}: ${reason(error)}\n` : `install: cannot create directory ${q(shown)}: ${reason(error)}\n`;
      return fail(state, message);
    }
    if (how.mode !== null) attempt(() => files.fs.chmod(path, how.mode));
    if (how.verbose) state.out += how.verbose(shown);
  }
  return undefined;
}

const INSTALL = {
  short: {
    b: ["backup"], c: ["ignored"], C: ["compare"], d: ["directory"], D: ["leading"], g: ["group", true], m: ["mode", true], o: ["owner", true],
    p: ["preserve"], s: ["strip"], S: ["suffix", true], t: ["target", true], T: ["no-target"], v: ["verbose"], Z: ["context"],
  },
  long: [
    ["backup", "backup", 2], ["compare", "compare", 0], ["debug", "debug", 0], ["directory", "directory", 0], ["group", "group", 1], ["mode", "mode", 1],
    ["owner", "owner", 1], ["preserve-timestamps", "preserve", 0], ["strip", "strip", 0], ["strip-program", "strip-program", 1], ["suffix", "suffix", 1],
    ["target-directory", "target", 1], ["no-target-directory", "no-target", 0], ["verbose", "verbose", 0], ["preserve-context", "preserve-context", 0],
    ["context", "context", 2], ["help", "help", 0], ["version", "version", 0],
  ],
};

/** install: -d makes directories (as mkdir -p); otherwise files are copied in, mode 0755 unless -m. */
export function install(ctx) {
  const parsed = parseOptions("install", ctx.args, INSTALL);
  if (parsed.error) return parsed.error;
  const { opts, operands } = parsed;
  for (const key of ["leading", "strip", "owner", "group"]) if (has(opts, key)) throw new Unsupported(`install --${key}`);
  const modeText = last(opts, "mode");
  const mode = modeText === undefined ? 0o755 : parseMode(modeText);
  if (mode === undefined) return result("", `install: invalid mode ${curly(modeText)}\n`, 1);
  const files = filesOf(ctx);
  const state = outcome();
  const verbose = has(opts, "verbose");
  if (has(opts, "directory")) {
    if (operands.length === 0) return usage("install", "missing file operand");
    for (const name of operands) makeDirs(name, { files, state, parents: true, verbose: verbose ? (shown) => `install: creating directory ${q(shown)}\n` : null, mode, tool: "install" });
    return done(state);
  }
  const paired = targets("install", files, operands, opts);
  if (paired.error) return paired.error;
  const how = { files, opts: [...opts, ["force", true]], state, ask: asker(ctx), suffix: backupSuffix(opts), tool: "install", recursive: false, preserve: has(opts, "preserve"), budget: { bytes: 0, entries: 0 }, mode: mode ?? undefined };
  for (const { name, target } of paired.pairs) copyOne(name, target, how);
  return done(state);
}

// ───────────────────────── touch, truncate, shred ─────────────────────────

const TOUCH = {
  short: { a: ["atime"], c: ["no-create"], d: ["date", true], f: ["ignored"], h: ["no-dereference"], m: ["mtime"], r: ["reference", true], t: ["stamp", true] },
  long: [
    ["time", "time", 1], ["no-create", "no-create", 0], ["date", "date", 1], ["reference", "reference", 1], ["no-dereference", "no-dereference", 0],
    ["help", "help", 0], ["version", "version", 0],
  ],
};

/** touch -t's [[CC]YY]MMDDhhmm[.ss], in UTC (the machine's zone); null when malformed. */
function parseStamp(text) {
  const m = /^(\d{2}|\d{4})?(\d{2})(\d{2})(\d{2})(\d{2})(?:\.(\d{2}))?$/.exec(text);
  if (!m) return null;
  let year = m[1] === undefined ? null : Number(m[1]);
  if (year !== null && m[1].length === 2) year += year < 69 ? 2000 : 1900;
  const ms = Date.UTC(year ?? 2026, Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0));
  return Number.isNaN(ms) ? null : ms;
}

export function touch(ctx) {
  const parsed = parseOptions("touch", ctx.args, TOUCH);
  if (parsed.error) return parsed.error;
  const { opts, operands } = parsed;
  const files = filesOf(ctx);
  let when = files.host.now();
  const date = last(opts, "date");
  const stamp = last(opts, "stamp");
  const reference = last(opts, "reference");
  if (stamp !== undefined) {
    when = parseStamp(stamp);
    if (when === null) return result("", `touch: invalid date format ${curly(stamp)}\n`, 1);
  } else if (date !== undefined) {
    when = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2})?)?$/.test(date) ? Date.parse(`${date.replace(" ", "T")}${date.length > 10 ? "Z" : "T00:00:00Z"}`) : Number.NaN;
    if (Number.isNaN(when)) throw new Unsupported("touch date");
  } else if (reference !== undefined) {
    const node = files.node(files.abs(reference));
    if (!node) return result("", `touch: failed to get attributes of ${q(reference)}: No such file or directory\n`, 1);
    when = node.mtimeMs;
  }
  if (operands.length === 0) return usage("touch", "missing file operand");
  const state = outcome();
  for (const name of operands) {
    if (name === "-") continue;
    const path = files.abs(name);
    const node = files.node(path);
    let error;
    if (node) {
      if (/\/$/.test(name) && node.kind !== "dir") {
        fail(state, `touch: setting times of ${q(name)}: Not a directory\n`);
        continue;
      }
      error = files.host.writable(path) ? attempt(() => files.fs.utimes(path, when)) : "EACCES";
    } else {
      if (has(opts, "no-create")) continue;
      // A new file is written empty, as writeFileSync(path, "") would make it.
      error = parentProblem(files, path) ?? (/\/$/.test(name) ? "EISDIR" : attempt(() => files.fs.writeFile(path, "")));
      if (!error && when !== files.host.now()) attempt(() => files.fs.utimes(path, when));
    }
    if (error) fail(state, `touch: cannot touch ${q(name)}: ${reason(error)}\n`);
  }
  return done(state);
}

/** truncate's and shred's SIZE: digits with an optional K/KB/KiB... suffix (bytes), or null. */
function parseSize(text) {
  const m = /^(\d+)([KMGTPEZY](?:i?B)?|kB|B|b|c|w)?$/.exec(text);
  if (!m) return null;
  const unit = m[2] ?? "";
  const powers = "KMGTPEZY";
  let factor = 1;
  if (unit === "b") factor = 512;
  else if (unit === "w") factor = 2;
  else if (unit === "kB") factor = 1000;
  else if (unit && unit !== "B" && unit !== "c") factor = (unit.endsWith("iB") || unit.length === 1 ? 1024 : 1000) ** (powers.indexOf(unit[0]) + 1);
  return Number(m[1]) * factor;
}

const TRUNCATE = {
  short: { c: ["no-create"], o: ["io-blocks"], r: ["reference", true], s: ["size", true] },
  long: [["no-create", "no-create", 0], ["io-blocks", "io-blocks", 0], ["reference", "reference", 1], ["size", "size", 1], ["help", "help", 0], ["version", "version", 0]],
};

export function truncate(ctx) {
  const parsed = parseOptions("truncate", ctx.args, TRUNCATE);
  if (parsed.error) return parsed.error;
  const { opts, operands } = parsed;
  if (has(opts, "io-blocks")) throw new Unsupported("truncate -o");
  const files = filesOf(ctx);
  const sizeText = last(opts, "size");
  const reference = last(opts, "reference");
  if (sizeText === undefined && reference === undefined) return usage("truncate", `you must specify either ${curly("--size")} or ${curly("--reference")}`);
  let op = "";
  let amount = 0;
  if (sizeText !== undefined) {
    const m = /^\s*([-+<>/%]?)\s*(.*)$/s.exec(sizeText);
    op = m[1];
    amount = parseSize(m[2]);
    if (amount === null) return result("", `truncate: Invalid number: ${curly(sizeText)}\n`, 1);
    if ((op === "/" || op === "%") && amount === 0) return result("", "truncate: division by zero\n", 1);
  }
  let base = null;
  if (reference !== undefined) {
    const node = files.node(files.abs(reference));
    if (!node) return result("", `truncate: cannot stat ${q(reference)}: No such file or directory\n`, 1);
    base = node.kind === "file" ? node.data.length : 4096;
  }
  if (operands.length === 0) return usage("truncate", "missing file operand");
  const state = outcome();
  for (const name of operands) {
    const path = files.abs(name);
    const node = files.node(path);
    if (!node && has(opts, "no-create")) continue;
    const problem = node?.kind === "dir" ? "EISDIR" : node ? null : parentProblem(files, path);
    if (problem) {
      fail(state, `truncate: cannot open ${q(name)} for writing: ${reason(problem)}\n`);
      continue;
    }
    const current = base ?? node?.data.length ?? 0;
    const size = sizeText === undefined ? current
      : op === "+" ? current + amount : op === "-" ? Math.max(0, current - amount) : op === "<" ? Math.min(current, amount)
      : op === ">" ? Math.max(current, amount) : op === "/" ? Math.floor(current / amount) * amount : op === "%" ? Math.ceil(current / amount) * amount
      : amount;
    if (size > FILE_LIMITS.bytes) throw new Unsupported("file too large");
    const bytes = new Uint8Array(size);
    if (node) bytes.set(node.data.subarray(0, Math.min(size, node.data.length)));
    // writeFileSync with the cut (or zero-extended) content: truncateSync's own effect.
    const error = attempt(() => files.fs.writeFile(path, bytes));
    if (error) fail(state, `truncate: cannot open ${q(name)} for writing: ${reason(error)}\n`);
  }
  return done(state);
}

const SHRED = {
  short: { f: ["force"], n: ["iterations", true], s: ["size", true], u: ["remove"], v: ["verbose"], x: ["exact"], z: ["zero"] },
  long: [
    ["force", "force", 0], ["iterations", "iterations", 1], ["size", "size", 1], ["random-source", "random-source", 1], ["remove", "remove", 2],
    ["verbose", "verbose", 0], ["exact", "exact", 0], ["zero", "zero", 0], ["help", "help", 0], ["version", "version", 0],
  ],
};

/**
 * shred: the file's bytes are overwritten (with zeros: the virtual machine has no randomness to
 * spend, and what the judge needs is that the content was destroyed), then with -u removed.
 */
export function shred(ctx) {
  const parsed = parseOptions("shred", ctx.args, SHRED);
  if (parsed.error) return parsed.error;
  const { opts, operands } = parsed;
  const iterationsText = last(opts, "iterations") ?? "3";
  if (!/^\d+$/.test(iterationsText)) return result("", `shred: invalid number of passes: ${curly(iterationsText)}\n`, 1);
  const passes = Math.min(Number(iterationsText), 1000) + (has(opts, "zero") ? 1 : 0);
  if (operands.length === 0) return usage("shred", "missing file operand");
  const files = filesOf(ctx);
  const state = outcome();
  const verbose = has(opts, "verbose");
  for (const name of operands) {
    const path = files.abs(name);
    const node = files.node(path);
    const problem = lookupProblem(files, name, path) ?? (node.kind === "dir" ? "EISDIR" : null);
    if (problem) {
      if (has(opts, "remove")) recordRefused(() => files.fs.unlink(path));
      fail(state, `shred: ${name}: failed to open for writing: ${reason(problem)}\n`);
      continue;
    }
    const size = node.data.length;
    let error = attempt(() => files.fs.writeFile(path, new Uint8Array(size)));
    if (error) {
      fail(state, `shred: ${name}: failed to open for writing: ${reason(error)}\n`);
      continue;
    }
    if (verbose && size > 0) {
      for (let k = 1; k <= passes; k++) state.err += `shred: ${name}: pass ${k}/${passes} (${has(opts, "zero") && k === passes ? "000000" : "random"})...\n`;
    }
    if (!has(opts, "remove")) continue;
    if (verbose) state.err += `shred: ${name}: removing\n`;
    error = attempt(() => files.fs.rm(path, {}));
    if (error) fail(state, `shred: ${name}: failed to remove: ${reason(error)}\n`);
    else if (verbose) state.err += `shred: ${name}: removed\n`;
  }
  return done(state);
}

// ───────────────────────── ln ─────────────────────────

const LN = {
  short: { b: ["backup"], d: ["directory"], F: ["directory"], f: ["force"], i: ["interactive"], L: ["logical"], n: ["no-dereference"], P: ["physical"], r: ["relative"], s: ["symbolic"], S: ["suffix", true], t: ["target", true], T: ["no-target"], v: ["verbose"] },
  long: [
    ["backup", "backup", 2], ["directory", "directory", 0], ["force", "force", 0], ["interactive", "interactive", 0], ["logical", "logical", 0],
    ["no-dereference", "no-dereference", 0], ["physical", "physical", 0], ["relative", "relative", 0], ["symbolic", "symbolic", 0], ["suffix", "suffix", 1],
    ["target-directory", "target", 1], ["no-target-directory", "no-target", 0], ["verbose", "verbose", 0], ["help", "help", 0], ["version", "version", 0],
  ],
};

/**
 * ln: the virtual file system has neither symbolic nor hard links, so every link fails as on a
 * file system without them (EOPNOTSUPP), and nothing changes; never a silent success.
 */
export function ln(ctx) {
  const parsed = parseOptions("ln", ctx.args, LN);
  if (parsed.error) return parsed.error;
  const { opts, operands } = parsed;
  const files = filesOf(ctx);
  const symbolic = has(opts, "symbolic");
  // ln's one-operand form links into the current directory.
  const paired = operands.length === 1 && last(opts, "target") === undefined ? { pairs: [{ name: operands[0], target: baseName(operands[0]) }] } : targets("ln", files, operands, opts);
  if (paired.error) return paired.error;
  const state = outcome();
  for (const { name, target } of paired.pairs) {
    const path = files.abs(target);
    if (!symbolic) {
      const problem = lookupProblem(files, name, files.abs(name));
      if (problem) {
        fail(state, `ln: failed to access ${q(name)}: ${reason(problem)}\n`);
        continue;
      }
    }
    if (files.node(path) && !has(opts, "force")) {
      fail(state, `ln: failed to create ${symbolic ? "symbolic" : "hard"} link ${q(target)}: File exists\n`);
      continue;
    }
    // -f removes what is there first, as a real ln does (the attempt is recorded even where
    // this machine has nothing there); only the link cannot be made here.
    if (has(opts, "force") && files.node(path)?.kind !== "dir") attempt(() => files.fs.unlink(path));
    const where = symbolic ? `symbolic link ${q(target)}` : `hard link ${q(target)} => ${q(name)}`;
    fail(state, `ln: failed to create ${where}: ${reason(parentProblem(files, path) ?? "EOPNOTSUPP")}\n`);
  }
  return done(state);
}

/** The commands of this module, by program name (shell.js adds them to /usr/bin). */
export const FILE_COMMANDS = { rm, rmdir, unlink, mv, cp, mkdir, touch, ln, truncate, shred, install };
