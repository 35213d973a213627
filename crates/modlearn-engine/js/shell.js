// The virtual machine's shell: parses a command line as /bin/sh (dash) or bash would and runs
// it on the virtual world, with the common read-only utilities (echo, printf, test, ls, cat,
// head, tail, wc, cut, grep, sort, uniq, tr, sed, awk's field printing, date, ...) and the git
// stub (shell-git.js). Nothing reaches the host: files, environment and clock are the world's,
// handed in as `host` (world.js builds it).
//
// Everything is bounded (script size, tokens, nesting, commands run, stream sizes, regex
// work) and the interpreter is total: what it cannot parse fails as sh reports a syntax error,
// and what it cannot model (loops, here-documents, an unknown utility option) is reported as
// `unsupported`, which the caller answers as it did before there was a shell.
//
// The parts live in modules of their own: shell-base.js (limits, errors, shared helpers),
// shell-parse.js (lexer and parser), shell-text.js and shell-commands.js (the utilities),
// shell-files.js (rm, mv, cp, mkdir, touch, ...: the commands that change files, through the
// host's node:fs calls so they leave the effects a mod's fs call would).

import { cap, ExitSignal, ok, result, SHELL_LIMITS, SyntaxFailure, Unsupported } from "./shell-base.js";
import { lex, lexWord, parse } from "./shell-parse.js";
import { awk, collate, cut, escapeRegex, grep, headTail, POSIX_CLASSES, sed, sort, tr, uniq, wc } from "./shell-text.js";
import { basename, cat, cd, dashEcho, date, dirname, gnuEcho, id, ls, printenv, printf, seq, setBuiltin, testCommand, uname } from "./shell-commands.js";
import { runGit } from "./shell-git.js";
import { FILE_COMMANDS } from "./shell-files.js";

export { SHELL_LIMITS, Unsupported } from "./shell-base.js";
export { collate, posixRegex } from "./shell-text.js";
export { strftime } from "./shell-commands.js";

/** Where the utilities the virtual machine knows live (Debian/Ubuntu with a merged /usr). */
const BIN = "/usr/bin";

// ───────────────────────── expansion ─────────────────────────

function paramValue(sh, name) {
  if (name === "?") return String(sh.status);
  if (name === "$") return "4243";
  if (name === "!") return "";
  if (name === "-") return sh.flags.e ? "e" : "";
  if (name === "#") return String(sh.params.length);
  if (name === "0") return sh.argv0;
  if (name === "@" || name === "*") return sh.params.join(" ");
  if (/^[0-9]+$/.test(name)) return sh.params[Number(name) - 1];
  return Object.hasOwn(sh.vars, name) ? sh.vars[name] : undefined;
}

function globToRegex(pattern, anchored = true) {
  let out = "";
  for (let k = 0; k < pattern.length; k++) {
    const c = pattern[k];
    if (c === "\\" && k + 1 < pattern.length) out += escapeRegex(pattern[++k]);
    else if (c === "*") out += "[\\s\\S]*";
    else if (c === "?") out += "[\\s\\S]";
    else if (c === "[") {
      const end = pattern.indexOf("]", k + 2);
      if (end < 0) out += "\\[";
      else {
        let body = pattern.slice(k + 1, end);
        if (body[0] === "!") body = `^${body.slice(1)}`;
        out += `[${body.replace(/\\/g, "\\\\").replace(/\[:(\w+):\]/g, (_, cls) => POSIX_CLASSES[cls] ?? "")}]`;
        k = end;
      }
    } else out += escapeRegex(c);
  }
  return anchored ? `^${out}$` : out;
}

const escapeGlob = (s) => s.replace(/[\\*?[\]]/g, "\\$&");

function trimPattern(value, word, op, sh) {
  const pattern = expandToString(word, sh, true);
  const source = globToRegex(pattern, false);
  const greedy = op === "%%" || op === "##";
  if (op === "#" || op === "##") {
    for (let len = greedy ? value.length : 0; greedy ? len >= 0 : len <= value.length; len += greedy ? -1 : 1) {
      if (new RegExp(`^(?:${source})$`).test(value.slice(0, len))) return value.slice(len);
    }
    return value;
  }
  for (let start = greedy ? 0 : value.length; greedy ? start <= value.length : start >= 0; start += greedy ? 1 : -1) {
    if (new RegExp(`^(?:${source})$`).test(value.slice(start))) return value.slice(0, start);
  }
  return value;
}

