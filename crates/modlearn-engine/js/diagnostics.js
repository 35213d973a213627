// Diagnostics as Letta Code records them (phase, severity rules, hints), plus
// modlearn's `fault`: what kind of failure it was (an exception, a timeout,
// running out of memory, ...), so a report can say more than "it threw".

// The engine's own Date, taken while this module is evaluated (before the sandbox puts its
// virtual Date on the global object, which mods may replace, and whose prototype they may patch).
const NativeDate = Date;
const toISOString = Date.prototype.toISOString;

/** Phases Letta produces, plus modlearn's own (`timer`, `unhandled_rejection`). */
export const PHASES = Object.freeze([
  "package_manifest", "legacy_extension", "deprecated_api", "transpile", "import", "activate",
  "command_override", "command.run", "event", "tool.isEnabled", "tool.run", "permission.isEnabled",
  "permission.check", "report", "stale_handle", "dispose", "timer", "unhandled_rejection",
]);

/** Letta's effective severity: most phases are always errors. */
export function effectiveSeverity(phase, severity) {
  if (phase === "command_override") return "warning";
  if (phase === "deprecated_api" || phase === "legacy_extension") return severity ?? "warning";
  if (phase === "report") return severity ?? "error";
  return "error";
}

const DEPRECATED_HINTS = {
  "letta.getContext":
    "letta.getContext() was removed. Handlers, tools, commands and panels receive ctx as an argument: read ctx.cwd, ctx.agent, ctx.model there.",
  "ctx.getContext":
    "ctx.getContext() was removed. ctx already is the context: read its fields (ctx.cwd, ctx.agent, ctx.model) directly.",
  api: "This API was removed from the mod runtime. Use letta.ui.openPanel({ id, render, order }) for status lines and panels.",
  other: "This part of the mod API was removed. Check the mod API guide for its replacement.",
};

const FAULT_HINTS = {
  timeout: "Mod code must finish within the time budget. Look for a loop that never ends or work that grows without bound.",
  out_of_memory: "The mod allocated more memory than the engine allows. Look for collections that grow without bound.",
  stack_overflow: "The call stack overflowed. Look for recursion without a base case.",
  never_settled: "A promise the host awaited can never settle: nothing is left that could resolve it. Resolve or reject every promise you return.",
  host_access: "Mods get Bun's platform on a sandboxed machine of their own (real files and programs, no network); Deno, Bun's members that reach the host and package imports are not there. Use the letta handle and ctx, or a built-in.",
  unhandled_rejection: "A promise rejected and nothing handled it. Await it or attach a .catch().",
};

/** Letta's hint for a diagnostic, or modlearn's for its faults. */
export function hintFor(phase, capability, message, fault) {
  if (phase === "deprecated_api") {
    if (capability && capability.kind === "api") {
      return DEPRECATED_HINTS[capability.id] ?? DEPRECATED_HINTS.api;
    }
    return DEPRECATED_HINTS.other;
  }
  const lower = String(message).toLowerCase();
  if (
    lower.includes("getcontext") &&
    ["not a function", "undefined", "cannot read", "no longer available"].some((s) => lower.includes(s))
  ) {
    return "Dynamic context is now passed as ctx to handlers, tools, commands and panels; getContext() no longer exists.";
  }
  if (lower.includes("not extensible")) {
    return "If this is Object.prototype or an error prototype: modlearn's sandbox takes no new properties there, because the judge's own objects inherit them. Put what you need on your own objects.";
  }
  return FAULT_HINTS[fault];
}

// Diagnostics that are not failures of running code have a fault of their own.
const PHASE_FAULTS = {
  deprecated_api: "deprecated",
  legacy_extension: "deprecated",
  report: "reported",
  stale_handle: "stale_handle",
  command_override: "override",
};

/** Classifies a thrown value into a modlearn fault kind. */
export function classifyFault(error) {
  return classifyRead(readThrown(error));
}

function classifyRead({ isObject, name, ownMessage: message }) {
  if (!isObject) return "exception";
  if (name === "HostAccessError" || message.includes("modlearn runs mods without host access")) return "host_access";
  if (/stack overflow|maximum call stack/i.test(message)) return "stack_overflow";
  if (/out of memory/i.test(message)) return "out_of_memory";
  return "exception";
}

const isReference = (value) => (typeof value === "object" && value !== null) || typeof value === "function";

/** `read()`, or `fallback` when reading throws. */
export function guarded(read, fallback) {
  try {
    return read();
  } catch {
    return fallback;
  }
}

/** `value` as text, or `fallback` when it cannot be made one. */
function textOf(value, fallback) {
  return typeof value === "string" ? value : guarded(() => String(value), fallback);
}

/**
 * What a record needs of a thrown value, each read once and guarded: a getter that throws, a
 * Proxy trap or a `toString` of the mod's must not stop the host recording the mod's failure
 * (it would be reported as modlearn's own), nor decide the shape of the record.
 */
