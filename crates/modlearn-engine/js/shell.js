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

import { runGit } from "./shell-git.js";

export const SHELL_LIMITS = Object.freeze({
  script: 64 * 1024,
  tokens: 8192,
  depth: 12,
  commands: 512,
  stream: 1024 * 1024,
  fields: 4096,
  glob: 1000,
  width: 4096,
  regexInput: 256 * 1024,
});

/** Where the utilities the virtual machine knows live (Debian/Ubuntu with a merged /usr). */
const BIN = "/usr/bin";

export class Unsupported extends Error {}
class SyntaxFailure extends Error {}
class ExitSignal {
  constructor(status, out = "", err = "") {
    this.status = status;
    this.out = out;
    this.err = err;
  }
}

const cap = (text) => (text.length > SHELL_LIMITS.stream ? text.slice(0, SHELL_LIMITS.stream) : text);
const result = (out = "", err = "", status = 0) => ({ out: cap(out), err: cap(err), status });

// ───────────────────────── lexer ─────────────────────────

const REDIR_OPS = ["<<-", "&>>", "<<", ">>", ">&", "<&", "<>", ">|", "&>", "<", ">"];
const CONTROL_OPS = ["&&", "||", ";;", "|&", ";", "&", "|", "(", ")"];
const isMeta = (c) => c === " " || c === "\t" || c === "\n" || c === ";" || c === "&" || c === "|" || c === "<" || c === ">" || c === "(" || c === ")";
const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;

function lex(src, bash) {
  const tokens = [];
  let i = 0;
  let line = 1;
  const n = src.length;
  while (i < n) {
    if (tokens.length > SHELL_LIMITS.tokens) throw new Unsupported("too many tokens");
    const c = src[i];
    if (c === " " || c === "\t" || c === "\r") { i++; continue; }
    if (c === "\\" && src[i + 1] === "\n") { i += 2; line++; continue; }
    if (c === "\n") { tokens.push({ t: "op", v: "\n", line }); line++; i++; continue; }
    if (c === "#") { while (i < n && src[i] !== "\n") i++; continue; }
    const fd = /^(\d+)(?=[<>])/.exec(src.slice(i, i + 12));
    let start = i;
    let fdNumber = null;
    if (fd) { fdNumber = Number(fd[1]); start = i + fd[1].length; }
    const redir = REDIR_OPS.find((op) => src.startsWith(op, start) && (bash || !op.startsWith("&")));
    if (redir && (fdNumber === null || !redir.startsWith("&"))) {
      tokens.push({ t: "redir", op: redir, fd: fdNumber, line });
      i = start + redir.length;
      continue;
    }
    const control = CONTROL_OPS.find((op) => src.startsWith(op, i) && (bash || op !== "|&"));
    if (control) { tokens.push({ t: "op", v: control, line }); i += control.length; continue; }
    const word = lexWord(src, i, "word");
    for (let k = i; k < word.end; k++) if (src[k] === "\n") line++;
    tokens.push({ t: "word", parts: word.parts, raw: src.slice(i, word.end), line });
    i = word.end;
  }
  return tokens;
}

/** Reads a word's parts from `i`; mode "word" stops at a metacharacter, "inner" runs to the end. */
function lexWord(src, i, mode, quotedContext = false) {
  const parts = [];
  const n = src.length;
  const lit = (s, q) => {
    const last = parts[parts.length - 1];
    if (last && last.k === "lit" && last.q === q) last.s += s;
    else parts.push({ k: "lit", s, q });
  };
  const wordStart = i;
  while (i < n) {
    const c = src[i];
    if (mode === "word" && isMeta(c)) break;
    if (c === "~" && i === wordStart && !quotedContext) {
      const m = /^~([A-Za-z0-9_.-]*)(?=\/|$|[\s;&|<>()])/.exec(src.slice(i, i + 64));
      if (m) { parts.push({ k: "tilde", user: m[1] }); i += m[0].length; continue; }
    }
    if (c === "\\") {
      if (i + 1 >= n) { lit("\\", quotedContext); i++; continue; }
      if (src[i + 1] === "\n") { i += 2; continue; }
      if (quotedContext && !"$`\"\\".includes(src[i + 1])) { lit("\\", true); i++; continue; }
      lit(src[i + 1], true);
      i += 2;
      continue;
    }
    if (c === "'" && !quotedContext) {
      const end = src.indexOf("'", i + 1);
      if (end < 0) throw new SyntaxFailure("Unterminated quoted string");
      lit(src.slice(i + 1, end), true);
      parts.push({ k: "lit", s: "", q: true });
      i = end + 1;
      continue;
    }
    if (c === '"' && !quotedContext) {
      const inner = lexDoubleQuoted(src, i + 1);
      parts.push({ k: "lit", s: "", q: true }, ...inner.parts);
      i = inner.end + 1;
      continue;
    }
    if (c === "$") {
      const dollar = lexDollar(src, i, quotedContext);
      if (dollar.part) parts.push(dollar.part);
      else lit("$", quotedContext);
      i = dollar.end;
      continue;
    }
    if (c === "`") {
      const bt = lexBacktick(src, i, quotedContext);
      parts.push(bt.part);
      i = bt.end;
      continue;
    }
    lit(c, quotedContext);
    i++;
  }
  return { parts, end: i };
}

function lexDoubleQuoted(src, i) {
  const parts = [];
  const n = src.length;
  let text = "";
  const flush = () => {
    if (text) parts.push({ k: "lit", s: text, q: true });
    text = "";
  };
  while (i < n && src[i] !== '"') {
    const c = src[i];
    if (c === "\\" && i + 1 < n && "$`\"\\\n".includes(src[i + 1])) {
      if (src[i + 1] !== "\n") text += src[i + 1];
      i += 2;
    } else if (c === "$") {
      const dollar = lexDollar(src, i, true);
      if (dollar.part) { flush(); parts.push(dollar.part); } else text += "$";
      i = dollar.end;
    } else if (c === "`") {
      flush();
      const bt = lexBacktick(src, i, true);
      parts.push(bt.part);
      i = bt.end;
    } else {
      text += c;
      i++;
    }
  }
  if (i >= n) throw new SyntaxFailure("Unterminated quoted string");
  flush();
  return { parts, end: i };
}

function lexBacktick(src, i, quoted) {
  let script = "";
  let k = i + 1;
  while (k < src.length && src[k] !== "`") {
    if (src[k] === "\\" && k + 1 < src.length && "$`\\".includes(src[k + 1])) { script += src[k + 1]; k += 2; }
    else { script += src[k]; k++; }
  }
  if (k >= src.length) throw new SyntaxFailure('EOF in backquote substitution');
  return { part: { k: "cmd", script, q: quoted }, end: k + 1 };
}

/** The index of the `)` closing the `(` at `open`, skipping quotes and nested parentheses. */
function matchParen(src, open) {
  let depth = 0;
  for (let k = open; k < src.length; k++) {
    const c = src[k];
    if (c === "\\") { k++; continue; }
    if (c === "'") {
      const end = src.indexOf("'", k + 1);
      if (end < 0) throw new SyntaxFailure("Unterminated quoted string");
      k = end;
      continue;
    }
    if (c === '"') {
      k = lexDoubleQuoted(src, k + 1).end;
      continue;
    }
    if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return k;
  }
  throw new SyntaxFailure('end of file unexpected (expecting ")")');
}

function matchBrace(src, open) {
  for (let k = open + 1; k < src.length; k++) {
    const c = src[k];
    if (c === "\\") { k++; continue; }
    if (c === "'") { const end = src.indexOf("'", k + 1); if (end < 0) break; k = end; continue; }
    if (c === '"') { k = lexDoubleQuoted(src, k + 1).end; continue; }
    if (c === "$" && src[k + 1] === "{") { k = matchBrace(src, k + 1); continue; }
    if (c === "}") return k;
  }
  throw new SyntaxFailure('Missing "}"');
}

