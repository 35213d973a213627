// Shared pieces of the virtual shell (shell.js): its limits, the errors it signals, command
// results, and the helpers every utility uses (lines, readInputs, getopts). A leaf module, so
// the parser, the utilities and the interpreter all import it without an import cycle.

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

export class Unsupported extends Error {}
export class SyntaxFailure extends Error {}
export class ExitSignal {
  constructor(status, out = "", err = "") {
    this.status = status;
    this.out = out;
    this.err = err;
  }
}

export const cap = (text) => (text.length > SHELL_LIMITS.stream ? text.slice(0, SHELL_LIMITS.stream) : text);
export const result = (out = "", err = "", status = 0) => ({ out: cap(out), err: cap(err), status });

export const ok = (out = "") => result(out, "", 0);

/** Splits text into lines, each with its newline (the last may lack one). */
export function lines(text) {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

export function readInputs(ctx, files, tool) {
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
export function getopts(args, valued, allowed, longs = {}) {
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