function readThrown(error) {
  const isObject = isReference(error);
  const isError = isObject && guarded(() => error instanceof Error, false);
  const name = isObject ? guarded(() => error.name, undefined) : undefined;
  const rawMessage = isObject ? guarded(() => error.message, undefined) : undefined;
  let message;
  if (isError || typeof rawMessage === "string") message = textOf(rawMessage ?? "", UNREADABLE);
  else if (typeof error === "string") message = error;
  else message = guarded(() => JSON.stringify(error) ?? String(error), undefined) ?? textOf(error, UNREADABLE);
  return {
    isObject,
    isError,
    name: isError || name ? textOf(name, "Error") : "Error",
    message,
    // What the value itself says its message is (the fault is judged by that alone).
    ownMessage: isObject ? textOf(rawMessage ?? "", "") : "",
    stack: isError ? guarded(() => error.stack, undefined) : undefined,
  };
}

const UNREADABLE = "(the thrown value could not be read)";

/** Letta's text for a thrown value (an Error's message, else `String(error)`), guarded. */
export function errorText(error) {
  return guarded(() => textOf(error instanceof Error ? error.message : String(error), UNREADABLE), UNREADABLE);
}

/** `error.name` when it is readable text, else "". */
export function errorName(error) {
  const name = guarded(() => (error ? error.name : undefined), undefined);
  return typeof name === "string" ? name : "";
}

/**
 * Builds the report form of a diagnostic (Letta's report entry fields plus
 * `fault`). `timestamp` comes from the virtual clock, so it is reproducible.
 */
export function makeDiagnostic({ owner, phase, error, capability, severity, fault, now }) {
  const thrown = readThrown(error);
  const message = boundText(thrown.message);
  const kind = fault ?? PHASE_FAULTS[phase] ?? classifyRead(thrown);
  const diagnostic = {
    capability: capability ?? undefined,
    errorName: thrown.name,
    hint: hintFor(phase, capability, message, kind),
    mod: owner ? { id: owner.id, path: owner.path, scope: owner.scope, generation: owner.generation } : null,
    message,
    phase,
    severity: effectiveSeverity(phase, severity),
    stack: phase === "report" || !thrown.isError ? undefined : boundText(cleanStack(thrown.stack)),
    timestamp: Reflect.apply(toISOString, new NativeDate(now), []),
    fault: kind,
  };
  for (const key of Object.keys(diagnostic)) {
    if (diagnostic[key] === undefined) delete diagnostic[key];
  }
  return diagnostic;
}

/** The longest text kept whole; a candidate controls these and reports quote them. */
export const TEXT_LIMIT = 4000;

/**
 * Errors the host recorded as it made them (a host-access error, recorded where its trap
 * fired, before the mod can catch it): kept here, not as a flag on the error, which a mod
 * could set on what it throws to keep its failures off the record.
 */
const recordedErrors = new WeakSet();


/** Marks `error` recorded. */
export function markRecorded(error) {
  if (isReference(error)) recordedErrors.add(error);
}

/** Whether the host recorded `error` when it made it. */
export function wasRecorded(error) {
  return isReference(error) && recordedErrors.has(error);
}

/**
 * At most `limit` bytes of `text` as a JSON artifact writes it, with a marker saying how many
 * characters were cut. Escapes count at their written size (a control character is six
 * bytes on disk), so no choice of characters makes a bounded text larger where it is kept.
 */
export function boundText(text, limit = TEXT_LIMIT) {
  if (typeof text !== "string" || text.length * MAX_UNIT_BYTES <= limit || writtenBytes(text) <= limit) return text;
  // The longest prefix that fits, by bisection: each step is a few native passes.
  let low = 0;
  let high = Math.min(text.length, limit);
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (writtenBytes(text.slice(0, middle)) <= limit) low = middle;
    else high = middle - 1;
  }
  // A surrogate pair stays whole.
  const end = low > 0 && isHighSurrogate(text.charCodeAt(low - 1)) ? low - 1 : low;
  return `${text.slice(0, end)}… [${text.length - end} more characters cut]`;
}

/** The most bytes one UTF-16 unit of text takes in JSON: `\u0001`. */
const MAX_UNIT_BYTES = 6;

const stringify = JSON.stringify;
const ASCII = /[\x00-\x7f]+/g;
const THREE_BYTES = /[\u0800-\ud7ff\ue000-\uffff]/g;
const isHighSurrogate = (unit) => unit >= 0xd800 && unit <= 0xdbff;

/** How many bytes `text` takes inside a JSON string (escaped, UTF-8), without the quotes. */
function writtenBytes(text) {
  // Escapes (controls, quotes, lone surrogates) are ASCII; what is left past them is not.
  const escaped = stringify(text);
  const wide = escaped.replace(ASCII, "");
  const narrower = wide.replace(THREE_BYTES, "");
  // Each wide unit is one byte more than its ASCII count: two- and three-byte characters,
  // and each half of a surrogate pair (four bytes for two units); three-byte ones one more.
  return escaped.length - 2 + wide.length + (wide.length - narrower.length);
}

// Host frames say nothing to a mod author; keep only the candidate's own.
function cleanStack(stack) {
  if (typeof stack !== "string") return undefined;
  const lines = stack.split("\n").filter((line) => line.trim() !== "" && !line.includes("modlearn-host:"));
  return lines.length ? lines.join("\n") : undefined;
}

/**
 * What a Pi or DSH loader adds to its "no plugin here" error when the module
 * is a Letta mod: which dialect the spec asked for, and `fix`, what to export.
 */
export function lettaModHint(namespace, dialect, fix = "") {
  if (typeof namespace.activate !== "function") return "";
  return ` (it exports activate(letta): a Letta mod; this spec's dialect is "${dialect}"${fix === "" ? "" : `, so ${fix}`})`;
}
