// The virtual shell's lexer and parser: a command line into tokens, then into the tree of
// lists, and-or chains, pipelines and commands that shell.js runs. Kept apart from the
// interpreter because it needs nothing of it (only the limits and errors of shell-base.js).

import { SHELL_LIMITS, SyntaxFailure, Unsupported } from "./shell-base.js";

// ───────────────────────── lexer ─────────────────────────

const REDIR_OPS = ["<<-", "&>>", "<<", ">>", ">&", "<&", "<>", ">|", "&>", "<", ">"];
const CONTROL_OPS = ["&&", "||", ";;", "|&", ";", "&", "|", "(", ")"];
const isMeta = (c) => c === " " || c === "\t" || c === "\n" || c === ";" || c === "&" || c === "|" || c === "<" || c === ">" || c === "(" || c === ")";
const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;

export function lex(src, bash) {
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
export function lexWord(src, i, mode, quotedContext = false) {
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

export function parse(tokens) {
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
