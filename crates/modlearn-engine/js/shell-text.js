// The virtual shell's text utilities: head, tail, wc, cut, grep, sort, uniq, tr, awk and sed,
// with the POSIX regular expressions and collation they share. Separate from shell.js to keep
// each file readable; they only need shell-base.js, never the interpreter.

import { getopts, lines, readInputs, result, SHELL_LIMITS, Unsupported } from "./shell-base.js";

export const escapeRegex = (s) => s.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");
export const POSIX_CLASSES = {
  alpha: "A-Za-z", digit: "0-9", alnum: "A-Za-z0-9", upper: "A-Z", lower: "a-z", space: " \\t\\n\\r\\f\\v",
  blank: " \\t", punct: "!-\\/:-@\\[-`{-~", xdigit: "0-9A-Fa-f", cntrl: "\\x00-\\x1f\\x7f", print: " -~", graph: "!-~", word: "A-Za-z0-9_",
};

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

export function headTail(ctx, tail) {
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

export function wc(ctx) {
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

export function cut(ctx) {
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

export function grep(ctx) {
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

export function sort(ctx) {
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

export function uniq(ctx) {
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

export function tr(ctx) {
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
export function awk(ctx) {
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
export function sed(ctx) {
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