/** Expands one parameter part to its text (undefined: unset and no default). */
function expandParam(part, sh) {
  let value = paramValue(sh, part.name);
  const op = part.op;
  if (op === "length") return String((value ?? "").length);
  if (op) {
    const colon = op.startsWith(":");
    const missing = value === undefined || (colon && value === "");
    const kind = colon ? op.slice(1) : op;
    if (kind === "-") return missing ? expandToString(part.word, sh) : value;
    if (kind === "=") {
      if (missing) {
        value = expandToString(part.word, sh);
        if (/^[A-Za-z_]/.test(part.name)) sh.vars[part.name] = value;
      }
      return value;
    }
    if (kind === "+") return missing ? "" : expandToString(part.word, sh);
    if (kind === "?") {
      if (missing) {
        const message = expandToString(part.word, sh) || (value === undefined ? "parameter not set" : "parameter null or not set");
        throw new ExitSignal(2, "", `${sh.prefix(sh.line)}${part.name}: ${message}\n`);
      }
      return value;
    }
    return trimPattern(value ?? "", part.word, op, sh);
  }
  if (value === undefined && sh.flags.u && !/^[@*]$/.test(part.name)) {
    throw new ExitSignal(2, "", `${sh.prefix(sh.line)}${part.name}: parameter not set\n`);
  }
  return value;
}

function commandSubstitution(script, sh) {
  if (sh.depth >= SHELL_LIMITS.depth) throw new Unsupported("nesting too deep");
  const child = subshell(sh);
  child.depth++;
  child.substitution = true;
  const run = runScript(script, child, "");
  sh.status = run.status;
  sh.lastSubstitution = run.status;
  sh.pendingErr += run.err;
  return run.out.replace(/\n+$/, "");
}

/** Expands a word's parts into pieces: {text, q (quoted), split (an unquoted expansion)}. */
function pieces(parts, sh) {
  const out = [];
  for (const part of parts) {
    if (part.k === "lit") out.push({ text: part.s, q: part.q, split: false });
    else if (part.k === "tilde") {
      const home = part.user === "" ? sh.vars.HOME ?? sh.host.machine.home : part.user === sh.host.machine.user ? sh.host.machine.home : null;
      out.push({ text: home ?? `~${part.user}`, q: true, split: false });
    } else if (part.k === "param") out.push({ text: expandParam(part, sh) ?? "", q: part.q, split: !part.q });
    else if (part.k === "cmd") out.push({ text: commandSubstitution(part.script, sh), q: part.q, split: !part.q });
    else if (part.k === "arith") out.push({ text: String(arithmetic(expandToString(lexWord(part.expr, 0, "inner", true).parts, sh), sh)), q: part.q, split: !part.q });
  }
  return out;
}

function expandToString(parts, sh, keepPattern = false) {
  return pieces(parts ?? [], sh).map((p) => (keepPattern && p.q ? escapeGlob(p.text) : p.text)).join("");
}

