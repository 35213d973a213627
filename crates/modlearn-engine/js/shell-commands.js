// The virtual shell's other commands: echo, printf, test/[, ls, cat, basename, dirname, date
// (and strftime, which git's dates share), printenv, uname, id, seq, cd and set. Separate from
// shell.js to keep each file readable; the builtins that re-enter the interpreter (env, which,
// command, type, sh/bash) stay there, so this module never imports shell.js.

import { ExitSignal, getopts, lines, ok, readInputs, result, SHELL_LIMITS, Unsupported } from "./shell-base.js";
import { collate } from "./shell-text.js";

export function dashEcho(args) {
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

export function gnuEcho(args) {
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

export function printf(ctx) {
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

export function testCommand(ctx, bracket) {
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

export function ls(ctx) {
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

export function cat(ctx) {
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

export function basename(ctx) {
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

export function dirname(ctx) {
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

export function date(ctx) {
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

export function printenv(ctx) {
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

export function uname(ctx) {
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

export function id(ctx) {
  const m = ctx.sh.host.machine;
  const { opts, operands } = getopts(ctx.args, [], ["u", "g", "n", "G", "r"], { user: "u", group: "g", name: "n", groups: "G", real: "r" });
  if (operands.length > 0 && operands[0] !== m.user) return result("", `id: ‘${operands[0]}’: no such user\n`, 1);
  if (opts.u) return ok(`${opts.n ? m.user : m.uid}\n`);
  if (opts.g || opts.G) return ok(`${opts.n ? m.user : m.gid}\n`);
  return ok(`uid=${m.uid}(${m.user}) gid=${m.gid}(${m.user}) groups=${m.gid}(${m.user})\n`);
}

export function seq(ctx) {
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

export function cd(ctx) {
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

export function setBuiltin(ctx) {
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
