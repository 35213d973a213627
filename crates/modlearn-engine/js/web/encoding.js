// TextEncoder/TextDecoder (UTF-8, as Bun's: other labels are refused) and
// atob/btoa, written out here because they are short and the engine has none.

/** Encodes a string as UTF-8; lone surrogates become U+FFFD. */
export function utf8Encode(input) {
  const text = String(input);
  const out = new Uint8Array(text.length * 3);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      } else c = 0xfffd;
    } else if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
    if (c < 0x80) out[n++] = c;
    else if (c < 0x800) {
      out[n++] = 0xc0 | (c >> 6);
      out[n++] = 0x80 | (c & 63);
    } else if (c < 0x10000) {
      out[n++] = 0xe0 | (c >> 12);
      out[n++] = 0x80 | ((c >> 6) & 63);
      out[n++] = 0x80 | (c & 63);
    } else {
      out[n++] = 0xf0 | (c >> 18);
      out[n++] = 0x80 | ((c >> 12) & 63);
      out[n++] = 0x80 | ((c >> 6) & 63);
      out[n++] = 0x80 | (c & 63);
    }
  }
  return out.slice(0, n);
}

/**
 * Decodes UTF-8 with the WHATWG error handling (maximal subparts become
 * U+FFFD). Returns null on the first error when `fatal`.
 */
// Captured before any mod runs: a typed array's `length` comes from a prototype a mod can change.
const typedLength = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), "length").get;
const { apply } = Reflect;

/** The length of `bytes`, from the engine's own getter when it is a typed array. */
export function byteLength(bytes) {
  try {
    return apply(typedLength, bytes, []);
  } catch {
    return bytes.length;
  }
}

export function utf8Decode(bytes, fatal = false) {
  let out = "";
  const chunk = [];
  const flush = () => {
    out += String.fromCharCode.apply(null, chunk);
    chunk.length = 0;
  };
  let i = 0;
  const len = byteLength(bytes);
  while (i < len) {
    const b = bytes[i];
    let cp = -1;
    let need = 0;
    let lower = 0x80;
    let upper = 0xbf;
    if (b < 0x80) {
      cp = b;
      i++;
    } else {
      if (b >= 0xc2 && b <= 0xdf) need = 1, cp = b & 0x1f;
      else if (b >= 0xe0 && b <= 0xef) {
        need = 2;
        cp = b & 0xf;
        if (b === 0xe0) lower = 0xa0;
        if (b === 0xed) upper = 0x9f;
      } else if (b >= 0xf0 && b <= 0xf4) {
        need = 3;
        cp = b & 7;
        if (b === 0xf0) lower = 0x90;
        if (b === 0xf4) upper = 0x8f;
      }
      i++;
      if (need === 0) cp = -1;
      for (let k = 0; k < need; k++) {
        const next = bytes[i];
        if (i >= len || next < lower || next > upper) {
          cp = -1;
          break;
        }
        lower = 0x80;
        upper = 0xbf;
        cp = (cp << 6) | (next & 0x3f);
        i++;
      }
      if (cp === -1) {
        if (fatal) return null;
        cp = 0xfffd;
      }
    }
    if (cp >= 0x10000) {
      cp -= 0x10000;
      chunk.push(0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
    } else chunk.push(cp);
    if (chunk.length > 8192) flush();
  }
  flush();
  return out;
}

const UTF8_LABELS = new Set(["utf-8", "utf8", "unicode-1-1-utf-8"]);

function asBytes(input) {
  if (input === undefined) return new Uint8Array(0);
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  throw new TypeError("The \"input\" argument must be an instance of ArrayBuffer or ArrayBufferView");
}

export class TextEncoder {
  get encoding() {
    return "utf-8";
  }
  encode(input = "") {
    return utf8Encode(input);
  }
  encodeInto(source, destination) {
    const bytes = utf8Encode(source);
    // Only whole characters fit: back off to a character boundary.
    let written = Math.min(bytes.length, destination.length);
    while (written > 0 && written < bytes.length && (bytes[written] & 0xc0) === 0x80) written--;
    destination.set(bytes.subarray(0, written));
    const read = utf8Decode(bytes.subarray(0, written)).length;
    return { read, written };
  }
  get [Symbol.toStringTag]() {
    return "TextEncoder";
  }
}

export class TextDecoder {
  #fatal;
  #ignoreBOM;
  #pending = [];
  constructor(label = "utf-8", options = {}) {
    const name = String(label).trim().toLowerCase();
    if (!UTF8_LABELS.has(name)) throw new RangeError(`Unsupported encoding label "${label}"`);
    this.#fatal = Boolean(options.fatal);
    this.#ignoreBOM = Boolean(options.ignoreBOM);
  }
  get encoding() {
    return "utf-8";
  }
  get fatal() {
    return this.#fatal;
  }
  get ignoreBOM() {
    return this.#ignoreBOM;
  }
  decode(input, options = {}) {
    let bytes = asBytes(input);
    if (this.#pending.length) {
      const joined = new Uint8Array(this.#pending.length + bytes.length);
      joined.set(this.#pending);
      joined.set(bytes, this.#pending.length);
      bytes = joined;
      this.#pending = [];
    }
    if (options.stream) {
      // Keep an incomplete trailing sequence for the next call.
      let start = bytes.length;
      for (let back = 1; back <= 3 && bytes.length - back >= 0; back++) {
        const b = bytes[bytes.length - back];
        if ((b & 0xc0) === 0x80) continue;
        const size = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
        if (size > back) start = bytes.length - back;
        break;
      }
      this.#pending = [...bytes.subarray(start)];
      bytes = bytes.subarray(0, start);
    }
    if (!this.#ignoreBOM && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
    const text = utf8Decode(bytes, this.#fatal);
    if (text === null) throw new TypeError("The encoded data was not valid for encoding utf-8");
    return text;
  }
  get [Symbol.toStringTag]() {
    return "TextDecoder";
  }
}

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

function invalidCharacter(message) {
  const error = new Error(message);
  error.name = "InvalidCharacterError";
  return error;
}

export function btoa(data) {
  if (arguments.length === 0) throw new TypeError("btoa requires 1 argument (a string)");
  const text = String(data);
  let out = "";
  for (let i = 0; i < text.length; i += 3) {
    const a = text.charCodeAt(i);
    const b = text.charCodeAt(i + 1);
    const c = text.charCodeAt(i + 2);
    if (a > 255 || b > 255 || c > 255) throw invalidCharacter("The string contains invalid characters.");
    const bits = (a << 16) | ((b || 0) << 8) | (c || 0);
    out += B64[bits >> 18] + B64[(bits >> 12) & 63];
    out += i + 1 < text.length ? B64[(bits >> 6) & 63] : "=";
    out += i + 2 < text.length ? B64[bits & 63] : "=";
  }
  return out;
}

export function atob(data) {
  if (arguments.length === 0) throw new TypeError("atob requires 1 argument (a string)");
  let text = String(data).replace(/[\t\n\f\r ]/g, "");
  if (text.length % 4 === 0) text = text.replace(/==?$/, "");
  if (text.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(text)) {
    throw invalidCharacter("The string contains invalid characters.");
  }
  let out = "";
  let bits = 0;
  let count = 0;
  for (const ch of text) {
    bits = (bits << 6) | B64.indexOf(ch);
    count += 6;
    if (count >= 8) {
      count -= 8;
      out += String.fromCharCode((bits >> count) & 255);
    }
  }
  return out;
}
