// Pieces of node:util, node:path, node:events and node:querystring as Bun 1.4.5 has them:
// the legacy type checks, the system error table, MIMEType/MIMEParams, parseEnv,
// toNamespacedPath, matchesGlob, addAbortListener and unescapeBuffer. Bun is the reference:
// its messages and quirks are kept where they differ from Node's.

// ───────────────────────── errors, with Bun's wording ─────────────────────────

function codedError(Ctor, code, message) {
  const error = new Ctor(message);
  error.code = code;
  return error;
}

// A string as Bun quotes it inside "Received type string (...)": cut to 25 units past 28,
// double quotes (escaping only `"`) when it holds a `'`, else single quotes, nothing else escaped.
function quoteForMessage(text) {
  const cut = text.length > 28 ? `${text.slice(0, 25)}...` : text;
  return text.includes("'") ? `"${cut.replace(/"/g, '\\"')}"` : `'${cut}'`;
}

// A function's name as JSC computes it for messages: a string displayName wins, else a string name.
function functionDisplayName(fn) {
  try {
    const own = Object.getOwnPropertyDescriptor(fn, "displayName");
    if (own && "value" in own && typeof own.value === "string") return own.value;
    const name = fn.name;
    if (typeof name !== "string") return "";
    // JSC names a bound function after its target.
    return name.startsWith("bound ") && !Object.prototype.hasOwnProperty.call(fn, "prototype") ? name.slice(6) : name;
  } catch {
    return "";
  }
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

// A small stand-in for Bun.inspect, for the objects Bun describes by inspecting them
// (those whose `constructor` is falsy, mainly null-prototype objects).
function miniInspect(value, seen = []) {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return Object.is(value, -0) ? "-0" : String(value);
    case "bigint":
      return `${value}n`;
    case "symbol":
      return value.toString();
    case "undefined":
      return "undefined";
    case "boolean":
      return String(value);
    case "function": {
      const name = functionDisplayName(value);
      const source = Function.prototype.toString.call(value);
      if (source.startsWith("class")) return name ? `[class ${name}]` : "[class (anonymous)]";
      return name ? `[Function: ${name}]` : "[Function]";
    }
    default:
      break;
  }
  if (value === null) return "null";
  if (seen.includes(value)) return "[Circular]";
  const inner = seen.concat([value]);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "Invalid Date" : value.toISOString();
  if (value instanceof RegExp) return String(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[ ${value.map((item) => miniInspect(item, inner)).join(", ")} ]`;
  }
  const parts = [];
  for (const key of Reflect.ownKeys(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (!descriptor || !descriptor.enumerable || key === "constructor") continue;
    const shown = typeof key === "symbol" ? `[${key.toString()}]` : IDENTIFIER.test(key) ? key : JSON.stringify(key);
    const shownValue = "value" in descriptor ? miniInspect(descriptor.value, inner) : "[Getter/Setter]";
    parts.push(`${shown}: ${shownValue}`);
  }
  const prefix = Object.getPrototypeOf(value) === null ? "[Object: null prototype] " : "";
  return parts.length ? `${prefix}{ ${parts.join(", ")} }` : `${prefix}{}`;
}

// What Bun appends after "Received" in ERR_INVALID_ARG_TYPE (and after "received" in ERR_INVALID_THIS).
function describeReceived(value) {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  switch (typeof value) {
    case "number":
    case "boolean":
      return `type ${typeof value} (${String(value)})`;
    case "bigint":
      return `type bigint (${value}n)`;
    case "symbol":
      return `type symbol (${value.toString()})`;
    case "string":
      return `type string (${quoteForMessage(value)})`;
    case "function":
      return `function ${functionDisplayName(value)}`;
    default: {
      const constructor = value.constructor;
      if (constructor) return `an instance of ${toStr(constructor.name)}`;
      return miniInspect(value);
    }
  }
}

function invalidArgType(name, expected, value) {
  return codedError(TypeError, "ERR_INVALID_ARG_TYPE", `The "${name}" argument must be of type ${expected}. Received ${describeReceived(value)}`);
}

function invalidThis(className, value) {
  const suffix = value === undefined ? "" : `, but received ${describeReceived(value)}`;
  return codedError(TypeError, "ERR_INVALID_THIS", `Expected this to be instanceof ${className}${suffix}`);
}

// Node's numeric separators for the "Received" of ERR_OUT_OF_RANGE.
function addNumericalSeparator(text) {
  let result = "";
  let i = text.length;
  const start = text[0] === "-" ? 1 : 0;
  for (; i >= start + 4; i -= 3) result = `_${text.slice(i - 3, i)}${result}`;
  return `${text.slice(0, i)}${result}`;
}

function outOfRange(name, range, value) {
  const shown = Number.isInteger(value) && Math.abs(value) > 2 ** 32 ? addNumericalSeparator(String(value)) : Object.is(value, -0) ? "-0" : String(value);
  return codedError(RangeError, "ERR_OUT_OF_RANGE", `The value of "${name}" is out of range. It must be ${range}. Received ${shown}`);
}

// String conversion with JSC's wording for a symbol, as Bun's native code reports it.
function toStr(value) {
  if (typeof value === "symbol") throw new TypeError("Cannot convert a symbol to a string");
  return String(value);
}

// ───────────────────────── legacy type checks ─────────────────────────

export const isBoolean = (value) => typeof value === "boolean";
export const isFunction = (value) => typeof value === "function";
export const isNull = (value) => value === null;
export const isNullOrUndefined = (value) => value === null || value === undefined;
export const isNumber = (value) => typeof value === "number";
export const isObject = (value) => typeof value === "object" && value !== null;
// Bun leaves bigint out of its primitives.
export const isPrimitive = (value) =>
  value === null || value === undefined || typeof value === "boolean" || typeof value === "number" || typeof value === "string" || typeof value === "symbol";
export const isString = (value) => typeof value === "string";
export const isSymbol = (value) => typeof value === "symbol";
export const isUndefined = (value) => value === undefined;
// isDate and isRegExp are util.types' brand checks (util-types.js).

/** isBuffer needs the sandbox's Buffer: `makeIsBuffer(Buffer)` returns `isBuffer(value)`. */
export function makeIsBuffer(BufferCtor) {
  return function isBuffer(value) {
    return BufferCtor.isBuffer(value);
  };
}

// ───────────────────────── system errors (Linux, libuv's table as Bun has it) ─────────────────────────

const ERRNO_TABLE = [
  [-4095, "EOF", "end of file"], [-4094, "UNKNOWN", "unknown error"],
  [-3000, "EAI_ADDRFAMILY", "address family not supported"], [-3001, "EAI_AGAIN", "temporary failure"],
  [-3002, "EAI_BADFLAGS", "bad ai_flags value"], [-3003, "EAI_CANCELED", "request canceled"],
  [-3004, "EAI_FAIL", "permanent failure"], [-3005, "EAI_FAMILY", "ai_family not supported"],
  [-3006, "EAI_MEMORY", "out of memory"], [-3007, "EAI_NODATA", "no address"],
  [-3008, "EAI_NONAME", "unknown node or service"], [-3009, "EAI_OVERFLOW", "argument buffer overflow"],
  [-3010, "EAI_SERVICE", "service not available for socket type"], [-3011, "EAI_SOCKTYPE", "socket type not supported"],
  [-3013, "EAI_BADHINTS", "invalid value for hints"], [-3014, "EAI_PROTOCOL", "resolved protocol is unknown"],
  [-7, "E2BIG", "argument list too long"], [-13, "EACCES", "permission denied"],
  [-98, "EADDRINUSE", "address already in use"], [-99, "EADDRNOTAVAIL", "address not available"],
  [-97, "EAFNOSUPPORT", "address family not supported"], [-11, "EAGAIN", "resource temporarily unavailable"],
  [-114, "EALREADY", "connection already in progress"], [-9, "EBADF", "bad file descriptor"],
  [-16, "EBUSY", "resource busy or locked"], [-125, "ECANCELED", "operation canceled"],
  [-4080, "ECHARSET", "invalid Unicode character"], [-103, "ECONNABORTED", "software caused connection abort"],
  [-111, "ECONNREFUSED", "connection refused"], [-104, "ECONNRESET", "connection reset by peer"],
  [-89, "EDESTADDRREQ", "destination address required"], [-17, "EEXIST", "file already exists"],
  [-14, "EFAULT", "bad address in system call argument"], [-113, "EHOSTUNREACH", "host is unreachable"],
  [-4, "EINTR", "interrupted system call"], [-22, "EINVAL", "invalid argument"],
  [-5, "EIO", "i/o error"], [-106, "EISCONN", "socket is already connected"],
  [-21, "EISDIR", "illegal operation on a directory"], [-40, "ELOOP", "too many symbolic links encountered"],
  [-24, "EMFILE", "too many open files"], [-90, "EMSGSIZE", "message too long"],
  [-36, "ENAMETOOLONG", "name too long"], [-100, "ENETDOWN", "network is down"],
  [-101, "ENETUNREACH", "network is unreachable"], [-23, "ENFILE", "file table overflow"],
  [-105, "ENOBUFS", "no buffer space available"], [-19, "ENODEV", "no such device"],
  [-2, "ENOENT", "no such file or directory"], [-12, "ENOMEM", "not enough memory"],
  [-64, "ENONET", "machine is not on the network"], [-28, "ENOSPC", "no space left on device"],
  [-38, "ENOSYS", "function not implemented"], [-107, "ENOTCONN", "socket is not connected"],
  [-20, "ENOTDIR", "not a directory"], [-39, "ENOTEMPTY", "directory not empty"],
  [-88, "ENOTSOCK", "socket operation on non-socket"], [-95, "ENOTSUP", "operation not supported on socket"],
  [-1, "EPERM", "operation not permitted"], [-32, "EPIPE", "broken pipe"],
  [-71, "EPROTO", "protocol error"], [-93, "EPROTONOSUPPORT", "protocol not supported"],
  [-91, "EPROTOTYPE", "protocol wrong type for socket"], [-30, "EROFS", "read-only file system"],
  [-108, "ESHUTDOWN", "cannot send after transport endpoint shutdown"], [-29, "ESPIPE", "invalid seek"],
  [-3, "ESRCH", "no such process"], [-110, "ETIMEDOUT", "connection timed out"],
  [-26, "ETXTBSY", "text file is busy"], [-18, "EXDEV", "cross-device link not permitted"],
  [-27, "EFBIG", "file too large"], [-92, "ENOPROTOOPT", "protocol not available"],
  [-34, "ERANGE", "result too large"], [-6, "ENXIO", "no such device or address"],
  [-31, "EMLINK", "too many links"], [-112, "EHOSTDOWN", "host is down"],
  [-121, "EREMOTEIO", "remote I/O error"], [-25, "ENOTTY", "inappropriate ioctl for device"],
  [-4028, "EFTYPE", "inappropriate file type or format"], [-84, "EILSEQ", "illegal byte sequence"],
  [-75, "EOVERFLOW", "value too large for defined data type"], [-94, "ESOCKTNOSUPPORT", "socket type not supported"],
  [-61, "ENODATA", "no data available"], [-49, "EUNATCH", "protocol driver not attached"],
  [-8, "ENOEXEC", "exec format error"],
];
const ERRNO = new Map(ERRNO_TABLE.map(([errno, name, message]) => [errno, [name, message]]));

function validateErrno(err) {
  if (typeof err !== "number") throw invalidArgType("err", "number", err);
  if (err >= 0 || !Number.isSafeInteger(err)) throw outOfRange("err", "a negative integer", err);
}

export function getSystemErrorName(err) {
  validateErrno(err);
  const entry = ERRNO.get(err);
  return entry ? entry[0] : `Unknown system error ${err}`;
}

export function getSystemErrorMessage(err) {
  validateErrno(err);
  const entry = ERRNO.get(err);
  return entry ? entry[1] : `Unknown system error ${err}`;
}

// A fresh Map each call, so callers cannot alter the table.
export function getSystemErrorMap() {
  const copy = new Map();
  for (const [errno, [name, message]] of ERRNO) copy.set(errno, [name, message]);
  return copy;
}

// ───────────────────────── MIMEType / MIMEParams (Node's algorithm) ─────────────────────────

const NOT_HTTP_TOKEN = /[^!#$%&'*+\-.^_`|~A-Za-z0-9]/;
const NOT_HTTP_QUOTED_STRING = /[^\t\u0020-~\u0080-\u00FF]/;
const END_BEGINNING_WHITESPACE = /[^\r\n\t ]|$/;
const START_ENDING_WHITESPACE = /[\r\n\t ]*$/;
const EQUALS_SEMICOLON_OR_END = /[;=]|$/;
const QUOTED_VALUE = /^(?:([\\]$)|[\\][\s\S]|[^"])*(?:(")|$)/u;

function invalidMimeSyntax(production, text, invalidIndex) {
  const at = invalidIndex !== -1 ? ` at ${invalidIndex}` : "";
  return codedError(TypeError, "ERR_INVALID_MIME_SYNTAX", `The MIME syntax for a ${production} in "${text}" is invalid${at}`);
}

const toASCIILower = (text) => text.replace(/[A-Z]+/g, (run) => run.toLowerCase());

function parseTypeAndSubtype(text) {
  let position = text.search(END_BEGINNING_WHITESPACE);
  const typeEnd = text.indexOf("/", position);
  const rawType = typeEnd === -1 ? text.slice(position) : text.slice(position, typeEnd);
  const invalidTypeIndex = rawType.search(NOT_HTTP_TOKEN);
  if (rawType === "" || invalidTypeIndex !== -1 || typeEnd === -1) throw invalidMimeSyntax("type", text, invalidTypeIndex);
  position = typeEnd + 1;
  const subtypeEnd = text.indexOf(";", position);
  const rawSubtype = subtypeEnd === -1 ? text.slice(position) : text.slice(position, subtypeEnd);
  position += rawSubtype.length;
  if (subtypeEnd !== -1) position += 1;
  const trimmedSubtype = rawSubtype.slice(0, rawSubtype.search(START_ENDING_WHITESPACE));
  const invalidSubtypeIndex = trimmedSubtype.search(NOT_HTTP_TOKEN);
  if (trimmedSubtype === "" || invalidSubtypeIndex !== -1) throw invalidMimeSyntax("subtype", text, invalidSubtypeIndex);
  return { type: toASCIILower(rawType), subtype: toASCIILower(trimmedSubtype), parametersStart: position };
}

function removeBackslashes(text) {
  let out = "";
  let i;
  for (i = 0; i < text.length - 1; i++) {
    if (text[i] === "\\") out += text[++i];
    else out += text[i];
  }
  if (i === text.length - 1) out += text[i];
  return out;
}

// Fills `map` from the text after `type/subtype;`, as Node's MIMEParams#parse does.
function parseParameters(text, map) {
  let position = 0;
  const endOfSource = text.search(START_ENDING_WHITESPACE);
  while (position < endOfSource) {
    position += text.slice(position).search(END_BEGINNING_WHITESPACE);
    const afterName = text.slice(position).search(EQUALS_SEMICOLON_OR_END) + position;
    const name = toASCIILower(text.slice(position, afterName));
    position = afterName;
    if (position < endOfSource) {
      const terminator = text[position];
      position += 1;
      if (terminator === ";") continue;
    }
    if (position >= endOfSource) break;
    let value;
    if (text[position] === '"') {
      position += 1;
      const inside = QUOTED_VALUE.exec(text.slice(position));
      position += inside[0].length;
      const body = inside[1] || inside[2] ? inside[0].slice(0, -1) : inside[0];
      value = removeBackslashes(body);
      if (inside[1]) value += "\\";
    } else {
      const valueEnd = text.indexOf(";", position);
      const rawValue = valueEnd === -1 ? text.slice(position) : text.slice(position, valueEnd);
      position += rawValue.length;
      const trimmed = rawValue.slice(0, rawValue.search(START_ENDING_WHITESPACE));
      if (trimmed === "") continue;
      value = trimmed;
    }
    if (name !== "" && name.search(NOT_HTTP_TOKEN) === -1 && value.search(NOT_HTTP_QUOTED_STRING) === -1 && !map.has(name)) {
      map.set(name, value);
    }
    position++;
  }
}

function encodeParameterValue(value) {
  if (value.length === 0) return '""';
  if (value.search(NOT_HTTP_TOKEN) === -1) return value;
  return `"${value.replace(/["\\]/g, "\\$&")}"`;
}

// Private state lives in WeakMaps, which is also the brand check for ERR_INVALID_THIS.
const paramsData = new WeakMap();
const mimeData = new WeakMap();

function paramsMap(self) {
  const map = paramsData.get(self);
  if (map === undefined) throw invalidThis("MIMEParams", self);
  return map;
}

function mimeState(self) {
  const state = mimeData.get(self);
  if (state === undefined) throw invalidThis("MIMEType", self);
  return state;
}

function paramsToString(map) {
  let out = "";
  for (const [key, value] of map) {
    if (out.length) out += ";";
    out += `${key}=${encodeParameterValue(value)}`;
  }
  return out;
}

export class MIMEParams {
  constructor() {
    paramsData.set(this, new Map());
  }

  // Bun converts the name to a string for get/has/delete (Node looks it up as given).
  get(name) {
    const map = paramsMap(this);
    const key = toStr(name);
    return map.has(key) ? map.get(key) : null;
  }

  has(name) {
    return paramsMap(this).has(toStr(name));
  }

  set(name, value) {
    const map = paramsMap(this);
    const key = toStr(name);
    const text = toStr(value);
    const invalidNameIndex = key.search(NOT_HTTP_TOKEN);
    if (key.length === 0 || invalidNameIndex !== -1) throw invalidMimeSyntax("parameter name", key, invalidNameIndex);
    const invalidValueIndex = text.search(NOT_HTTP_QUOTED_STRING);
    if (invalidValueIndex !== -1) throw invalidMimeSyntax("parameter value", text, invalidValueIndex);
    map.set(key, text);
  }

  delete(name) {
    paramsMap(this).delete(toStr(name));
  }

  toString() {
    return paramsToString(paramsMap(this));
  }

  // Bun hands out the backing Map's own iterators.
  entries() {
    return paramsMap(this).entries();
  }

  keys() {
    return paramsMap(this).keys();
  }

  values() {
    return paramsMap(this).values();
  }

  toJSON() {
    return paramsToString(paramsMap(this));
  }
}

function mimeToString(state) {
  const params = paramsToString(paramsData.get(state.params));
  return `${state.type}/${state.subtype}${params.length ? `;${params}` : ""}`;
}

export class MIMEType {
  constructor(string) {
    const text = toStr(string);
    const parsed = parseTypeAndSubtype(text);
    const params = new MIMEParams();
    parseParameters(text.slice(parsed.parametersStart), paramsData.get(params));
    mimeData.set(this, { type: parsed.type, subtype: parsed.subtype, params });
  }

  get type() {
    return mimeState(this).type;
  }

  set type(value) {
    const state = mimeState(this);
    const text = toStr(value);
    const invalidIndex = text.search(NOT_HTTP_TOKEN);
    if (text.length === 0 || invalidIndex !== -1) throw invalidMimeSyntax("type", text, invalidIndex);
    state.type = toASCIILower(text);
  }

  get subtype() {
    return mimeState(this).subtype;
  }

  set subtype(value) {
    const state = mimeState(this);
    const text = toStr(value);
    const invalidIndex = text.search(NOT_HTTP_TOKEN);
    if (text.length === 0 || invalidIndex !== -1) throw invalidMimeSyntax("subtype", text, invalidIndex);
    state.subtype = toASCIILower(text);
  }

  get essence() {
    const state = mimeState(this);
    return `${state.type}/${state.subtype}`;
  }

  get params() {
    return mimeState(this).params;
  }

  toString() {
    return mimeToString(mimeState(this));
  }

  toJSON() {
    return mimeToString(mimeState(this));
  }
}

// Bun's prototypes have enumerable methods and accessors, a toStringTag, and MIMEParams
// iterates as its entries().
function makeEnumerable(proto, keys) {
  for (const key of keys) {
    const descriptor = Object.getOwnPropertyDescriptor(proto, key);
    descriptor.enumerable = true;
    Object.defineProperty(proto, key, descriptor);
  }
}
makeEnumerable(MIMEType.prototype, ["type", "subtype", "essence", "params", "toString", "toJSON"]);
makeEnumerable(MIMEParams.prototype, ["get", "has", "set", "delete", "toString", "entries", "keys", "values", "toJSON"]);
Object.defineProperty(MIMEType.prototype, Symbol.toStringTag, { value: "MIMEType", configurable: true });
Object.defineProperty(MIMEParams.prototype, Symbol.toStringTag, { value: "MIMEParams", configurable: true });
Object.defineProperty(MIMEParams.prototype, Symbol.iterator, { value: MIMEParams.prototype.entries, writable: true, configurable: true });

// ───────────────────────── parseEnv (Bun's .env reader, not Node's) ─────────────────────────

const ENV_WHITESPACE = "\t\x0B\x0C \n\r";
const isEnvWhitespace = (char) => char !== undefined && ENV_WHITESPACE.includes(char);
const isKeyChar = (char) => /[A-Za-z0-9_.\-]/.test(char);

function trimEnvWhitespace(text) {
  let start = 0;
  let end = text.length;
  while (start < end && isEnvWhitespace(text[start])) start++;
  while (end > start && isEnvWhitespace(text[end - 1])) end--;
  return text.slice(start, end);
}

// Bun works on UTF-8, so an unpaired surrogate comes back as U+FFFD.
function toWellFormed(text) {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\ufffd");
}

export function parseEnv(content) {
  if (typeof content !== "string") throw invalidArgType("content", "string", content);
  // A byte order mark is dropped only at the very start.
  const src = toWellFormed(content.charCodeAt(0) === 0xfeff ? content.slice(1) : content);
  const length = src.length;
  const result = {};
  let pos = 0;

  const skipWhitespace = (from) => {
    let i = from;
    while (i < length && isEnvWhitespace(src[i])) i++;
    return i;
  };

  // `KEY=`, `KEY: ` (a colon needs whitespace after it), with an optional `export ` in front.
  const parseKey = (checkExport) => {
    if (checkExport) pos = skipWhitespace(pos);
    const start = pos;
    let end = start;
    while (end < length && isKeyChar(src[end])) end++;
    if (end < length && start < end) {
      pos = skipWhitespace(end);
      if (pos < length) {
        if (checkExport && end < pos && src.slice(start, end) === "export") {
          const key = parseKey(false);
          if (key !== null) return key;
        }
        if (src[pos] === "=") {
          pos += 1;
          return src.slice(start, end);
        }
        if (src[pos] === ":" && pos + 1 < length && isEnvWhitespace(src[pos + 1])) {
          pos += 2;
          return src.slice(start, end);
        }
      }
    }
    pos = start;
    return null;
  };

  const skipLine = () => {
    while (pos < length && src[pos] !== "\n" && src[pos] !== "\r") pos++;
    if (pos < length) pos++;
  };

  // A quoted value ends at its first unescaped closing quote; the rest of that line is dropped.
  // Only double quotes expand \n and \r; other escapes keep their backslash.
  const parseQuoted = (open, quote) => {
    let close = -1;
    for (let i = open + 1; i < length; i++) {
      if (src[i] === "\\") i++;
      else if (src[i] === quote) {
        close = i;
        break;
      }
    }
    if (close === -1) return null;
    let value = "";
    let i = open + 1;
    while (i < close) {
      const char = src[i];
      if (char === "\\") {
        if (quote === '"') {
          const next = src[i + 1];
          value += next === "n" ? "\n" : next === "r" ? "\r" : `\\${next}`;
          i += 2;
        } else {
          value += "\\";
          i += 1;
        }
      } else if (char === "\r") {
        i += 1;
        // A lone \r becomes \n; the \r of \r\n is dropped.
        if (i >= close + 1 || src[i] !== "\n") value += "\n";
      } else {
        value += char;
        i += 1;
      }
    }
    pos = close + 1;
    while (pos < length && src[pos] !== "\n" && src[pos] !== "\r") pos++;
    return value;
  };

  const parseValue = () => {
    const start = pos;
    const first = skipWhitespace(pos);
    if (first >= length) {
      pos = first;
      return "";
    }
    const char = src[first];
    if (char === '"' || char === "'" || char === "`") {
      const quoted = parseQuoted(first, char);
      if (quoted !== null) return quoted;
    }
    let end = start;
    while (end < length && src[end] !== "#" && src[end] !== "\r" && src[end] !== "\n") end++;
    pos = end;
    return trimEnvWhitespace(src.slice(start, end));
  };

  while (pos < length) {
    const key = parseKey(true);
    if (key === null) {
      skipLine();
      continue;
    }
    const value = parseValue();
    // defineProperty, so a "__proto__" key becomes an own property as in Bun.
    Object.defineProperty(result, key, { value, writable: true, enumerable: true, configurable: true });
  }
  return result;
}

// ───────────────────────── node:path ─────────────────────────

// On POSIX it hands back whatever it is given, strings or not.
export function toNamespacedPath(path) {
  return path;
}

// ───────────────────────── node:events addAbortListener ─────────────────────────

/**
 * `makeAddAbortListener(callMod, disposeSymbol?)` returns `addAbortListener(signal, listener)`. The
 * listener runs through `callMod(fn, thisArg, args)`: with the event and the signal as `this` when
 * the signal aborts later, with no arguments and no `this` (in a queueMicrotask job) when it is
 * already aborted. The returned Disposable is keyed by `disposeSymbol` (default `Symbol.dispose`,
 * or `Symbol.for("nodejs.dispose")` where the engine has none).
 */
export function makeAddAbortListener(callMod, disposeSymbol = Symbol.dispose ?? Symbol.for("nodejs.dispose")) {
  // One wrapper per (signal, listener), so that adding the same listener twice registers it once,
  // as EventTarget does for the bare listener in Bun.
  const wrappers = new WeakMap();
  const wrapperFor = (signal, listener) => {
    let bySignal = wrappers.get(signal);
    if (bySignal === undefined) {
      bySignal = new WeakMap();
      wrappers.set(signal, bySignal);
    }
    let handler = bySignal.get(listener);
    if (handler === undefined) {
      handler = function abortHandler(event) {
        return callMod(listener, this, [event]);
      };
      bySignal.set(listener, handler);
    }
    return handler;
  };
  return function addAbortListener(signal, listener) {
    if (signal === undefined) throw invalidArgType("signal", "AbortSignal", signal);
    if (signal === null || typeof signal !== "object" || !("aborted" in signal)) throw invalidArgType("signal", "AbortSignal", signal);
    if (typeof listener !== "function") throw invalidArgType("listener", "function", listener);
    let removeEventListener;
    if (signal.aborted) {
      queueMicrotask(() => callMod(listener, undefined, []));
    } else {
      const handler = wrapperFor(signal, listener);
      signal.addEventListener("abort", handler, { __proto__: null, once: true });
      removeEventListener = () => {
        signal.removeEventListener("abort", handler);
      };
    }
    return {
      __proto__: null,
      [disposeSymbol]() {
        removeEventListener?.();
      },
    };
  };
}

// ───────────────────────── node:querystring unescapeBuffer ─────────────────────────

const HEX_VALUE = (code) => (code >= 48 && code <= 57 ? code - 48 : code >= 65 && code <= 70 ? code - 55 : code >= 97 && code <= 102 ? code - 87 : -1);

/** `makeUnescapeBuffer(Buffer)` returns `unescapeBuffer(s, decodeSpaces)` over that Buffer. */
export function makeUnescapeBuffer(BufferCtor) {
  return function unescapeBuffer(s, decodeSpaces) {
    // Buffer.allocUnsafe validates `s.length` (and null/undefined throw on the read).
    const out = BufferCtor.allocUnsafe(s.length);
    const text = String(s);
    const length = s.length;
    const maxLength = length - 2;
    let index = 0;
    let outIndex = 0;
    let hasHex = false;
    while (index < length) {
      let current = text.charCodeAt(index);
      if (current === 43 /* + */ && decodeSpaces) {
        out[outIndex++] = 32;
        index++;
        continue;
      }
      if (current === 37 /* % */ && index < maxLength) {
        current = text.charCodeAt(++index);
        const high = HEX_VALUE(current);
        if (!(high >= 0)) {
          out[outIndex++] = 37;
          continue;
        }
        const low = HEX_VALUE(text.charCodeAt(++index));
        if (!(low >= 0)) {
          out[outIndex++] = 37;
          index--;
        } else {
          hasHex = true;
          current = high * 16 + low;
        }
      }
      out[outIndex++] = current;
      index++;
    }
    return hasHex ? out.slice(0, outIndex) : out;
  };
}

// ───────────────────────── matchesGlob (Bun.Glob's syntax) ─────────────────────────
// Bun's matchesGlob is Bun.Glob#match, not Node's minimatch: `*` and `?` take a leading dot,
// `[!x]`/`[^x]` negate, `\b` `\n` `\r` `\t` are control characters, a leading `!` negates,
// extglobs `?() *() +() @() !()` work, and an unclosed `[`, `{` or `(` is literal.
// The pattern is read into a tree (braces and extglobs as alternatives) and matched by
// backtracking over code points; `compile` and `Cut` below reproduce the quirks of Bun's own
// matcher (which `**` is a globstar, `**/**` folding, its single place to go back to), found by
// comparing with Bun on random patterns.

const SLASH = 0x2f;
const MAX_STEPS = 2_000_000;
// Per call: work done, whether Bun's one-place backtracking applies, and the globstar to go back to.
const run = { steps: 0, cuts: false, target: null };

function codePoints(text) {
  const out = [];
  for (const char of text) {
    const cp = char.codePointAt(0);
    out.push(cp >= 0xd800 && cp <= 0xdfff ? 0xfffd : cp);
  }
  return out;
}

// `\x` in a pattern: \b, \n, \r and \t are control characters; any other is the character itself.
function unescapeChar(cp) {
  switch (cp) {
    case 0x62:
      return 0x08;
    case 0x6e:
      return 0x0a;
    case 0x72:
      return 0x0d;
    case 0x74:
      return 0x09;
    default:
      return cp;
  }
}

// A class `[...]` from `start` (at the `[`), or null when it is not closed.
function parseClass(p, start) {
  let i = start + 1;
  let negated = false;
  if (p[i] === 0x21 || p[i] === 0x5e) {
    negated = true;
    i++;
  }
  const ranges = [];
  let first = true;
  const readChar = () => {
    let c = p[i];
    if (c === 0x5c) {
      i++;
      if (i >= p.length) return null;
      c = unescapeChar(p[i]);
    }
    i++;
    return c;
  };
  while (i < p.length && (first || p[i] !== 0x5d)) {
    const low = readChar();
    if (low === null) return null;
    let high = low;
    if (i + 1 < p.length && p[i] === 0x2d && p[i + 1] !== 0x5d) {
      i++;
      high = readChar();
      if (high === null) return null;
    }
    ranges.push([low, high]);
    first = false;
  }
  if (i >= p.length) return null;
  return { node: { t: "class", negated, ranges }, end: i + 1 };
}

// Tree nodes: lit {c, esc}, star, any, class, brace {alts}, ext {kind, alts}.
// One pass with a stack of open groups: `,` splits only the innermost group if it is a brace and
// `|` only if it is an extglob; `}` and `)` close the nearest group of their kind, and any group
// still open above it (or at the end) falls back to its text.
function parsePattern(p, start) {
  const root = { alts: [[]] };
  const stack = [root];
  const current = () => {
    const top = stack[stack.length - 1];
    return top.alts[top.alts.length - 1];
  };
  // A group read as text: its opening, then its alternatives joined by the separator.
  const asText = (frame) => {
    const nodes = [];
    if (frame.kind === "brace") nodes.push({ t: "lit", c: 0x7b });
    else {
      if (frame.char === "?") nodes.push({ t: "any" });
      else if (frame.char === "*") nodes.push({ t: "star" });
      else nodes.push({ t: "lit", c: frame.char.codePointAt(0) });
      nodes.push({ t: "lit", c: 0x28 });
    }
    frame.alts.forEach((alt, index) => {
      if (index > 0) nodes.push({ t: "lit", c: frame.kind === "brace" ? 0x2c : 0x7c });
      nodes.push(...alt);
    });
    return nodes;
  };
  // Closes the nearest group of `kind`; the groups above it become text.
  const close = (kind) => {
    let at = stack.length - 1;
    while (at > 0 && stack[at].kind !== kind) at--;
    if (at === 0) return false;
    while (stack.length - 1 > at) {
      const abandoned = stack.pop();
      current().push(...asText(abandoned));
    }
    const frame = stack.pop();
    current().push(kind === "brace" ? { t: "brace", alts: frame.alts } : { t: "ext", kind: frame.char, alts: frame.alts });
    return true;
  };
  let i = start;
  while (i < p.length) {
    const c = p[i];
    const top = stack[stack.length - 1];
    if (c === 0x5c) {
      if (i + 1 < p.length) {
        current().push({ t: "lit", c: unescapeChar(p[i + 1]), esc: true });
        i += 2;
      } else {
        current().push({ t: "lit", c });
        i += 1;
      }
      continue;
    }
    if ((c === 0x3f || c === 0x2a || c === 0x2b || c === 0x40 || c === 0x21) && p[i + 1] === 0x28) {
      stack.push({ kind: "ext", char: String.fromCodePoint(c), alts: [[]] });
      i += 2;
      continue;
    }
    if (c === 0x5b) {
      const cls = parseClass(p, i);
      if (cls) {
        current().push(cls.node);
        i = cls.end;
        continue;
      }
    }
    i += 1;
    if (c === 0x2a) current().push({ t: "star" });
    else if (c === 0x3f) current().push({ t: "any" });
    else if (c === 0x7b) stack.push({ kind: "brace", alts: [[]] });
    else if (c === 0x2c && top.kind === "brace") top.alts.push([]);
    else if (c === 0x7c && top.kind === "ext") top.alts.push([]);
    else if (c === 0x7d && close("brace")) continue;
    else if (c === 0x29 && close("ext")) continue;
    else current().push({ t: "lit", c });
  }
  while (stack.length > 1) {
    const abandoned = stack.pop();
    current().push(...asText(abandoned));
  }
  return root.alts[0];
}

const isSlashLit = (node) => node !== undefined && node.t === "lit" && node.c === SLASH && !node.esc;
// Before a run, an escaped slash counts too (Bun looks at the pattern's text there).
const isSlashBefore = (node) => node !== undefined && node.t === "lit" && node.c === SLASH;

// Marks each run of stars: exactly two stars whose neighbours are slashes make a globstar. At the
// start or end of a group's alternative the group's own neighbours decide, and the pattern's two
// ends count as slashes. Groups are matched as alternatives (not expanded), so a group next to a
// run is never a slash: `{}**` has a plain star.
// `before`: the text before `seq` counts as a slash (or the pattern's start). `after`: what comes
// after it: "end" (of the pattern), "slash", or false. `braceAlt`: `seq` is a brace alternative,
// whose start Bun takes as a pattern start for a `**/`.
function compile(seq, before, after, topLevel, braceAlt = false) {
  const out = [];
  const afterAt = (at) => (at === seq.length ? after : isSlashLit(seq[at]) ? "slash" : false);
  for (let i = 0; i < seq.length; i++) {
    const node = seq[i];
    const prevBoundary = i === 0 ? before : isSlashBefore(seq[i - 1]);
    if (node.t === "brace" || node.t === "ext") {
      const alts = node.alts.map((alt) => compile(alt, prevBoundary, afterAt(i + 1), false, node.t === "brace"));
      out.push({ t: node.t, kind: node.kind, alts });
      continue;
    }
    if (node.t !== "star") {
      out.push(node);
      continue;
    }
    // Stars go by twos, as in Bun: only a pair can be a globstar, and `***` is a pair and a star.
    if (seq[i + 1] === undefined || seq[i + 1].t !== "star") {
      out.push({ t: "star", single: true, nonEmpty: false });
      continue;
    }
    let j = i + 2;
    let prev = prevBoundary;
    // Fold `**/**/` into `**/`, and a final `**/**` into `**`; the pair is then judged from the
    // last `**`, which has a slash before it.
    const isStar = (at) => seq[at] !== undefined && seq[at].t === "star";
    const folds = (at) => isSlashLit(seq[at]) && isStar(at + 1) && isStar(at + 2);
    while (folds(j) && isSlashLit(seq[j + 3])) {
      j += 3;
      prev = true;
    }
    if (topLevel && folds(j) && j + 3 === seq.length) {
      j += 3;
      prev = true;
    }
    if (i === 0 && braceAlt && isSlashLit(seq[j])) prev = true;
    const next = afterAt(j);
    if (prev && next) {
      out.push({ t: "globstar", skipSlash: j < seq.length, acrossBrace: braceAlt && j === seq.length && next === "slash" });
    } else {
      out.push({ t: "star", single: false, nonEmpty: false });
    }
    i = j - 1;
  }
  // Stars right before a globstar (after folding, as in `****/**/`) only match nothing: Bun keeps
  // one place to go back to, and the globstar takes it over.
  for (let k = out.length - 1; k > 0; k--) {
    if (out[k].t !== "globstar") continue;
    for (let m = k - 1; m >= 0 && out[m].t === "star"; m--) out[m].emptyOnly = true;
  }
  // A pattern ending in `**/*` (one star) wants a last name that is not empty.
  const n = out.length;
  if (topLevel && n >= 3 && out[n - 1].t === "star" && out[n - 1].single && isSlashLit(out[n - 2]) && out[n - 3].t === "globstar") out[n - 1].nonEmpty = true;
  return out;
}

// Continuation-passing backtracking over code points.
// Without extglobs Bun runs a matcher that keeps one place to go back to: the last star or, once
// a star starts at a slash or a literal slash is passed, the last globstar. `Cut` emulates that:
// it abandons the choices made since that globstar (`target`), or since the enclosing brace
// alternative or the start (`target` null). With extglobs the matching backtracks fully.
class Cut {
  constructor(target) {
    this.target = target;
  }
}

function cut(target = run.target) {
  if (run.cuts) throw new Cut(target);
  return false;
}

// `skip`: a globstar that ended its brace alternative has taken the slash that follows the group.
function matchNodes(nodes, k, s, pos, cont, skip = false) {
  // Bun gives up on a pattern that takes too much work; here too, so a hostile one cannot hang us.
  if (++run.steps > MAX_STEPS) throw run;
  if (k === nodes.length) return cont(pos, skip);
  if (skip) return isSlashLit(nodes[k]) && matchNodes(nodes, k + 1, s, pos, cont);
  const node = nodes[k];
  const next = (at, skipNext = false) => matchNodes(nodes, k + 1, s, at, cont, skipNext);
  switch (node.t) {
    case "lit":
      if (s[pos] !== node.c) return false;
      return next(pos + 1) || (node.c === SLASH && cut());
    case "any":
      return pos < s.length && s[pos] !== SLASH && next(pos + 1);
    case "class": {
      if (pos >= s.length) return false;
      const c = s[pos];
      let hit = false;
      for (const [low, high] of node.ranges) if (low <= c && c <= high) hit = true;
      return hit !== node.negated && next(pos + 1);
    }
    case "star":
      if (node.emptyOnly) return next(pos);
      if (s[pos] === SLASH) return (!node.nonEmpty && next(pos)) || cut();
      // Once a star is reached, the choices before it are kept; when it has run out, so has the
      // match since the last globstar.
      for (let end = pos; ; end++) {
        if ((end > pos || !node.nonEmpty) && next(end)) return true;
        if (end >= s.length || s[end] === SLASH) return cut();
      }
    case "globstar": {
      // The places where what follows may start, in order.
      const starts = [];
      let follow;
      if (node.skipSlash || node.acrossBrace) {
        // `**/`: any number of whole names, each with its slash; the slash after it is skipped
        // (the next node, or the one after the brace).
        follow = node.skipSlash ? (at) => matchNodes(nodes, k + 2, s, at, cont) : (at) => next(at, true);
        starts.push(pos);
        for (let end = pos; end < s.length; end++) if (s[end] === SLASH) starts.push(end + 1);
      } else {
        // Elsewhere it ends where it starts, before any later slash, or at the end.
        follow = next;
        starts.push(pos);
        for (let end = pos + 1; end < s.length; end++) if (s[end] === SLASH) starts.push(end);
        if (pos < s.length) starts.push(s.length);
      }
      const token = {};
      const outer = run.target;
      try {
        for (const at of starts) {
          run.target = token;
          try {
            if (follow(at)) return true;
          } catch (error) {
            if (!(error instanceof Cut) || error.target !== token) throw error;
          }
        }
      } finally {
        run.target = outer;
      }
      return cut(null);
    }
    case "brace":
      for (const alt of node.alts) {
        try {
          if (matchNodes(alt, 0, s, pos, next)) return true;
        } catch (error) {
          if (!(error instanceof Cut) || error.target !== null) throw error;
        }
      }
      return false;
    case "ext":
      return matchExt(node, s, pos, next);
    default:
      return false;
  }
}

const matchAlt = (alt, s, pos, cont) => matchNodes(alt, 0, s, pos, cont);

function matchExt(node, s, pos, next) {
  switch (node.kind) {
    case "@":
      return node.alts.some((alt) => matchAlt(alt, s, pos, next));
    case "?":
      return next(pos) || node.alts.some((alt) => matchAlt(alt, s, pos, next));
    case "!":
      // As minimatch writes it, `(?!(?:alts)rest)[^/]*?`: nothing here if an alternative followed
      // by the rest of the pattern would match, else any text within the name.
      if (node.alts.some((alt) => matchAlt(alt, s, pos, next))) return false;
      for (let end = pos; ; end++) {
        if (next(end)) return true;
        if (end >= s.length || s[end] === SLASH) return false;
      }
    default: {
      // `*(..)` repeats rounds that each take something; `+(..)` needs one round first.
      const more = (at) => next(at) || node.alts.some((alt) => matchAlt(alt, s, at, (end) => end > at && more(end)));
      if (node.kind === "*") return more(pos);
      return node.alts.some((alt) => matchAlt(alt, s, pos, more));
    }
  }
}

const hasExtglob = (nodes) => nodes.some((node) => node.t === "ext" || (node.t === "brace" && node.alts.some(hasExtglob)));

function globMatches(pattern, path) {
  const p = codePoints(pattern);
  let bangs = 0;
  while (p[bangs] === 0x21 && p[bangs + 1] !== 0x28) bangs++;
  const nodes = compile(parsePattern(p, bangs), true, "end", true);
  const s = codePoints(path);
  let hit;
  run.steps = 0;
  run.target = null;
  run.cuts = !hasExtglob(nodes);
  try {
    hit = matchNodes(nodes, 0, s, 0, (at) => at === s.length);
  } catch (error) {
    if (error !== run && !(error instanceof Cut)) throw error;
    hit = false;
  }
  return bangs % 2 === 1 ? !hit : hit;
}

export function matchesGlob(path, pattern) {
  if (typeof path !== "string") throw invalidArgType("path", "string", path);
  if (typeof pattern !== "string") throw invalidArgType("pattern", "string", pattern);
  return globMatches(pattern, path);
}