function lexDollar(src, i, quoted) {
  const next = src[i + 1];
  if (next === "(") {
    if (src[i + 2] === "(") {
      const end = matchParen(src, i + 1);
      if (src[end - 1] === ")") return { part: { k: "arith", expr: src.slice(i + 3, end - 1), q: quoted }, end: end + 1 };
    }
    const end = matchParen(src, i + 1);
    return { part: { k: "cmd", script: src.slice(i + 2, end), q: quoted }, end: end + 1 };
  }
  if (next === "{") {
    const end = matchBrace(src, i + 1);
    const body = src.slice(i + 2, end);
    const length = /^#([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[?$#@*!-])$/.exec(body);
    if (length) return { part: { k: "param", name: length[1], op: "length", q: quoted }, end: end + 1 };
    const m = /^([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[?$#@*!-])([\s\S]*)$/.exec(body);
    if (!m) throw new SyntaxFailure("Bad substitution");
    const name = m[1];
    const rest = m[2];
    if (rest === "") return { part: { k: "param", name, q: quoted }, end: end + 1 };
    const op = /^(:[-=+?]|[-=+?]|%%|%|##|#)/.exec(rest);
    if (!op) throw new SyntaxFailure("Bad substitution");
    const word = lexWord(rest.slice(op[1].length), 0, "inner", quoted).parts;
    return { part: { k: "param", name, op: op[1], word, q: quoted }, end: end + 1 };
  }
  if (next !== undefined && /[A-Za-z_]/.test(next)) {
    const name = NAME.exec(src.slice(i + 1, i + 257))[0];
    return { part: { k: "param", name, q: quoted }, end: i + 1 + name.length };
  }
  if (next !== undefined && /[0-9?$#@*!-]/.test(next)) return { part: { k: "param", name: next, q: quoted }, end: i + 2 };
  return { part: null, end: i + 1 };
}

// ───────────────────────── parser ─────────────────────────

const RESERVED_UNSUPPORTED = new Set(["if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac", "function", "select", "[[", "]]", "coproc"]);

function parse(tokens) {
  let pos = 0;
  const peek = () => tokens[pos];
  const isOp = (token, v) => token && token.t === "op" && token.v === v;
  const plain = (token) => (token && token.t === "word" && token.parts.length === 1 && token.parts[0].k === "lit" && !token.parts[0].q ? token.parts[0].s : null);
  const unexpected = (token) => {
    if (!token) throw new SyntaxFailure("end of file unexpected");
    const text = token.t === "op" ? (token.v === "\n" ? "newline" : token.v) : token.t === "redir" ? token.op : token.raw;
    throw new SyntaxFailure(`"${text}" unexpected`);
  };
  const skipNewlines = () => {
    while (isOp(peek(), "\n")) pos++;
  };

  function list(closers) {
    const items = [];
    skipNewlines();
    while (pos < tokens.length) {
      const token = peek();
      if (closers.includes(token.t === "op" ? token.v : plain(token))) break;
      const node = andOr();
      let sep = ";";
      const after = peek();
      if (after && after.t === "op" && (after.v === ";" || after.v === "&" || after.v === "\n")) {
        sep = after.v === "&" ? "&" : ";";
        pos++;
        skipNewlines();
      } else if (after && !closers.includes(after.t === "op" ? after.v : plain(after))) {
        unexpected(after);
      }
      items.push({ node, sep });
    }
    return { type: "list", items };
  }

  function andOr() {
    const first = pipeline();
    const rest = [];
    while (isOp(peek(), "&&") || isOp(peek(), "||")) {
      const op = peek().v;
      pos++;
      skipNewlines();
      rest.push({ op, node: pipeline() });
    }
    return { type: "andor", first, rest };
  }

  function pipeline() {
    let neg = false;
    while (plain(peek()) === "!") {
      neg = !neg;
      pos++;
    }
    const cmds = [command()];
    const errs = [];
    while (isOp(peek(), "|") || isOp(peek(), "|&")) {
      errs.push(peek().v === "|&");
      pos++;
      skipNewlines();
      cmds.push(command());
      if (cmds.length > 64) throw new Unsupported("pipeline too long");
    }
    return { type: "pipeline", neg, cmds, errs };
  }

  function redirects() {
    const redirs = [];
    while (peek() && peek().t === "redir") redirs.push(redirect());
    return redirs;
  }

  function redirect() {
    const token = tokens[pos++];
    if (token.op === "<<" || token.op === "<<-") throw new Unsupported("here-document");
    const target = peek();
    if (!target || target.t !== "word") unexpected(target);
    pos++;
    return { op: token.op, fd: token.fd, target: target.parts, raw: target.raw };
  }

  function command() {
    const token = peek();
    if (!token) unexpected(token);
    if (isOp(token, "(")) {
      pos++;
      const body = list([")"]);
      if (!isOp(peek(), ")")) unexpected(peek());
      if (body.items.length === 0) unexpected(peek());
      pos++;
      return { type: "group", subshell: true, body, redirs: redirects() };
    }
    const word = plain(token);
    if (word === "{") {
      pos++;
      const body = list(["}"]);
      if (plain(peek()) !== "}") unexpected(peek());
      if (body.items.length === 0) unexpected(peek());
      pos++;
      return { type: "group", subshell: false, body, redirs: redirects() };
    }
    if (word !== null && RESERVED_UNSUPPORTED.has(word)) throw new Unsupported(`reserved word ${word}`);
    const simple = { type: "simple", assigns: [], words: [], redirs: [], line: token.line };
    while (pos < tokens.length) {
      const t = peek();
      if (t.t === "redir") { simple.redirs.push(redirect()); continue; }
      if (t.t !== "word") break;
      if (simple.words.length === 0) {
        const first = t.parts[0];
        const m = first && first.k === "lit" && !first.q ? /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(first.s) : null;
        if (m) {
          const value = [{ ...first, s: first.s.slice(m[0].length) }, ...t.parts.slice(1)];
          simple.assigns.push({ name: m[1], parts: value });
          pos++;
          continue;
        }
      }
      if (isOp(tokens[pos + 1], "(") && simple.words.length === 0) throw new Unsupported("function definition");
      simple.words.push(t.parts);
      pos++;
      if (simple.words.length > SHELL_LIMITS.fields) throw new Unsupported("too many words");
    }
    if (simple.words.length === 0 && simple.assigns.length === 0 && simple.redirs.length === 0) unexpected(peek());
    return simple;
  }

  const top = list([]);
  if (pos < tokens.length) unexpected(peek());
  return top;
}

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

const escapeRegex = (s) => s.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");
const escapeGlob = (s) => s.replace(/[\\*?[\]]/g, "\\$&");
const POSIX_CLASSES = {
  alpha: "A-Za-z", digit: "0-9", alnum: "A-Za-z0-9", upper: "A-Z", lower: "a-z", space: " \\t\\n\\r\\f\\v",
  blank: " \\t", punct: "!-\\/:-@\\[-`{-~", xdigit: "0-9A-Fa-f", cntrl: "\\x00-\\x1f\\x7f", print: " -~", graph: "!-~", word: "A-Za-z0-9_",
};

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
  if (sh.host.defaultOutput !== null) return result(sh.host.defaultOutput, "", 0);
  return result("", sh.bash ? `${sh.argv0}: line ${sh.line}: ${name}: command not found\n` : `${sh.prefix(sh.line)}${name}: not found\n`, 127);
}

function quoteWord(word) {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

function runCommand(argv, sh, env, stdin, assigns = []) {
  const [name, ...args] = argv;
  // What the scenario scripts for this command answers it wherever it stands in the line.
  const scripted = sh.host.scripted(argv.map(quoteWord).join(" "));
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

const ok = (out = "") => result(out, "", 0);

/** Splits text into lines, each with its newline (the last may lack one). */
function lines(text) {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

function readInputs(ctx, files, tool) {
  // Each input: {name, text} or {error}.
  if (files.length === 0) return [{ name: "-", text: ctx.stdin }];
  return files.map((file) => {
    if (file === "-") return { name: "-", text: ctx.stdin };
    const path = ctx.sh.host.resolve(ctx.sh.cwd, file);
    const node = ctx.sh.host.node(path);
    if (!node) return { name: file, error: `${tool}: ${file}: No such file or directory\n` };
    if (node.kind === "dir") return { name: file, error: `${tool}: ${file}: Is a directory\n` };
    return { name: file, text: ctx.sh.host.read(path) };
  });
}

/** Options in the getopt way: `-abc`, `-n5`, `-n 5`; `valued` names the options that take a value. */
function getopts(args, valued, allowed, longs = {}) {
  const opts = Object.create(null);
  const operands = [];
  let k = 0;
  for (; k < args.length; k++) {
    const arg = args[k];
    if (arg === "--") { k++; break; }
    if (arg.startsWith("--") && arg.length > 2) {
      const [long, value] = arg.slice(2).split(/=(.*)/s);
      const short = longs[long];
      if (short === undefined) throw new Unsupported(`option --${long}`);
      if (valued.includes(short)) opts[short] = value ?? args[++k];
      else opts[short] = true;
      continue;
    }
    if (arg.startsWith("-") && arg.length > 1) {
      for (let j = 1; j < arg.length; j++) {
        const c = arg[j];
        if (valued.includes(c)) {
          opts[c] = j + 1 < arg.length ? arg.slice(j + 1) : args[++k];
          if (opts[c] === undefined) throw new Unsupported(`missing value for -${c}`);
          break;
        }
        if (!allowed.includes(c)) throw new Unsupported(`option -${c}`);
        opts[c] = true;
      }
      continue;
    }
    operands.push(arg);
  }
  operands.push(...args.slice(k));
  return { opts, operands };
}

/** en_US-like collation as ls and sort use it: letters and digits first, case later. */
export function collate(a, b) {
  const key = (s) => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
  const ka = key(a);
  const kb = key(b);
  if (ka !== kb) return ka < kb ? -1 : 1;
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  if (la !== lb) return la < lb ? -1 : 1;
  return a === b ? 0 : a > b ? -1 : 1;
}

function dashEcho(args) {
  let newline = true;
  if (args[0] === "-n") {
    newline = false;
    args = args.slice(1);
  }
  const text = args.join(" ");
  let out = "";
  for (let k = 0; k < text.length; k++) {
    const c = text[k];
    if (c !== "\\" || k + 1 >= text.length) { out += c; continue; }
    const e = text[++k];
    if (e === "c") return out;
    if (e === "0") {
      const m = /^[0-7]{0,3}/.exec(text.slice(k + 1, k + 4))[0];
      out += String.fromCharCode(Number.parseInt(m || "0", 8) & 255);
      k += m.length;
      continue;
    }
    const map = { a: "\x07", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v", "\\": "\\" };
    out += map[e] ?? `\\${e}`;
  }
  return newline ? `${out}\n` : out;
}

function gnuEcho(args) {
  let newline = true;
  let escapes = false;
  while (args.length > 0 && /^-[neE]+$/.test(args[0])) {
    for (const c of args[0].slice(1)) {
      if (c === "n") newline = false;
      else escapes = c === "e";
    }
    args = args.slice(1);
  }
  if (escapes) return dashEcho(newline ? args : ["-n", ...args]);
  const text = args.join(" ");
  return newline ? `${text}\n` : text;
}

function printfEscape(text, k) {
  const e = text[k + 1];
  const map = { a: "\x07", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v", "\\": "\\", '"': '"', "'": "'" };
  if (e !== undefined && Object.hasOwn(map, e)) return [map[e], 2];
  const octal = /^[0-7]{1,3}/.exec(text.slice(k + 1, k + 4));
  if (octal) return [String.fromCharCode(Number.parseInt(octal[0], 8) & 255), 1 + octal[0].length];
  return ["\\", 1];
}

function printf(ctx) {
  const [format, ...args] = ctx.args;
  if (format === undefined) return result("", "printf: usage: printf format [arguments]\n", 2);
  let out = "";
  let err = "";
  let status = 0;
  let index = 0;
  const next = () => (index < args.length ? args[index++] : undefined);
  const number = (text, conversion) => {
    if (text === undefined || text === "") return 0;
    if (/^['"]./s.test(text)) return text.codePointAt(1);
    if (conversion === "f" && /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i.test(text)) return Number(text);
    const m = /^\s*([+-]?)(0x[0-9a-f]+|0[0-7]*|\d+)\s*$/i.exec(text);
    if (!m) {
      const partial = /^\s*[+-]?\d+/.exec(text);
      err += `${ctx.sh.prefix(ctx.sh.line)}printf: ${text}: ${conversion === "f" ? "not completely converted" : "expected numeric value"}\n`;
      status = 1;
      return partial ? Number(partial[0]) : 0;
    }
    return Number(m[1] === "-" ? -Number(m[2]) : Number(m[2]));
  };
  let rounds = 0;
  do {
    const consumedBefore = index;
    for (let k = 0; k < format.length; k++) {
      const c = format[k];
      if (c === "\\") {
        const [text, length] = printfEscape(format, k);
        out += text;
        k += length - 1;
        continue;
      }
      if (c !== "%") { out += c; continue; }
      const m = /^%([-+ #0]*)(\*|\d*)(?:\.(\*|\d*))?([a-zA-Z%])/.exec(format.slice(k, k + 40));
      if (!m) { out += c; continue; }
      k += m[0].length - 1;
      const conversion = m[4];
      if (conversion === "%") { out += "%"; continue; }
      const flags = m[1];
      let width = m[2] === "*" ? number(next()) : Number(m[2] || 0);
      let precision = m[3] === undefined ? null : m[3] === "*" ? number(next()) : Number(m[3] || 0);
      width = Math.min(Math.abs(width), SHELL_LIMITS.width);
      if (precision !== null) precision = Math.min(precision, SHELL_LIMITS.width);
      let text;
      const arg = next();
      if (conversion === "s") text = (arg ?? "").slice(0, precision ?? undefined);
      else if (conversion === "b") text = dashEcho(["-n", arg ?? ""]);
      else if (conversion === "c") text = (arg ?? "").slice(0, 1);
      else if ("dioxXu".includes(conversion)) {
        const value = Math.trunc(number(arg, conversion));
        const base = conversion === "o" ? 8 : "xX".includes(conversion) ? 16 : 10;
        let digits = Math.abs(value).toString(base);
        if (conversion === "X") digits = digits.toUpperCase();
        if (precision !== null) digits = digits.padStart(precision, "0");
        const sign = value < 0 ? "-" : flags.includes("+") ? "+" : flags.includes(" ") ? " " : "";
        text = sign + digits;
        if (flags.includes("0") && !flags.includes("-") && precision === null) text = sign + digits.padStart(width - sign.length, "0");
      } else if ("feEgG".includes(conversion)) {
        const value = number(arg, "f");
        text = conversion === "f" ? value.toFixed(precision ?? 6) : "eE".includes(conversion) ? value.toExponential(precision ?? 6).replace(/e([+-])(\d)$/, "e$10$2") : String(Number(value.toPrecision(precision || 6)));
        if (conversion === "E") text = text.toUpperCase();
        if (flags.includes("+") && value >= 0) text = `+${text}`;
        if (flags.includes("0") && !flags.includes("-")) text = text.padStart(width, "0");
      } else {
        return result(out, `${ctx.sh.prefix(ctx.sh.line)}printf: %${conversion}: invalid directive\n`, 1);
      }
      text = flags.includes("-") ? text.padEnd(width) : text.padStart(width);
      out += text;
      if (out.length > SHELL_LIMITS.stream) return result(out, err, status);
    }
    if (index === consumedBefore) break;
  } while (index < args.length && ++rounds < 10000);
  return result(out, err, status);
}

function testCommand(ctx, bracket) {
  let args = ctx.args;
  const sh = ctx.sh;
  const name = bracket ? "[" : "test";
  if (bracket) {
    if (args[args.length - 1] !== "]") return result("", `${sh.prefix(sh.line)}[: missing ]\n`, 2);
    args = args.slice(0, -1);
  }
  const fail = (message) => {
    throw new ExitSignal(2, "", `${sh.prefix(sh.line)}${name}: ${message}\n`);
  };
  const integer = (text) => {
    if (!/^\s*[+-]?\d+\s*$/.test(text)) fail(`Illegal number: ${text}`);
    return Number(text);
  };
  const fileTest = (op, file) => {
    const path = sh.host.resolve(sh.cwd, file);
    const node = file === "" ? undefined : sh.host.node(path);
    switch (op) {
      case "-e": case "-a": return Boolean(node);
      case "-f": return node?.kind === "file";
      case "-d": return node?.kind === "dir";
      case "-s": return node?.kind === "file" ? node.data.length > 0 : Boolean(node);
      case "-r": return Boolean(node);
      case "-w": return Boolean(node) && sh.host.writable(path);
      case "-x": return node?.kind === "dir" || (node?.kind === "file" && (node.mode & 0o111) !== 0);
      case "-L": case "-h": case "-p": case "-S": case "-b": case "-c": case "-u": case "-g": case "-k": return false;
      default: return null;
    }
  };
  const UNARY = ["-e", "-f", "-d", "-s", "-r", "-w", "-x", "-L", "-h", "-p", "-S", "-b", "-c", "-u", "-g", "-k", "-n", "-z", "-t"];
  const BINARY = ["=", "==", "!=", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "<", ">", "-nt", "-ot", "-ef"];
  let k = 0;
  const binary = (left, op, right) => {
    switch (op) {
      case "=": case "==": return left === right;
      case "!=": return left !== right;
      case "<": return left < right;
      case ">": return left > right;
      case "-eq": return integer(left) === integer(right);
      case "-ne": return integer(left) !== integer(right);
      case "-lt": return integer(left) < integer(right);
      case "-le": return integer(left) <= integer(right);
      case "-gt": return integer(left) > integer(right);
      case "-ge": return integer(left) >= integer(right);
      default: throw new Unsupported(`test ${op}`);
    }
  };
  const primary = () => {
    const a = args[k];
    if (a === undefined) fail("argument expected");
    if (a === "!" && k + 1 < args.length) { k++; return !primary(); }
    if (a === "(" && args.length - k >= 3) {
      k++;
      const value = orExpr();
      if (args[k] !== ")") fail("closing paren expected");
      k++;
      return value;
    }
    if (BINARY.includes(args[k + 1]) && k + 2 < args.length) {
      k += 3;
      return binary(a, args[k - 2], args[k - 1]);
    }
    if (UNARY.includes(a) && k + 1 < args.length) {
      k += 2;
      const operand = args[k - 1];
      if (a === "-n") return operand !== "";
      if (a === "-z") return operand === "";
      if (a === "-t") return false;
      return fileTest(a, operand);
    }
    k++;
    return a !== "";
  };
  const andExpr = () => {
    let value = primary();
    while (args[k] === "-a") { k++; const right = primary(); value = value && right; }
    return value;
  };
  const orExpr = () => {
    let value = andExpr();
    while (args[k] === "-o") { k++; const right = andExpr(); value = value || right; }
    return value;
  };
  if (args.length === 0) return result("", "", 1);
  try {
    const value = orExpr();
    if (k < args.length) fail(`${args[k]}: unexpected operator`);
    return result("", "", value ? 0 : 1);
  } catch (signal) {
    if (signal instanceof ExitSignal) return result("", signal.err, 2);
    throw signal;
  }
}

function headTail(ctx, tail) {
  const tool = tail ? "tail" : "head";
  let args = [...ctx.args];
  if (args[0] && /^-\d+$/.test(args[0])) args = ["-n", args[0].slice(1), ...args.slice(1)];
  if (tail && args[0] && /^\+\d+$/.test(args[0])) args = ["-n", args[0], ...args.slice(1)];
  const { opts, operands } = getopts(args, ["n", "c"], ["q", "v", "n", "c"], { lines: "n", bytes: "c", quiet: "q", silent: "q", verbose: "v" });
  const spec = opts.c ?? opts.n ?? "10";
  const bytes = opts.c !== undefined;
  const m = /^([+-]?)(\d+)$/.exec(spec);
  if (!m) return result("", `${tool}: invalid number of ${bytes ? "bytes" : "lines"}: ‘${spec}’\n`, 1);
  const count = Number(m[2]);
  const inputs = readInputs(ctx, operands, tool);
  let out = "";
  let err = "";
  let status = 0;
  inputs.forEach((input, k) => {
    if (input.error) {
      err += `${tool}: cannot open '${input.name}' for reading: No such file or directory\n`;
      status = 1;
      return;
    }
    if ((inputs.length > 1 && !opts.q) || opts.v) out += `${k > 0 ? "\n" : ""}==> ${input.name === "-" ? "standard input" : input.name} <==\n`;
    const units = bytes ? [...input.text] : lines(input.text);
    let kept;
    if (!tail) kept = m[1] === "-" ? units.slice(0, Math.max(0, units.length - count)) : units.slice(0, count);
    else kept = m[1] === "+" ? units.slice(Math.max(0, count - 1)) : count === 0 ? [] : units.slice(-count);
    out += kept.join("");
  });
  return result(out, err, status);
}

function wc(ctx) {
  const { opts, operands } = getopts(ctx.args, [], ["l", "w", "c", "m", "L"], { lines: "l", words: "w", bytes: "c", chars: "m" });
  const chosen = ["l", "w", "m", "c"].filter((o) => opts[o]);
  const which = chosen.length > 0 ? chosen : ["l", "w", "c"];
  const inputs = readInputs(ctx, operands, "wc");
  const rows = [];
  let err = "";
  let status = 0;
  const total = { l: 0, w: 0, c: 0, m: 0 };
  for (const input of inputs) {
    if (input.error) {
      err += input.error;
      status = 1;
      continue;
    }
    const counts = {
      l: (input.text.match(/\n/g) ?? []).length,
      w: (input.text.match(/[^\s]+/g) ?? []).length,
      c: byteLength(input.text),
      m: [...input.text].length,
    };
    for (const key of Object.keys(total)) total[key] += counts[key];
    rows.push({ counts, name: input.name === "-" && operands.length === 0 ? "" : input.name });
  }
  if (rows.length > 1) rows.push({ counts: total, name: "total" });
  const fromStdin = operands.length === 0 || operands.includes("-");
  let width = 1;
  if (!(which.length === 1 && rows.length === 1)) width = fromStdin ? 7 : Math.max(1, String(total.c).length);
  const out = rows.map((row) => [...which.map((key) => String(row.counts[key]).padStart(width)), ...(row.name ? [row.name] : [])].join(" ")).join("\n");
  return result(out ? `${out}\n` : "", err, status);
}

function byteLength(text) {
  let bytes = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0);
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

function parseRanges(list) {
  const ranges = [];
  for (const piece of list.split(",")) {
    const m = /^(\d*)(-?)(\d*)$/.exec(piece);
    if (!m || (m[1] === "" && m[3] === "") || m[1] === "0") return null;
    const from = m[1] ? Number(m[1]) : 1;
    const to = m[2] ? (m[3] ? Number(m[3]) : Infinity) : from;
    ranges.push([from, to]);
  }
  return ranges;
}

function cut(ctx) {
  const { opts, operands } = getopts(ctx.args, ["d", "f", "c", "b"], ["s", "d", "f", "c", "b"], { delimiter: "d", fields: "f", characters: "c", bytes: "b", "only-delimited": "s" });
  const list = opts.f ?? opts.c ?? opts.b;
  if (list === undefined) return result("", "cut: you must specify a list of bytes, characters, or fields\nTry 'cut --help' for more information.\n", 1);
  const ranges = parseRanges(list);
  if (!ranges) return result("", `cut: invalid field range\nTry 'cut --help' for more information.\n`, 1);
  const delimiter = opts.d ?? "\t";
  if (opts.d !== undefined && [...opts.d].length !== 1) return result("", "cut: the delimiter must be a single character\nTry 'cut --help' for more information.\n", 1);
  const wanted = (index) => ranges.some(([from, to]) => index >= from && index <= to);
  let out = "";
  let err = "";
  let status = 0;
  for (const input of readInputs(ctx, operands, "cut")) {
    if (input.error) { err += input.error; status = 1; continue; }
    for (const line of lines(input.text)) {
      const body = line.endsWith("\n") ? line.slice(0, -1) : line;
      if (opts.f !== undefined) {
        if (!body.includes(delimiter)) {
          if (!opts.s) out += `${body}\n`;
          continue;
        }
        out += `${body.split(delimiter).filter((_, k) => wanted(k + 1)).join(delimiter)}\n`;
      } else out += `${[...body].filter((_, k) => wanted(k + 1)).join("")}\n`;
    }
  }
  return result(out, err, status);
}

/** A POSIX regular expression (basic or extended) as a JavaScript one, or null if refused. */
export function posixRegex(pattern, extended, flags = "") {
  if (pattern.length > 512) return null;
  let out = "";
  let unbounded = 0;
  let groupQuantified = false;
  const stack = [];
  for (let k = 0; k < pattern.length; k++) {
    let c = pattern[k];
    if (c === "[") {
      let end = k + 1;
      if (pattern[end] === "^") end++;
      if (pattern[end] === "]") end++;
      while (end < pattern.length && pattern[end] !== "]") {
        if (pattern[end] === "[" && pattern[end + 1] === ":") {
          const close = pattern.indexOf(":]", end + 2);
          end = close < 0 ? end + 1 : close + 2;
        } else end++;
      }
      if (end >= pattern.length) return null;
      let body = pattern.slice(k + 1, end);
      const negated = body.startsWith("^");
      if (negated) body = body.slice(1);
      body = body.replace(/\[:(\w+):\]|\\|\]|\[|\^/g, (m, cls) => (cls ? POSIX_CLASSES[cls] ?? "" : `\\${m}`));
      out += `[${negated ? "^" : ""}${body}]`;
      k = end;
      continue;
    }
    let operator = false;
    if (c === "\\" && k + 1 < pattern.length) {
      c = pattern[++k];
      if (!extended && "(){}|+?".includes(c)) operator = true;
      else if (/[1-9]/.test(c)) return null;
      else if (c === "w" || c === "W" || c === "s" || c === "S" || c === "b" || c === "B") { out += `\\${c}`; continue; }
      else if (c === "<" || c === ">") { out += "\\b"; continue; }
      else { out += escapeRegex(c); continue; }
    } else if (extended && "(){}|+?".includes(c)) operator = true;
    else if (c === "*" || c === "." || c === "^" || c === "$") {
      if (c === "*") {
        if (out === "" || out.endsWith("(") || out.endsWith("|") || out.endsWith("^")) { out += "\\*"; continue; }
        unbounded++;
        if (out.endsWith(")")) groupQuantified = true;
      }
      out += c;
      continue;
    }
    if (!operator) { out += escapeRegex(c); continue; }
    if (c === "(") stack.push(out.length);
    if (c === ")" && stack.length === 0) return null;
    if (c === ")") stack.pop();
    if (c === "+" || c === "{") unbounded++;
    if ((c === "+" || c === "?" || c === "{") && out.endsWith(")")) groupQuantified = true;
    if (c === "{") {
      const close = pattern.indexOf(extended ? "}" : "\\}", k);
      if (close < 0) return null;
      const body = pattern.slice(k + 1, close);
      if (!/^\d*(,\d*)?$/.test(body)) return null;
      out += `{${body}}`;
      k = close + (extended ? 0 : 1);
      continue;
    }
    out += c;
  }
  // Refused: what a backtracking matcher could take exponential or long polynomial time on.
  if (stack.length > 0 || unbounded > 3 || (groupQuantified && unbounded > 1)) return null;
  try {
    return new RegExp(out, `${flags}u`);
  } catch {
    try {
      return new RegExp(out, flags);
    } catch {
      return null;
    }
  }
}

function grep(ctx) {
  const args = ctx.args;
  const patterns = [];
  const rest = [];
  for (let k = 0; k < args.length; k++) {
    if (args[k] === "-e" || args[k] === "--regexp") patterns.push(args[++k] ?? "");
    else if (args[k].startsWith("--regexp=")) patterns.push(args[k].slice(9));
    else if (/^-[a-zA-Z]*e$/.test(args[k]) && args[k].length > 2) { rest.push(args[k].slice(0, -1)); patterns.push(args[++k] ?? ""); }
    else rest.push(args[k]);
  }
  const { opts, operands } = getopts(rest, ["m"], ["v", "c", "q", "i", "E", "F", "G", "n", "o", "w", "x", "l", "h", "H", "s", "m"], {
    "invert-match": "v", count: "c", quiet: "q", silent: "q", "ignore-case": "i", "extended-regexp": "E", "fixed-strings": "F",
    "basic-regexp": "G", "line-number": "n", "only-matching": "o", "word-regexp": "w", "line-regexp": "x", "files-with-matches": "l",
    "no-filename": "h", "with-filename": "H", "no-messages": "s", "max-count": "m",
  });
  if (patterns.length === 0) {
    if (operands.length === 0) return result("", "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n", 2);
    patterns.push(...operands.shift().split("\n"));
  }
  const regexes = [];
  for (const pattern of patterns) {
    let source = opts.F ? escapeRegex(pattern) : null;
    let regex;
    if (source !== null) regex = new RegExp(source, opts.i ? "i" : "");
    else regex = posixRegex(pattern, Boolean(opts.E), opts.i ? "i" : "");
    if (!regex) throw new Unsupported("regular expression");
    source = regex.source;
    if (opts.w) source = `(?<![\\w])(?:${source})(?![\\w])`;
    if (opts.x) source = `^(?:${source})$`;
    regexes.push(new RegExp(source, `${regex.flags}g`));
  }
  const max = opts.m === undefined ? Infinity : Number(opts.m);
  const inputs = readInputs(ctx, operands, "grep");
  const named = (operands.length > 1 || opts.H) && !opts.h;
  let out = "";
  let err = "";
  let matchedAny = false;
  let errored = false;
  for (const input of inputs) {
    if (input.error) {
      if (!opts.s) err += input.error;
      errored = true;
      continue;
    }
    if (input.text.length > SHELL_LIMITS.regexInput) throw new Unsupported("grep input too large");
    const name = input.name === "-" ? "(standard input)" : input.name;
    let count = 0;
    let k = 0;
    for (const line of lines(input.text)) {
      k++;
      if (count >= max) break;
      const body = line.endsWith("\n") ? line.slice(0, -1) : line;
      const hits = [];
      for (const regex of regexes) {
        regex.lastIndex = 0;
        if (opts.o && !opts.v) {
          for (const m of body.matchAll(regex)) if (m[0] !== "") hits.push(m[0]);
        } else if (regex.test(body)) hits.push(body);
      }
      const matched = opts.v ? hits.length === 0 : hits.length > 0;
      if (!matched) continue;
      count++;
      matchedAny = true;
      if (opts.q) return result("", "", 0);
      if (opts.c || opts.l) continue;
      const lead = `${named ? `${name}:` : ""}${opts.n ? `${k}:` : ""}`;
      if (opts.o && !opts.v) for (const hit of hits) out += `${lead}${hit}\n`;
      else if (!opts.o) out += `${lead}${body}\n`;
    }
    if (opts.c) out += `${named ? `${name}:` : ""}${count}\n`;
    if (opts.l && count > 0) out += `${name}\n`;
  }
  return result(out, err, errored && !(opts.q && matchedAny) ? 2 : matchedAny ? 0 : 1);
}

function sort(ctx) {
  const { opts, operands } = getopts(ctx.args, ["o"], ["r", "u", "n", "f", "b", "V", "h"], { reverse: "r", unique: "u", "numeric-sort": "n", "ignore-case": "f", "version-sort": "V" });
  if (opts.o !== undefined) throw new Unsupported("sort -o");
  let all = [];
  let err = "";
  for (const input of readInputs(ctx, operands, "sort")) {
    if (input.error) return result("", `sort: cannot read: ${input.name}: No such file or directory\n`, 2);
    all.push(...lines(input.text).map((line) => (line.endsWith("\n") ? line.slice(0, -1) : line)));
  }
  const numeric = (s) => {
    const m = /^\s*(-?\d+(?:\.\d+)?)/.exec(s);
    return m ? Number(m[1]) : 0;
  };
  const version = (a, b) => {
    const pa = a.split(/(\d+)/);
    const pb = b.split(/(\d+)/);
    for (let k = 0; k < Math.max(pa.length, pb.length); k++) {
      const x = pa[k] ?? "";
      const y = pb[k] ?? "";
      if (x === y) continue;
      if (k % 2 === 1) return Number(x) - Number(y) || (x < y ? -1 : 1);
      return x < y ? -1 : 1;
    }
    return 0;
  };
  const compare = opts.n
    ? (a, b) => numeric(a) - numeric(b) || collate(a, b)
    : opts.V ? version
    : opts.f ? (a, b) => collate(a.toUpperCase(), b.toUpperCase())
    : collate;
  all.sort(compare);
  if (opts.r) all.reverse();
  if (opts.u) all = all.filter((line, k) => k === 0 || compare(all[k - 1], line) !== 0);
  return result(all.map((line) => `${line}\n`).join(""), err, 0);
}

function uniq(ctx) {
  const { opts, operands } = getopts(ctx.args, [], ["c", "d", "u", "i"], { count: "c", repeated: "d", unique: "u", "ignore-case": "i" });
  const inputs = readInputs(ctx, operands.slice(0, 1), "uniq");
  if (inputs[0].error) return result("", `uniq: ${operands[0]}: No such file or directory\n`, 1);
  const groups = [];
  for (const line of lines(inputs[0].text)) {
    const body = line.endsWith("\n") ? line.slice(0, -1) : line;
    const last = groups[groups.length - 1];
    const same = last && (opts.i ? last.line.toLowerCase() === body.toLowerCase() : last.line === body);
    if (same) last.count++;
    else groups.push({ line: body, count: 1 });
  }
  const out = groups
    .filter((g) => (!opts.d || g.count > 1) && (!opts.u || g.count === 1))
    .map((g) => (opts.c ? `${String(g.count).padStart(7)} ${g.line}\n` : `${g.line}\n`))
    .join("");
  return result(out);
}

/** A tr set: ranges, classes and escapes, as a list of characters. */
function trSet(text) {
  const chars = [];
  const unescaped = [];
  for (let k = 0; k < text.length; k++) {
    if (text[k] === "\\" && k + 1 < text.length) {
      const map = { n: "\n", t: "\t", r: "\r", "\\": "\\", f: "\f", v: "\v", a: "\x07", b: "\b" };
      const octal = /^[0-7]{1,3}/.exec(text.slice(k + 1, k + 4));
      if (octal) { unescaped.push(String.fromCharCode(Number.parseInt(octal[0], 8))); k += octal[0].length; }
      else { unescaped.push(map[text[k + 1]] ?? text[k + 1]); k++; }
      continue;
    }
    const cls = /^\[:(\w+):\]/.exec(text.slice(k, k + 10));
    if (cls) {
      const ranges = { alpha: "A-Za-z", digit: "0-9", alnum: "0-9A-Za-z", upper: "A-Z", lower: "a-z", space: "\t\n\v\f\r ", blank: "\t ", punct: "!-/:-@[-`{-~", xdigit: "0-9A-Fa-f" }[cls[1]];
      if (ranges === undefined) return null;
      unescaped.push({ cls: ranges });
      k += cls[0].length - 1;
      continue;
    }
    unescaped.push(text[k]);
  }
  for (let k = 0; k < unescaped.length; k++) {
    const item = unescaped[k];
    if (typeof item === "object") {
      for (const piece of item.cls.match(/.-.|./gs)) {
        if (piece.length === 3) for (let code = piece.charCodeAt(0); code <= piece.charCodeAt(2); code++) chars.push(String.fromCharCode(code));
        else chars.push(piece);
      }
    } else if (unescaped[k + 1] === "-" && typeof unescaped[k + 2] === "string" && k + 2 < unescaped.length) {
      const from = item.codePointAt(0);
      const to = unescaped[k + 2].codePointAt(0);
      if (to < from || to - from > 0x10000) return null;
      for (let code = from; code <= to; code++) chars.push(String.fromCodePoint(code));
      k += 2;
    } else chars.push(item);
  }
  return chars;
}

function tr(ctx) {
  const { opts, operands } = getopts(ctx.args, [], ["d", "s", "c", "C"], { delete: "d", "squeeze-repeats": "s", complement: "c" });
  const complement = opts.c || opts.C;
  if (operands.length === 0) return result("", "tr: missing operand\nTry 'tr --help' for more information.\n", 1);
  const set1 = trSet(operands[0]);
  const set2 = operands[1] === undefined ? null : trSet(operands[1]);
  if (!set1 || (operands[1] !== undefined && !set2)) throw new Unsupported("tr set");
  const in1 = new Set(set1);
  const member = (ch) => (complement ? !in1.has(ch) : in1.has(ch));
  let out = "";
  const input = [...ctx.stdin];
  if (opts.d) {
    const squeeze = set2 ? new Set(set2) : null;
    for (const ch of input) {
      if (member(ch)) continue;
      if (opts.s && squeeze?.has(ch) && out.endsWith(ch)) continue;
      out += ch;
    }
    return result(out);
  }
  if (!set2 && !opts.s) return result("", `tr: missing operand after ‘${operands[0]}’\nTwo strings must be given when translating.\nTry 'tr --help' for more information.\n`, 1);
  const map = new Map();
  if (set2 && !complement) set1.forEach((ch, k) => map.set(ch, set2[Math.min(k, set2.length - 1)] ?? ch));
  const squeezeSet = new Set(set2 ?? set1);
  let last = null;
  for (const ch of input) {
    let mapped = ch;
    if (set2) mapped = complement ? (member(ch) ? set2[set2.length - 1] : ch) : map.get(ch) ?? ch;
    if (opts.s && mapped === last && squeezeSet.has(mapped)) continue;
    out += mapped;
    last = mapped;
  }
  return result(out);
}

/** awk, for what mods pipe through it: `[pattern] { print fields }`, with -F. */
function awk(ctx) {
  const args = [...ctx.args];
  let separator = null;
  while (args[0]?.startsWith("-F") || args[0] === "--") {
    const arg = args.shift();
    if (arg === "--") break;
    separator = arg.length > 2 ? arg.slice(2) : args.shift();
  }
  const program = args.shift();
  if (program === undefined) throw new Unsupported("awk usage");
  const m = /^\s*(?:(\/(?:[^/\\]|\\.)*\/|NR\s*(?:==|!=|<=|>=|<|>)\s*\d+|\$\d+\s*(?:==|!=)\s*"[^"]*")\s*)?(?:\{\s*(print(?:\s+[^;{}]*)?)?\s*;?\s*\})?\s*$/.exec(program);
  if (!m || (m[1] === undefined && m[2] === undefined && !/\{\s*\}/.test(program))) throw new Unsupported("awk program");
  const patternText = m[1];
  const action = m[2] ?? (/\{/.test(program) ? "" : "print");
  let test = () => true;
  if (patternText?.startsWith("/")) {
    const regex = posixRegex(patternText.slice(1, -1).replace(/\\\//g, "/"), true);
    if (!regex) throw new Unsupported("awk regex");
    test = (record) => regex.test(record.line);
  } else if (patternText?.startsWith("NR")) {
    const [, op, n] = /NR\s*(==|!=|<=|>=|<|>)\s*(\d+)/.exec(patternText);
    test = (record) => compareOp(record.nr, op, Number(n));
  } else if (patternText) {
    const [, field, op, text] = /\$(\d+)\s*(==|!=)\s*"([^"]*)"/.exec(patternText);
    test = (record) => compareOp(record.field(Number(field)), op, text);
  }
  // The print list: expressions separated by commas (joined with a space) or juxtaposed.
  const expressions = [];
  if (action.startsWith("print")) {
    const list = action.slice(5).trim();
    if (list) {
      for (const item of splitTopLevel(list)) {
        const terms = item.match(/\$\(\s*NF\s*-\s*\d+\s*\)|\$NF|\$\d+|"(?:[^"\\]|\\.)*"|\bNF\b|\bNR\b|\d+|\S+/g) ?? [];
        for (const term of terms) if (!/^(\$\(\s*NF\s*-\s*\d+\s*\)|\$NF|\$\d+|"(?:[^"\\]|\\.)*"|NF|NR|\d+)$/.test(term)) throw new Unsupported("awk expression");
        expressions.push(terms);
      }
    }
  }
  const inputs = readInputs(ctx, args, "awk");
  let out = "";
  let err = "";
  let nr = 0;
  for (const input of inputs) {
    if (input.error) {
      err += `awk: cannot open "${input.name}" (No such file or directory)\n`;
      continue;
    }
    for (const line of lines(input.text)) {
      nr++;
      const record = line.endsWith("\n") ? line.slice(0, -1) : line;
      let fields;
      if (separator === null || separator === " ") fields = record.trim() === "" ? [] : record.trim().split(/[ \t\n]+/);
      else if (separator.length === 1 && separator !== "\\") fields = record === "" ? [] : record.split(separator);
      else {
        const regex = posixRegex(separator === "\\t" ? "\t" : separator, true);
        if (!regex) throw new Unsupported("awk separator");
        fields = record === "" ? [] : record.split(regex);
      }
      const field = (n) => (n === 0 ? record : fields[n - 1] ?? "");
      const context = { line: record, nr, field };
      if (!test(context)) continue;
      if (!action.startsWith("print")) continue;
      if (expressions.length === 0) { out += `${record}\n`; continue; }
      const value = (term) => {
        if (term === "$NF") return field(fields.length);
        const back = /^\$\(\s*NF\s*-\s*(\d+)\s*\)$/.exec(term);
        if (back) return field(Math.max(0, fields.length - Number(back[1])));
        if (term.startsWith("$")) return field(Number(term.slice(1)));
        if (term === "NF") return String(fields.length);
        if (term === "NR") return String(nr);
        if (term.startsWith('"')) return term.slice(1, -1).replace(/\\(.)/g, (_, c) => ({ n: "\n", t: "\t" })[c] ?? c);
        return term;
      };
      out += `${expressions.map((terms) => terms.map(value).join("")).join(" ")}\n`;
      if (out.length > SHELL_LIMITS.stream) break;
    }
  }
  return result(out, err, err ? 2 : 0);
}

function compareOp(left, op, right) {
  switch (op) {
    case "==": return left === right;
    case "!=": return left !== right;
    case "<": return left < right;
    case ">": return left > right;
    case "<=": return left <= right;
    default: return left >= right;
  }
}

function splitTopLevel(list) {
  const items = [];
  let current = "";
  let quoted = false;
  for (let k = 0; k < list.length; k++) {
    const c = list[k];
    if (c === "\\" && quoted) { current += c + (list[++k] ?? ""); continue; }
    if (c === '"') quoted = !quoted;
    if (c === "," && !quoted) { items.push(current.trim()); current = ""; continue; }
    current += c;
  }
  items.push(current.trim());
  return items;
}

/** sed, for one-line edits: `s/re/text/[gpI]`, `Np`, `N,Mp`, `$p`, `Nd`, `/re/p`, `/re/d`, `Nq`; -n, -e, -E. */
function sed(ctx) {
  const scripts = [];
  const rest = [];
  const args = ctx.args;
  for (let k = 0; k < args.length; k++) {
    if (args[k] === "-e" || args[k] === "--expression") scripts.push(args[++k] ?? "");
    else rest.push(args[k]);
  }
  const { opts, operands } = getopts(rest, [], ["n", "E", "r"], { quiet: "n", silent: "n", "regexp-extended": "E" });
  if (scripts.length === 0) {
    if (operands.length === 0) return result("", "Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...\n", 1);
    scripts.push(operands.shift());
  }
  const extended = Boolean(opts.E || opts.r);
  const commands = [];
  for (const script of scripts) {
    for (const text of script.split(/;|\n/).map((s) => s.trim()).filter(Boolean)) {
      const m = /^(?:(\d+|\$|\/(?:[^/\\]|\\.)*\/)(?:,(\d+|\$|\/(?:[^/\\]|\\.)*\/))?)?\s*(!?)\s*([pdq]|s(.)([\s\S]*))$/.exec(text);
      if (!m) throw new Unsupported("sed command");
      const address = (a) => {
        if (a === undefined) return null;
        if (a === "$") return { last: true };
        if (/^\d+$/.test(a)) return { line: Number(a) };
        const regex = posixRegex(a.slice(1, -1), extended);
        if (!regex) throw new Unsupported("sed regex");
        return { regex };
      };
      const command = { from: address(m[1]), to: address(m[2]), negate: m[3] === "!", op: m[4][0] };
      if (command.op === "s") {
        const delimiter = m[5];
        const body = m[6];
        const partsOf = [];
        let current = "";
        for (let k = 0; k < body.length; k++) {
          if (body[k] === "\\" && k + 1 < body.length) {
            current += body[k + 1] === delimiter ? delimiter : body.slice(k, k + 2);
            k++;
          } else if (body[k] === delimiter) { partsOf.push(current); current = ""; }
          else current += body[k];
        }
        partsOf.push(current);
        if (partsOf.length !== 3 || !/^[gpI0-9]*$/.test(partsOf[2])) throw new Unsupported("sed s");
        const flags = partsOf[2];
        const regex = posixRegex(partsOf[0], extended, `${flags.includes("g") ? "g" : ""}${flags.includes("I") ? "i" : ""}`);
        if (!regex || /\d/.test(flags)) throw new Unsupported("sed s regex");
        const replacement = partsOf[1].replace(/\\(.)|&|\$/g, (match, escaped) => {
          if (match === "&") return "$&";
          if (match === "$") return "$$";
          if (/[1-9]/.test(escaped)) return `$${escaped}`;
          if (escaped === "n") return "\n";
          if (escaped === "t") return "\t";
          if (escaped === "&") return "&";
          return escaped === "$" ? "$$" : escaped;
        });
        Object.assign(command, { regex, replacement, print: flags.includes("p") });
      }
      commands.push(command);
    }
  }
  const inputs = readInputs(ctx, operands, "sed");
  let out = "";
  let err = "";
  const all = [];
  for (const input of inputs) {
    if (input.error) { err += `sed: can't read ${input.name}: No such file or directory\n`; continue; }
    all.push(...lines(input.text));
  }
  const active = new Map();
  const matches = (command, body, number, last) => {
    const hit = (a) => (a.last ? last : a.line !== undefined ? number === a.line : a.regex.test(body));
    if (!command.from) return true;
    if (!command.to) return hit(command.from);
    if (active.get(command)) {
      if (command.to.line !== undefined ? number >= command.to.line : hit(command.to)) active.set(command, false);
      return true;
    }
    if (hit(command.from)) {
      active.set(command, !(command.to.line !== undefined && number >= command.to.line));
      return true;
    }
    return false;
  };
  for (let k = 0; k < all.length; k++) {
    const line = all[k];
    const newline = line.endsWith("\n") ? "\n" : "";
    let body = newline ? line.slice(0, -1) : line;
    let deleted = false;
    let quit = false;
    for (const command of commands) {
      if (matches(command, body, k + 1, k === all.length - 1) === command.negate) continue;
      if (command.op === "p") out += `${body}\n`;
      else if (command.op === "d") { deleted = true; break; }
      else if (command.op === "q") { quit = true; break; }
      else if (command.op === "s") {
        command.regex.lastIndex = 0;
        if (command.regex.test(body)) {
          command.regex.lastIndex = 0;
          body = body.replace(command.regex, command.replacement);
          if (command.print) out += `${body}\n`;
        }
      }
    }
    if (!deleted && !opts.n) out += body + newline;
    if (out.length > SHELL_LIMITS.stream) break;
    if (quit) break;
  }
  return result(out, err, err ? 2 : 0);
}

function ls(ctx) {
  const { opts, operands } = getopts(ctx.args, [], ["a", "A", "1", "p", "d", "F", "r"], { all: "a", "almost-all": "A" });
  const host = ctx.sh.host;
  const targets = operands.length > 0 ? operands : ["."];
  let err = "";
  let status = 0;
  const files = [];
  const dirs = [];
  for (const target of targets) {
    const path = host.resolve(ctx.sh.cwd, target);
    const node = host.node(path);
    if (!node) {
      err += `ls: cannot access '${target}': No such file or directory\n`;
      status = 2;
    } else if (node.kind === "dir" && !opts.d) dirs.push({ target, path });
    else files.push(target);
  }
  const mark = (name, path) => {
    if (!(opts.p || opts.F)) return name;
    return host.node(path)?.kind === "dir" ? `${name}/` : name;
  };
  const order = (names) => {
    const sorted = names.sort(collate);
    return opts.r ? sorted.reverse() : sorted;
  };
  const sections = [];
  if (files.length > 0) sections.push(order(files).map((f) => `${mark(f, host.resolve(ctx.sh.cwd, f))}\n`).join(""));
  const headers = targets.length > 1;
  for (const { target, path } of dirs.sort((a, b) => collate(a.target, b.target))) {
    let names = (host.list(path) ?? []).filter((name) => opts.a || opts.A || !name.startsWith("."));
    if (opts.a) names = [".", "..", ...names];
    const body = order(names).map((name) => `${mark(name, `${path}/${name}`)}\n`).join("");
    sections.push(headers ? `${target}:\n${body}` : body);
  }
  return result(sections.join("\n"), err, status);
}

function cat(ctx) {
  const { opts, operands } = getopts(ctx.args, [], ["n", "u"], { number: "n" });
  let out = "";
  let err = "";
  let status = 0;
  for (const input of readInputs(ctx, operands, "cat")) {
    if (input.error) { err += input.error; status = 1; continue; }
    out += input.text;
  }
  if (opts.n) out = lines(out).map((line, k) => `${String(k + 1).padStart(6)}\t${line}`).join("");
  return result(out, err, status);
}

function basename(ctx) {
  const { opts, operands } = getopts(ctx.args, ["s"], ["a", "s"], { multiple: "a", suffix: "s" });
  if (operands.length === 0) return result("", "basename: missing operand\nTry 'basename --help' for more information.\n", 1);
  const one = (name, suffix) => {
    let base = name.replace(/\/+$/, "");
    base = base === "" ? (name.startsWith("/") ? "/" : "") : base.slice(base.lastIndexOf("/") + 1);
    if (suffix && base !== suffix && base.endsWith(suffix)) base = base.slice(0, -suffix.length);
    return `${base}\n`;
  };
  if (opts.a || opts.s !== undefined) return ok(operands.map((name) => one(name, opts.s)).join(""));
  if (operands.length > 2) return result("", `basename: extra operand ‘${operands[2]}’\nTry 'basename --help' for more information.\n`, 1);
  return ok(one(operands[0], operands[1]));
}

function dirname(ctx) {
  if (ctx.args.length === 0) return result("", "dirname: missing operand\nTry 'dirname --help' for more information.\n", 1);
  return ok(ctx.args.map((name) => {
    const trimmed = name.replace(/\/+$/, "");
    if (trimmed === "") return name.startsWith("/") ? "/\n" : ".\n";
    const index = trimmed.lastIndexOf("/");
    if (index < 0) return ".\n";
    const dir = trimmed.slice(0, index).replace(/\/+$/, "");
    return `${dir === "" ? "/" : dir}\n`;
  }).join(""));
}

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const DAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** strftime on a UTC time, as date(1) and git print it. */
export function strftime(format, ms) {
  const d = new Date(ms);
  const pad = (n, w = 2, c = "0") => String(n).padStart(w, c);
  const start = Date.UTC(d.getUTCFullYear(), 0, 1);
  const yday = Math.floor((ms - start) / 86400000) + 1;
  return format.replace(/%([-_0^#]?)([a-zA-Z%+])/g, (whole, flag, c) => {
    let value;
    switch (c) {
      case "Y": value = String(d.getUTCFullYear()); break;
      case "y": value = pad(d.getUTCFullYear() % 100); break;
      case "C": value = pad(Math.floor(d.getUTCFullYear() / 100)); break;
      case "m": value = pad(d.getUTCMonth() + 1); break;
      case "d": value = pad(d.getUTCDate()); break;
      case "e": value = pad(d.getUTCDate(), 2, " "); break;
      case "H": value = pad(d.getUTCHours()); break;
      case "I": value = pad(((d.getUTCHours() + 11) % 12) + 1); break;
      case "M": value = pad(d.getUTCMinutes()); break;
      case "S": value = pad(d.getUTCSeconds()); break;
      case "N": value = pad((ms % 1000) * 1000000, 9); break;
      case "s": value = String(Math.floor(ms / 1000)); break;
      case "a": value = DAYS[d.getUTCDay()]; break;
      case "A": value = DAY_NAMES[d.getUTCDay()]; break;
      case "b": case "h": value = MONTHS[d.getUTCMonth()]; break;
      case "B": value = MONTH_NAMES[d.getUTCMonth()]; break;
      case "p": value = d.getUTCHours() < 12 ? "AM" : "PM"; break;
      case "j": value = pad(yday, 3); break;
      case "u": value = String(d.getUTCDay() || 7); break;
      case "w": value = String(d.getUTCDay()); break;
      case "Z": value = "UTC"; break;
      case "z": value = "+0000"; break;
      case "F": value = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`; break;
      case "T": value = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`; break;
      case "R": value = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`; break;
      case "D": value = `${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}/${pad(d.getUTCFullYear() % 100)}`; break;
      case "c": value = `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${pad(d.getUTCDate(), 2, " ")} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} ${d.getUTCFullYear()}`; break;
      case "n": value = "\n"; break;
      case "t": value = "\t"; break;
      case "%": value = "%"; break;
      default: return whole;
    }
    if (flag === "-") value = value.replace(/^[0 ]+(?=.)/, "");
    if (flag === "^") value = value.toUpperCase();
    return value;
  });
}

function date(ctx) {
  const ms = ctx.sh.host.now();
  let format = "%a %b %e %H:%M:%S %Z %Y";
  for (const arg of ctx.args) {
    if (arg.startsWith("+")) format = arg.slice(1);
    else if (arg === "-u" || arg === "--utc" || arg === "--universal") continue;
    else if (arg === "-I" || arg === "--iso-8601" || arg === "-Idate" || arg === "--iso-8601=date") format = "%F";
    else if (arg === "-Iseconds" || arg === "--iso-8601=seconds") format = "%FT%T+00:00";
    else if (arg === "-R" || arg === "--rfc-email") format = "%a, %d %b %Y %T +0000";
    else throw new Unsupported("date option");
  }
  return ok(`${strftime(format, ms)}\n`);
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

function printenv(ctx) {
  const names = ctx.args.filter((a) => !a.startsWith("-"));
  if (names.length === 0) return ok(Object.entries(ctx.env).map(([k, v]) => `${k}=${v}\n`).join(""));
  let out = "";
  let status = 0;
  for (const name of names) {
    if (Object.hasOwn(ctx.env, name)) out += `${ctx.env[name]}\n`;
    else status = 1;
  }
  return result(out, "", status);
}

function uname(ctx) {
  const { opts } = getopts(ctx.args, [], ["s", "n", "m", "o", "p", "i", "a", "r", "v"], { "kernel-name": "s", nodename: "n", machine: "m", "operating-system": "o" });
  if (opts.a || opts.r || opts.v) throw new Unsupported("uname kernel release");
  const parts = [];
  if (opts.s || Object.keys(opts).length === 0) parts.push("Linux");
  if (opts.n) parts.push(ctx.sh.host.machine.hostname);
  if (opts.m) parts.push("x86_64");
  if (opts.p) parts.push("x86_64");
  if (opts.i) parts.push("x86_64");
  if (opts.o) parts.push("GNU/Linux");
  return ok(`${parts.join(" ")}\n`);
}

function id(ctx) {
  const m = ctx.sh.host.machine;
  const { opts, operands } = getopts(ctx.args, [], ["u", "g", "n", "G", "r"], { user: "u", group: "g", name: "n", groups: "G", real: "r" });
  if (operands.length > 0 && operands[0] !== m.user) return result("", `id: ‘${operands[0]}’: no such user\n`, 1);
  if (opts.u) return ok(`${opts.n ? m.user : m.uid}\n`);
  if (opts.g || opts.G) return ok(`${opts.n ? m.user : m.gid}\n`);
  return ok(`uid=${m.uid}(${m.user}) gid=${m.gid}(${m.user}) groups=${m.gid}(${m.user})\n`);
}

function seq(ctx) {
  const numbers = ctx.args.map(Number);
  if (numbers.length === 0 || numbers.length > 3 || numbers.some((n) => !Number.isFinite(n))) throw new Unsupported("seq");
  const [first, step, last] = numbers.length === 1 ? [1, 1, numbers[0]] : numbers.length === 2 ? [numbers[0], 1, numbers[1]] : numbers;
  if (step === 0) throw new Unsupported("seq step");
  let out = "";
  for (let k = 0, n = first; step > 0 ? n <= last : n >= last; n = first + ++k * step) {
    out += `${n}\n`;
    if (out.length > SHELL_LIMITS.stream) break;
  }
  return ok(out);
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

function cd(ctx) {
  const sh = ctx.sh;
  let target = ctx.args.filter((a) => a !== "-L" && a !== "-P")[0];
  let print = false;
  if (target === undefined) target = sh.vars.HOME ?? sh.host.machine.home;
  if (target === "-") {
    target = sh.vars.OLDPWD ?? sh.cwd;
    print = true;
  }
  const path = sh.host.resolve(sh.cwd, target);
  const node = sh.host.node(path);
  if (node?.kind !== "dir") {
    return result("", sh.bash ? `${sh.argv0}: line ${sh.line}: cd: ${target}: ${node ? "Not a directory" : "No such file or directory"}\n` : `${sh.prefix(sh.line)}cd: can't cd to ${target}\n`, sh.bash ? 1 : 2);
  }
  sh.vars.OLDPWD = sh.cwd;
  sh.cwd = path;
  sh.vars.PWD = path;
  return ok(print ? `${path}\n` : "");
}

function setBuiltin(ctx) {
  const args = [...ctx.args];
  if (args.length === 0) throw new Unsupported("set listing");
  while (args.length > 0) {
    const arg = args.shift();
    if (arg === "--") { ctx.sh.params = args.splice(0); break; }
    if (arg === "-o" || arg === "+o") {
      const option = args.shift();
      const on = arg === "-o";
      if (option === "pipefail") ctx.sh.flags.pipefail = on;
      else if (option === "errexit") ctx.sh.flags.e = on;
      else if (option === "nounset") ctx.sh.flags.u = on;
      else throw new Unsupported(`set -o ${option}`);
      continue;
    }
    if (/^[-+][eu]+$/.test(arg)) {
      for (const c of arg.slice(1)) ctx.sh.flags[c] = arg[0] === "-";
      continue;
    }
    throw new Unsupported(`set ${arg}`);
  }
  return ok();
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
  git: (ctx) => runGit(ctx.args, { cwd: ctx.sh.cwd, host: ctx.sh.host, env: ctx.env }),
  echo: (ctx) => ok(gnuEcho(ctx.args)), printf, true: () => ok(), false: () => result("", "", 1), pwd: (ctx) => ok(`${ctx.sh.cwd}\n`),
  test: (ctx) => testCommand(ctx, false), "[": (ctx) => testCommand(ctx, true),
};
const EXTERNALS_SET = Object.assign(Object.create(null), Object.fromEntries(Object.keys(EXTERNALS).map((k) => [k, true])));
const BUILTINS = Object.assign(Object.create(null), EXTERNALS, SHELL_BUILTINS);

function newShell(host, { argv0, bash, cwd, env, params = [], depth = 0, budget = { commands: 0 } }) {
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
  return finish(() => runParsed(text, sh, stdin));
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
  return finish(() => runCommand(argv, sh, Object.assign(Object.create(null), env ?? {}), stdin));
}

/** Whether the virtual machine has this program on its PATH (Bun.which). */
export function whichProgram(name) {
  return Object.hasOwn(EXTERNALS_SET, name) ? `${BIN}/${name}` : null;
}

function finish(run) {
  try {
    const done = run();
    return { stdout: done.out, stderr: done.err, exitCode: done.status };
  } catch (error) {
    if (error instanceof ExitSignal) return { stdout: cap(error.out), stderr: cap(error.err), exitCode: error.status };
    if (error instanceof Unsupported) return { unsupported: error.message };
    // Anything else is a gap in this interpreter: answered as it was before there was one.
    return { unsupported: `internal: ${error && error.message}` };
  }
}