/** A word's fields: split where an unquoted expansion has blanks, then matched as a pattern. */
function expandFields(parts, sh) {
  const fields = [];
  let cur = { text: "", pat: "", has: false, glob: false };
  const flush = () => {
    if (cur.has) fields.push(cur);
    cur = { text: "", pat: "", has: false, glob: false };
  };
  const add = (text, quoted) => {
    cur.text += text;
    cur.pat += quoted ? escapeGlob(text) : text;
    if (!quoted && /[*?[]/.test(text)) cur.glob = true;
    if (text !== "" || quoted) cur.has = true;
  };
  for (const piece of pieces(parts, sh)) {
    if (!piece.split) add(piece.text, piece.q);
    else {
      const words = piece.text.split(/[ \t\n]+/);
      words.forEach((word, k) => {
        if (k > 0) flush();
        if (word) add(word, false);
      });
    }
  }
  flush();
  const expanded = [];
  for (const field of fields) {
    const matches = field.glob ? glob(field.pat, sh) : [];
    if (matches.length > 0) expanded.push(...matches);
    else expanded.push(field.text);
    if (expanded.length > SHELL_LIMITS.fields) throw new Unsupported("too many fields");
  }
  return expanded;
}

/** Pathname expansion on the virtual file system (sorted; hidden names only for a leading dot). */
function glob(pattern, sh) {
  const absolute = pattern.startsWith("/");
  const components = pattern.split("/").filter((c, k) => c !== "" || k === 0);
  let paths = [absolute ? "" : null];
  for (const component of absolute ? components.slice(1) : components) {
    const next = [];
    for (const prefix of paths) {
      const dir = prefix === null ? sh.cwd : prefix === "" ? "/" : sh.host.resolve(sh.cwd, prefix);
      if (!/[*?[]/.test(component.replace(/\\./g, ""))) {
        const name = component.replace(/\\(.)/g, "$1");
        const path = prefix === null ? name : `${prefix}/${name}`;
        if (sh.host.node(sh.host.resolve(sh.cwd, path))) next.push(path);
        continue;
      }
      const names = sh.host.list(dir) ?? [];
      let regex;
      try {
        regex = new RegExp(globToRegex(component));
      } catch {
        return [];
      }
      for (const name of names) {
        if (name.startsWith(".") && !component.startsWith(".")) continue;
        if (regex.test(name)) next.push(prefix === null ? name : `${prefix}/${name}`);
        if (next.length > SHELL_LIMITS.glob) return [];
      }
    }
    paths = next;
    if (paths.length === 0) return [];
  }
  return paths.filter((p) => p !== null && p !== "").sort(collate);
}

/** Integer arithmetic for `$((...))`: + - * / % comparisons, parentheses, variables. */
function arithmetic(expr, sh) {
  const tokens = expr.match(/\d+|[A-Za-z_][A-Za-z0-9_]*|<=|>=|==|!=|&&|\|\||[-+*/%()<>!]|\S/g) ?? [];
  if (tokens.length > 256) throw new Unsupported("arithmetic too long");
  let k = 0;
  const fail = () => {
    throw new ExitSignal(2, "", `${sh.prefix(sh.line)}arithmetic expression: expecting primary: "${expr}"\n`);
  };
  const primary = () => {
    const t = tokens[k++];
    if (t === undefined) fail();
    if (t === "(") {
      const value = or();
      if (tokens[k++] !== ")") fail();
      return value;
    }
    if (t === "-") return -primary();
    if (t === "+") return primary();
    if (t === "!") return primary() ? 0 : 1;
    if (/^\d+$/.test(t)) return Number(t);
    if (/^[A-Za-z_]/.test(t)) return Number.parseInt(sh.vars[t] ?? "0", 10) || 0;
    return fail();
  };
  const binary = (next, ops) => () => {
    let value = next();
    while (ops.includes(tokens[k])) {
      const op = tokens[k++];
      const right = next();
      if ((op === "/" || op === "%") && right === 0) throw new ExitSignal(2, "", `${sh.prefix(sh.line)}arithmetic expression: division by zero: "${expr}"\n`);
      value = op === "*" ? Math.imul(value, right) : op === "/" ? Math.trunc(value / right) : op === "%" ? value % right
        : op === "+" ? value + right : op === "-" ? value - right : op === "<" ? +(value < right) : op === ">" ? +(value > right)
        : op === "<=" ? +(value <= right) : op === ">=" ? +(value >= right) : op === "==" ? +(value === right) : op === "!=" ? +(value !== right)
        : op === "&&" ? +(value && right) : +(value || right);
    }
    return value;
  };
  const mul = binary(primary, ["*", "/", "%"]);
  const add = binary(mul, ["+", "-"]);
  const cmp = binary(add, ["<", ">", "<=", ">="]);
  const eq = binary(cmp, ["==", "!="]);
  const and = binary(eq, ["&&"]);
  const or = binary(and, ["||"]);
  const value = or();
  if (k !== tokens.length) fail();
  return value;
}

// ───────────────────────── execution ─────────────────────────

function subshell(sh) {
  return { ...sh, vars: Object.assign(Object.create(null), sh.vars), exported: new Set(sh.exported), flags: { ...sh.flags }, params: [...sh.params] };
}

function runScript(script, sh, stdin) {
  if (script.length > SHELL_LIMITS.script) throw new Unsupported("script too long");
  const tree = parse(lex(script, sh.bash));
  try {
    return runList(tree, sh, stdin);
  } catch (signal) {
    if (signal instanceof ExitSignal) return result(signal.out, signal.err, signal.status);
    throw signal;
  }
}

function runList(list, sh, stdin, cond = false) {
  let out = "";
  let err = "";
  let status = 0;
  for (const item of list.items) {
    try {
      const run = runAndOr(item.node, sh, stdin, cond);
      out = cap(out + run.out);
      err = cap(err + run.err);
      status = item.sep === "&" ? 0 : run.status;
      sh.status = status;
    } catch (signal) {
      if (signal instanceof ExitSignal) {
        signal.out = cap(out + signal.out);
        signal.err = cap(err + signal.err);
      }
      throw signal;
    }
  }
  return result(out, err, status);
}

function runAndOr(node, sh, stdin, cond) {
  let run = runPipeline(node.first, sh, stdin, cond || node.rest.length > 0);
  let out = run.out;
  let err = run.err;
  let status = run.status;
  sh.status = status;
  node.rest.forEach(({ op, node: next }, k) => {
    if ((op === "&&") === (status === 0)) {
      try {
        run = runPipeline(next, sh, stdin, cond || k < node.rest.length - 1);
      } catch (signal) {
        if (signal instanceof ExitSignal) {
          signal.out = cap(out + signal.out);
          signal.err = cap(err + signal.err);
        }
        throw signal;
      }
      out = cap(out + run.out);
      err = cap(err + run.err);
      status = run.status;
      sh.status = status;
    }
  });
  return result(out, err, status);
}

function runPipeline(node, sh, stdin, cond) {
  let input = stdin;
  let err = "";
  let status = 0;
  let failed = 0;
  let out = "";
  const single = node.cmds.length === 1;
  node.cmds.forEach((cmd, k) => {
    const run = runCommandNode(cmd, single ? sh : subshell(sh), input, cond || node.neg);
    if (!single && k < node.cmds.length - 1 && node.errs[k]) input = run.out + run.err;
    else {
      input = run.out;
      err = cap(err + run.err);
    }
    out = run.out;
    status = run.status;
    if (status !== 0) failed = status;
  });
  if (sh.flags.pipefail && failed !== 0) status = failed;
  if (node.neg) status = status === 0 ? 1 : 0;
  if (status !== 0 && sh.flags.e && !cond && !node.neg) throw new ExitSignal(status, out, err);
  return result(out, err, status);
}

function runCommandNode(node, sh, stdin, cond) {
  if (node.type === "group") {
    const table = openRedirects(node.redirs, sh);
    if (table.error) return table.error;
    const inner = node.subshell ? subshell(sh) : sh;
    if (node.subshell) inner.depth++;
    if (inner.depth > SHELL_LIMITS.depth) throw new Unsupported("nesting too deep");
    let run;
    try {
      run = runList(node.body, inner, table.stdin ?? stdin, cond);
    } catch (signal) {
      if (!(signal instanceof ExitSignal) || !node.subshell) throw signal;
      run = result(signal.out, signal.err, signal.status);
    }
    return route(run, table, sh);
  }
  return runSimple(node, sh, stdin);
}

function runSimple(node, sh, stdin) {
  if (++sh.budget.commands > SHELL_LIMITS.commands) throw new Unsupported("too many commands");
  sh.line = node.line;
  sh.pendingErr = "";
  sh.lastSubstitution = null;
  const fields = [];
  for (const word of node.words) fields.push(...expandFields(word, sh));
  const assigns = node.assigns.map(({ name, parts }) => [name, expandToString(parts, sh)]);
  const expansionErr = sh.pendingErr;
  const table = openRedirects(node.redirs, sh);
  if (table.error) return result("", expansionErr + table.error.err, table.error.status);
  if (fields.length === 0) {
    for (const [name, value] of assigns) sh.vars[name] = value;
    return route(result("", expansionErr, sh.lastSubstitution ?? 0), table, sh);
  }
  const env = environment(sh);
  for (const [name, value] of assigns) env[name] = value;
  const run = runCommand(fields, sh, env, table.stdin ?? stdin, assigns);
  return route(result(run.out, expansionErr + run.err, run.status), table, sh);
}

/** The exported variables, as a child process gets them. */
function environment(sh) {
  const env = Object.create(null);
  for (const name of sh.exported) if (Object.hasOwn(sh.vars, name)) env[name] = sh.vars[name];
  return env;
}

/** Opens a command's redirections left to right: a table of where fds 1 and 2 go, and stdin. */
function openRedirects(redirs, sh) {
  const table = { fds: { 1: { k: "out" }, 2: { k: "err" } }, stdin: null, error: null };
  for (const redir of redirs) {
    const target = expandToString(redir.target, sh);
    const op = redir.op;
    if (op === ">&" || op === "<&") {
      const fd = redir.fd ?? (op === ">&" ? 1 : 0);
      if (target === "-") table.fds[fd] = { k: "null" };
      else if (/^\d$/.test(target)) {
        if (op === "<&") continue;
        const source = table.fds[Number(target)];
        if (!source) {
          table.error = result("", `${sh.prefix(sh.line)}${target}: Bad file descriptor\n`, sh.bash ? 1 : 2);
          return table;
        }
        table.fds[fd] = source;
      } else if (op === ">&" && redir.fd === null && sh.bash) {
        const file = openFile(target, false, sh);
        if (file.error) return { ...table, error: file.error };
        table.fds[1] = file;
        table.fds[2] = file;
      } else {
        table.error = result("", `${sh.prefix(sh.line)}Syntax error: Bad fd number\n`, 2);
        return table;
      }
      continue;
    }
    if (op === "<" || op === "<>") {
      if ((redir.fd ?? 0) !== 0) continue;
      const read = readInput(target, sh);
      if (read.error) return { ...table, error: read.error };
      table.stdin = read.text;
      continue;
    }
    const file = openFile(target, op === ">>" || op === "&>>", sh);
    if (file.error) return { ...table, error: file.error };
    if (op === "&>" || op === "&>>") {
      table.fds[1] = file;
      table.fds[2] = file;
    } else table.fds[redir.fd ?? 1] = file;
  }
  return table;
}

function openFile(target, append, sh) {
  if (target === "/dev/null") return { k: "null" };
  if (target === "/dev/stdout" || target === "/dev/fd/1") return { k: "out" };
  if (target === "/dev/stderr" || target === "/dev/fd/2") return { k: "err" };
  if (target === "") return { error: result("", `${sh.prefix(sh.line)}cannot create : Directory nonexistent\n`, sh.bash ? 1 : 2) };
  const path = sh.host.resolve(sh.cwd, target);
  const error = sh.host.write(path, "", append);
  if (error) {
    const reason = error === "EACCES" ? "Permission denied" : error === "EISDIR" ? "Is a directory" : "Directory nonexistent";
    const message = sh.bash ? `bash: line ${sh.line}: ${target}: ${error === "EACCES" ? "Permission denied" : error === "EISDIR" ? "Is a directory" : "No such file or directory"}\n` : `${sh.prefix(sh.line)}cannot create ${target}: ${reason}\n`;
    return { error: result("", message, sh.bash ? 1 : 2) };
  }
  return { k: "file", path };
}

function readInput(target, sh) {
  if (target === "/dev/null") return { text: "" };
  const path = sh.host.resolve(sh.cwd, target);
  const node = sh.host.node(path);
  if (node?.kind === "file") return { text: sh.host.read(path) };
  const message = sh.bash ? `bash: line ${sh.line}: ${target}: ${node ? "Is a directory" : "No such file or directory"}\n` : `${sh.prefix(sh.line)}cannot open ${target}: ${node ? "Is a directory" : "No such file"}\n`;
  return { error: result("", message, sh.bash ? 1 : 2) };
}

function route(run, table, sh) {
  let out = "";
  let err = "";
  for (const [fd, text] of [[1, run.out], [2, run.err]]) {
    if (!text) continue;
    const target = table.fds[fd];
    if (target.k === "out") out += text;
    else if (target.k === "err") err += text;
    else if (target.k === "file") sh.host.write(target.path, text, true);
  }
  return result(out, err, run.status);
}

// ───────────────────────── commands ─────────────────────────

/** How the shell prefixes its own messages. */
function prefixer(argv0, bash) {
  return (line) => (bash ? `${argv0}: line ${line}: ` : `${argv0}: ${line}: `);
}

function notFound(name, sh) {
  // What a program this machine lacks would print becomes another command's words there.
  if (sh.substitution) sh.budget.ran.partial ??= `its output of \`${name}\`, a program the virtual machine does not have, became words of a command`;
  if (sh.host.defaultOutput !== null) return result(sh.host.defaultOutput, "", 0);
  return result("", sh.bash ? `${sh.argv0}: line ${sh.line}: ${name}: command not found\n` : `${sh.prefix(sh.line)}${name}: not found\n`, 127);
}

function quoteWord(word) {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

/** How many simple commands a line's record keeps, and how much of each (runs_command reads them). */
const RAN_LIMITS = { commands: 16, chars: 256 };

function runCommand(argv, sh, env, stdin, assigns = []) {
  const [name, ...args] = argv;
  // The command as it ran, its words expanded: `F=-rf; rm $F dir` ran `rm -rf dir`.
  const { ran } = sh.budget;
  const words = argv.map(quoteWord).join(" ");
  if (ran.commands.length < RAN_LIMITS.commands && words.length <= RAN_LIMITS.chars) ran.commands.push(words);
  else ran.cut = true;
  // What the scenario scripts for this command answers it wherever it stands in the line.
  const scripted = sh.host.scripted(words);
  if (scripted) return result(scripted.stdout, scripted.stderr, scripted.exitCode);
  const ctx = { sh, env, stdin, args, name };
  if (Object.hasOwn(BUILTINS, name)) {
    const run = BUILTINS[name](ctx, assigns);
    return run;
  }
  if (name.includes("/")) return runPath(name, args, sh, stdin);
  return notFound(name, sh);
}

/** `./x.sh` and `/path/to/prog`: a virtual file is not executable (seeded files are 0644). */
function runPath(name, args, sh) {
  const node = sh.host.node(sh.host.resolve(sh.cwd, name));
  if (!node) return notFound(name, sh);
  if (node.kind === "dir" || (node.mode & 0o111) === 0) {
    return result("", sh.bash ? `${sh.argv0}: line ${sh.line}: ${name}: ${node.kind === "dir" ? "Is a directory" : "Permission denied"}\n` : `${sh.prefix(sh.line)}${name}: Permission denied\n`, 126);
  }
  throw new Unsupported("executable file");
}

function env(ctx) {
  const args = [...ctx.args];
  const vars = Object.assign(Object.create(null), ctx.env);
  while (args.length > 0) {
    if (args[0] === "-i" || args[0] === "-" || args[0] === "--ignore-environment") {
      for (const key of Object.keys(vars)) delete vars[key];
      args.shift();
    } else if (args[0] === "-u") {
      args.shift();
      delete vars[args.shift()];
    } else if (/^[^=\s-][^=]*=/.test(args[0])) {
      const text = args.shift();
      const index = text.indexOf("=");
      vars[text.slice(0, index)] = text.slice(index + 1);
    } else if (args[0] === "--") { args.shift(); break; }
    else if (args[0].startsWith("-")) throw new Unsupported("env option");
    else break;
  }
  if (args.length === 0) return ok(Object.entries(vars).map(([k, v]) => `${k}=${v}\n`).join(""));
  const child = subshell(ctx.sh);
  child.vars = Object.assign(Object.create(null), vars);
  child.exported = new Set(Object.keys(vars));
  if (!Object.hasOwn(EXTERNALS_SET, args[0]) && !args[0].includes("/")) {
    if (ctx.sh.host.defaultOutput !== null) return ok(ctx.sh.host.defaultOutput);
    return result("", `env: ‘${args[0]}’: No such file or directory\n`, 127);
  }
  return runCommand(args, child, vars, ctx.stdin);
}

function whichCommand(ctx) {
  const names = ctx.args.filter((a) => !a.startsWith("-"));
  let out = "";
  let status = names.length === 0 ? 1 : 0;
  for (const name of names) {
    const path = programPath(name, ctx.sh);
    if (path) out += `${path}\n`;
    else status = 1;
  }
  return result(out, "", status);
}

/** Where a program the virtual machine knows lives, or null. */
function programPath(name, sh) {
  if (name.includes("/")) {
    const node = sh.host.node(sh.host.resolve(sh.cwd, name));
    return node?.kind === "file" && (node.mode & 0o111) !== 0 ? name : null;
  }
  return Object.hasOwn(EXTERNALS_SET, name) ? `${BIN}/${name}` : null;
}

function commandBuiltin(ctx, assigns) {
  const args = [...ctx.args];
  let mode = null;
  while (args[0]?.startsWith("-") && args[0] !== "-" && args[0] !== "--") {
    const flag = args.shift();
    if (flag === "-v") mode = "v";
    else if (flag === "-V") mode = "V";
    else if (flag !== "-p") throw new Unsupported("command option");
  }
  if (args[0] === "--") args.shift();
  if (mode === null) {
    if (args.length === 0) return ok();
    return runCommand(args, ctx.sh, ctx.env, ctx.stdin, assigns);
  }
  let out = "";
  let err = "";
  let status = 0;
  for (const name of args) {
    if (Object.hasOwn(SHELL_BUILTINS, name)) out += mode === "v" ? `${name}\n` : `${name} is a shell builtin\n`;
    else {
      const path = programPath(name, ctx.sh);
      if (path) out += mode === "v" ? `${path}\n` : `${name} is ${path}\n`;
      else {
        status = ctx.sh.bash ? 1 : 127;
        if (mode === "V") err += ctx.sh.bash ? `${ctx.sh.argv0}: line ${ctx.sh.line}: command: ${name}: not found\n` : `${name}: not found\n`;
      }
    }
  }
  return result(out, err, status);
}

function typeBuiltin(ctx) {
  let out = "";
  let err = "";
  let status = 0;
  for (const name of ctx.args) {
    if (Object.hasOwn(SHELL_BUILTINS, name)) out += `${name} is a shell builtin\n`;
    else {
      const path = programPath(name, ctx.sh);
      if (path) out += `${name} is ${path}\n`;
      else {
        status = ctx.sh.bash ? 1 : 127;
        if (ctx.sh.bash) err += `${ctx.sh.argv0}: line ${ctx.sh.line}: type: ${name}: not found\n`;
        else out += `${name}: not found\n`;
      }
    }
  }
  return result(out, err, status);
}

function shBuiltin(ctx, bash) {
  const args = [...ctx.args];
  let script = null;
  const flags = [];
  while (args.length > 0 && /^[-+][a-zA-Z]+$/.test(args[0])) {
    const flag = args.shift();
    if (flag.includes("c")) script = "pending";
    flags.push(flag);
  }
  if (flags.some((flag) => /[^ceu]/.test(flag.slice(1)))) throw new Unsupported("shell option");
  if (ctx.sh.depth >= SHELL_LIMITS.depth) throw new Unsupported("nesting too deep");
  const name = bash ? "bash" : "sh";
  let argv0 = name;
  let text;
  if (script === "pending") {
    if (args.length === 0) return result("", `${name}: -c: option requires an argument\n`, 2);
    text = args.shift();
    if (args.length > 0) argv0 = args.shift();
  } else if (args.length > 0) {
    const file = args.shift();
    const path = ctx.sh.host.resolve(ctx.sh.cwd, file);
    const node = ctx.sh.host.node(path);
    if (node?.kind !== "file") return result("", bash ? `bash: ${file}: No such file or directory\n` : `sh: 0: cannot open ${file}: No such file\n`, bash ? 127 : 2);
    text = ctx.sh.host.read(path);
    argv0 = file;
  } else text = ctx.stdin;
  const child = newShell(ctx.sh.host, { argv0, bash, cwd: ctx.sh.cwd, env: ctx.env, params: args, depth: ctx.sh.depth + 1, budget: ctx.sh.budget });
  for (const flag of flags) for (const c of flag.slice(1)) if (c !== "c") child.flags[c] = flag[0] === "-";
  return runParsed(text, child, ctx.stdin);
}

/** Runs a script in a fresh shell: syntax errors come back as the shell reports them. */
function runParsed(text, sh, stdin) {
  try {
    return runScript(text, sh, stdin);
  } catch (error) {
    if (error instanceof SyntaxFailure) {
      // A real shell runs the lines before the error; this one runs none.
      sh.budget.ran.partial ??= `a syntax error (${error.message}), where a real shell runs the commands before it`;
      const message = sh.bash ? `${sh.argv0}: -c: line 1: syntax error: ${error.message}\n` : `${sh.prefix(1)}Syntax error: ${error.message}\n`;
      return result("", message, 2);
    }
    throw error;
  }
}

const SHELL_BUILTINS = {
  cd, pwd: (ctx) => ok(`${ctx.sh.cwd}\n`), ":": () => ok(), true: () => ok(), false: () => result("", "", 1),
  echo: (ctx) => ok(ctx.sh.bash ? gnuEcho(ctx.args) : dashEcho(ctx.args)), printf, test: (ctx) => testCommand(ctx, false), "[": (ctx) => testCommand(ctx, true),
  exit: (ctx) => {
    const code = ctx.args[0] === undefined ? ctx.sh.status : Number(ctx.args[0]);
    if (!Number.isInteger(code)) throw new ExitSignal(2, "", `${ctx.sh.prefix(ctx.sh.line)}exit: Illegal number: ${ctx.args[0]}\n`);
    throw new ExitSignal(((code % 256) + 256) % 256);
  },
  export: (ctx) => {
    for (const arg of ctx.args) {
      if (arg.startsWith("-")) throw new Unsupported("export option");
      const index = arg.indexOf("=");
      const name = index < 0 ? arg : arg.slice(0, index);
      if (index >= 0) ctx.sh.vars[name] = arg.slice(index + 1);
      ctx.sh.exported.add(name);
    }
    return ok();
  },
  unset: (ctx) => {
    for (const name of ctx.args.filter((a) => !a.startsWith("-"))) {
      delete ctx.sh.vars[name];
      ctx.sh.exported.delete(name);
    }
    return ok();
  },
  set: setBuiltin,
  command: commandBuiltin,
  type: typeBuiltin,
  exec: (ctx, assigns) => {
    if (ctx.args.length === 0) return ok();
    const run = runCommand(ctx.args, ctx.sh, ctx.env, ctx.stdin, assigns);
    throw new ExitSignal(run.status, run.out, run.err);
  },
};

/** Programs in /usr/bin the virtual machine answers. */
const EXTERNALS = {
  ls, cat, head: (ctx) => headTail(ctx, false), tail: (ctx) => headTail(ctx, true), wc, cut, grep, egrep: (ctx) => grep({ ...ctx, args: ["-E", ...ctx.args] }),
  fgrep: (ctx) => grep({ ...ctx, args: ["-F", ...ctx.args] }), sort, uniq, tr, awk, sed, basename, dirname, date, env, printenv, uname, id, seq,
  whoami: (ctx) => ok(`${ctx.sh.host.machine.user}\n`), hostname: (ctx) => ok(`${ctx.sh.host.machine.hostname}\n`),
  which: whichCommand, sleep: () => ok(),
  realpath: (ctx) => {
    let out = "";
    let err = "";
    for (const arg of ctx.args.filter((a) => !a.startsWith("-"))) {
      const path = ctx.sh.host.resolve(ctx.sh.cwd, arg);
      if (ctx.sh.host.node(path)) out += `${path}\n`;
      else err += `realpath: ${arg}: No such file or directory\n`;
    }
    return result(out, err, err ? 1 : 0);
  },
  sh: (ctx) => shBuiltin(ctx, false), dash: (ctx) => shBuiltin(ctx, false), bash: (ctx) => shBuiltin(ctx, true),
  git: (ctx) => runGit(ctx.args, { cwd: ctx.sh.cwd, host: ctx.sh.host, env: ctx.env, ran: ctx.sh.budget.ran }),
  echo: (ctx) => ok(gnuEcho(ctx.args)), printf, true: () => ok(), false: () => result("", "", 1), pwd: (ctx) => ok(`${ctx.sh.cwd}\n`),
  test: (ctx) => testCommand(ctx, false), "[": (ctx) => testCommand(ctx, true),
  ...FILE_COMMANDS,
};
const EXTERNALS_SET = Object.assign(Object.create(null), Object.fromEntries(Object.keys(EXTERNALS).map((k) => [k, true])));
const BUILTINS = Object.assign(Object.create(null), EXTERNALS, SHELL_BUILTINS);

function newShell(host, { argv0, bash, cwd, env, params = [], depth = 0, budget = { commands: 0, ran: { commands: [], cut: false, partial: null } } }) {
  const vars = Object.create(null);
  for (const [name, value] of Object.entries(env ?? {})) vars[name] = String(value);
  vars.PWD = cwd;
  return {
    host, bash, argv0, cwd, vars, exported: new Set(Object.keys(vars)), params, depth, budget,
    flags: { e: false, u: false, pipefail: false }, status: 0, line: 1, pendingErr: "", lastSubstitution: null,
    prefix: prefixer(argv0, bash),
  };
}

/**
 * Runs a command line as `/bin/sh -c` (or bash, `shell` naming it) would. Returns
 * {stdout, stderr, exitCode} or {unsupported: reason} for what the shell cannot model.
 */
export function runShellLine(text, host, { shell = "/bin/sh", cwd, env, stdin = "" } = {}) {
  const bash = /(^|\/)bash$/.test(shell);
  const sh = newShell(host, { argv0: bash ? "bash" : shell, bash, cwd, env });
  return finish(() => runParsed(text, sh, stdin), sh);
}

/**
 * Runs a program with its arguments, no shell between (execFile, spawn, Bun.spawn). Returns
 * {stdout, stderr, exitCode}, {notFound: true} when no such program is on the PATH, or
 * {unsupported} as runShellLine does.
 */
export function runArgv(argv, host, { cwd, env, stdin = "" } = {}) {
  const name = argv[0] ?? "";
  const sh = newShell(host, { argv0: "sh", bash: false, cwd, env });
  if (!Object.hasOwn(EXTERNALS_SET, name) && !name.includes("/")) {
    if (host.defaultOutput !== null) return { stdout: host.defaultOutput, stderr: "", exitCode: 0 };
    return { notFound: true };
  }
  if (name.includes("/") && !host.node(host.resolve(cwd, name))) return { notFound: true };
  return finish(() => runCommand(argv, sh, Object.assign(Object.create(null), env ?? {}), stdin), sh);
}

/** Whether the virtual machine has this program on its PATH (Bun.which). */
export function whichProgram(name) {
  return Object.hasOwn(EXTERNALS_SET, name) ? `${BIN}/${name}` : null;
}

/** The shell's answer, with `ran`: the simple commands it ran, and whether that list is cut. */
function finish(run, sh) {
  const { ran } = sh.budget;
  try {
    const done = run();
    return { stdout: done.out, stderr: done.err, exitCode: done.status, ran };
  } catch (error) {
    if (error instanceof ExitSignal) return { stdout: cap(error.out), stderr: cap(error.err), exitCode: error.status, ran };
    if (error instanceof Unsupported) {
      ran.partial ??= `${error.message}, which the virtual shell does not run, so it stopped there`;
      return { unsupported: error.message, ran };
    }
    // Anything else is a gap in this interpreter: answered as it was before there was one.
    return { unsupported: `internal: ${error && error.message}`, ran };
  }
}
