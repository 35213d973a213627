// node:zlib in the sandbox: deflate, zlib and gzip streams (vendored fflate for the DEFLATE
// coding itself; headers, trailers and checks written here as zlib writes them), crc32, and
// brotli as far as a small coder goes: brotliCompress writes valid brotli made of uncompressed
// meta-blocks (what Bun itself writes for very small inputs), brotliDecompress reads that form
// and throws, naming the limitation, on compressed brotli. zstd is not available (throws when
// called). Callback forms answer on a later turn of the loop; the create* streams are Transforms
// that collect their input and write the result when they end (no partial output on flush()).
// fflate's DEFLATE output decodes everywhere but is not always zlib's byte for byte.

import { Buffer } from "./buffer.js";
import { Transform } from "./stream.js";
import { callMod, queueHostTask } from "../platform.js";
import { Inflate as RawInflate, deflateSync as rawDeflate } from "../vendor/fflate.js";

export const constants = Object.freeze({
  Z_NO_FLUSH: 0, Z_PARTIAL_FLUSH: 1, Z_SYNC_FLUSH: 2, Z_FULL_FLUSH: 3, Z_FINISH: 4, Z_BLOCK: 5, Z_OK: 0, Z_STREAM_END: 1,
  Z_NEED_DICT: 2, Z_ERRNO: -1, Z_STREAM_ERROR: -2, Z_DATA_ERROR: -3, Z_MEM_ERROR: -4, Z_BUF_ERROR: -5, Z_VERSION_ERROR: -6,
  Z_NO_COMPRESSION: 0, Z_BEST_SPEED: 1, Z_BEST_COMPRESSION: 9, Z_DEFAULT_COMPRESSION: -1, Z_FILTERED: 1, Z_HUFFMAN_ONLY: 2,
  Z_RLE: 3, Z_FIXED: 4, Z_DEFAULT_STRATEGY: 0, ZLIB_VERNUM: 4880, DEFLATE: 1, INFLATE: 2, GZIP: 3, GUNZIP: 4, DEFLATERAW: 5,
  INFLATERAW: 6, UNZIP: 7, BROTLI_DECODE: 8, BROTLI_ENCODE: 9, ZSTD_COMPRESS: 10, ZSTD_DECOMPRESS: 11, Z_MIN_WINDOWBITS: 8,
  Z_MAX_WINDOWBITS: 15, Z_DEFAULT_WINDOWBITS: 15, Z_MIN_CHUNK: 64, Z_MAX_CHUNK: Infinity, Z_DEFAULT_CHUNK: 16384,
  Z_MIN_MEMLEVEL: 1, Z_MAX_MEMLEVEL: 9, Z_DEFAULT_MEMLEVEL: 8, Z_MIN_LEVEL: -1, Z_MAX_LEVEL: 9, Z_DEFAULT_LEVEL: -1,
  BROTLI_OPERATION_PROCESS: 0, BROTLI_OPERATION_FLUSH: 1, BROTLI_OPERATION_FINISH: 2, BROTLI_OPERATION_EMIT_METADATA: 3,
  BROTLI_PARAM_MODE: 0, BROTLI_MODE_GENERIC: 0, BROTLI_MODE_TEXT: 1, BROTLI_MODE_FONT: 2, BROTLI_DEFAULT_MODE: 0,
  BROTLI_PARAM_QUALITY: 1, BROTLI_MIN_QUALITY: 0, BROTLI_MAX_QUALITY: 11, BROTLI_DEFAULT_QUALITY: 11, BROTLI_PARAM_LGWIN: 2,
  BROTLI_MIN_WINDOW_BITS: 10, BROTLI_MAX_WINDOW_BITS: 24, BROTLI_LARGE_MAX_WINDOW_BITS: 30, BROTLI_DEFAULT_WINDOW: 22,
  BROTLI_PARAM_LGBLOCK: 3, BROTLI_MIN_INPUT_BLOCK_BITS: 16, BROTLI_MAX_INPUT_BLOCK_BITS: 24,
  BROTLI_PARAM_DISABLE_LITERAL_CONTEXT_MODELING: 4, BROTLI_PARAM_SIZE_HINT: 5, BROTLI_PARAM_LARGE_WINDOW: 6,
  BROTLI_PARAM_NPOSTFIX: 7, BROTLI_PARAM_NDIRECT: 8, BROTLI_DECODER_RESULT_ERROR: 0, BROTLI_DECODER_RESULT_SUCCESS: 1,
  BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT: 2, BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT: 3,
  BROTLI_DECODER_PARAM_DISABLE_RING_BUFFER_REALLOCATION: 0, BROTLI_DECODER_PARAM_LARGE_WINDOW: 1, BROTLI_DECODER_NO_ERROR: 0,
  BROTLI_DECODER_SUCCESS: 1, BROTLI_DECODER_NEEDS_MORE_INPUT: 2, BROTLI_DECODER_NEEDS_MORE_OUTPUT: 3,
  BROTLI_DECODER_ERROR_FORMAT_EXUBERANT_NIBBLE: -1, BROTLI_DECODER_ERROR_FORMAT_RESERVED: -2,
  BROTLI_DECODER_ERROR_FORMAT_EXUBERANT_META_NIBBLE: -3, BROTLI_DECODER_ERROR_FORMAT_SIMPLE_HUFFMAN_ALPHABET: -4,
  BROTLI_DECODER_ERROR_FORMAT_SIMPLE_HUFFMAN_SAME: -5, BROTLI_DECODER_ERROR_FORMAT_CL_SPACE: -6,
  BROTLI_DECODER_ERROR_FORMAT_HUFFMAN_SPACE: -7, BROTLI_DECODER_ERROR_FORMAT_CONTEXT_MAP_REPEAT: -8,
  BROTLI_DECODER_ERROR_FORMAT_BLOCK_LENGTH_1: -9, BROTLI_DECODER_ERROR_FORMAT_BLOCK_LENGTH_2: -10,
  BROTLI_DECODER_ERROR_FORMAT_TRANSFORM: -11, BROTLI_DECODER_ERROR_FORMAT_DICTIONARY: -12,
  BROTLI_DECODER_ERROR_FORMAT_WINDOW_BITS: -13, BROTLI_DECODER_ERROR_FORMAT_PADDING_1: -14,
  BROTLI_DECODER_ERROR_FORMAT_PADDING_2: -15, BROTLI_DECODER_ERROR_FORMAT_DISTANCE: -16,
  BROTLI_DECODER_ERROR_FORMAT_BLOCK_SWITCH: -17, BROTLI_DECODER_ERROR_DICTIONARY_NOT_SET: -19,
  BROTLI_DECODER_ERROR_INVALID_ARGUMENTS: -20, BROTLI_DECODER_ERROR_ALLOC_CONTEXT_MODES: -21,
  BROTLI_DECODER_ERROR_ALLOC_TREE_GROUPS: -22, BROTLI_DECODER_ERROR_ALLOC_CONTEXT_MAP: -25,
  BROTLI_DECODER_ERROR_ALLOC_RING_BUFFER_1: -26, BROTLI_DECODER_ERROR_ALLOC_RING_BUFFER_2: -27,
  BROTLI_DECODER_ERROR_ALLOC_BLOCK_TYPE_TREES: -30, BROTLI_DECODER_ERROR_UNREACHABLE: -31, ZSTD_e_continue: 0, ZSTD_e_flush: 1,
  ZSTD_e_end: 2, ZSTD_fast: 1, ZSTD_dfast: 2, ZSTD_greedy: 3, ZSTD_lazy: 4, ZSTD_lazy2: 5, ZSTD_btlazy2: 6, ZSTD_btopt: 7,
  ZSTD_btultra: 8, ZSTD_btultra2: 9, ZSTD_c_compressionLevel: 100, ZSTD_c_windowLog: 101, ZSTD_c_hashLog: 102,
  ZSTD_c_chainLog: 103, ZSTD_c_searchLog: 104, ZSTD_c_minMatch: 105, ZSTD_c_targetLength: 106, ZSTD_c_strategy: 107,
  ZSTD_c_enableLongDistanceMatching: 160, ZSTD_c_ldmHashLog: 161, ZSTD_c_ldmMinMatch: 162, ZSTD_c_ldmBucketSizeLog: 163,
  ZSTD_c_ldmHashRateLog: 164, ZSTD_c_contentSizeFlag: 200, ZSTD_c_checksumFlag: 201, ZSTD_c_dictIDFlag: 202,
  ZSTD_c_nbWorkers: 400, ZSTD_c_jobSize: 401, ZSTD_c_overlapLog: 402, ZSTD_d_windowLogMax: 100, ZSTD_CLEVEL_DEFAULT: 3,
  ZSTD_error_no_error: 0, ZSTD_error_GENERIC: 1, ZSTD_error_prefix_unknown: 10, ZSTD_error_version_unsupported: 12,
  ZSTD_error_frameParameter_unsupported: 14, ZSTD_error_frameParameter_windowTooLarge: 16, ZSTD_error_corruption_detected: 20,
  ZSTD_error_checksum_wrong: 22, ZSTD_error_literals_headerWrong: 24, ZSTD_error_dictionary_corrupted: 30,
  ZSTD_error_dictionary_wrong: 32, ZSTD_error_dictionaryCreation_failed: 34, ZSTD_error_parameter_unsupported: 40,
  ZSTD_error_parameter_combination_unsupported: 41, ZSTD_error_parameter_outOfBound: 42, ZSTD_error_tableLog_tooLarge: 44,
  ZSTD_error_maxSymbolValue_tooLarge: 46, ZSTD_error_maxSymbolValue_tooSmall: 48, ZSTD_error_stabilityCondition_notRespected: 50,
  ZSTD_error_stage_wrong: 60, ZSTD_error_init_missing: 62, ZSTD_error_memory_allocation: 64, ZSTD_error_workSpace_tooSmall: 66,
  ZSTD_error_dstSize_tooSmall: 70, ZSTD_error_srcSize_wrong: 72, ZSTD_error_dstBuffer_null: 74,
  ZSTD_error_noForwardProgress_destFull: 80, ZSTD_error_noForwardProgress_inputEmpty: 82,
});

export const codes = Object.freeze({
  Z_OK: 0, Z_STREAM_END: 1, Z_NEED_DICT: 2, Z_ERRNO: -1, Z_STREAM_ERROR: -2, Z_DATA_ERROR: -3, Z_MEM_ERROR: -4, Z_BUF_ERROR: -5,
  Z_VERSION_ERROR: -6, 0: "Z_OK", 1: "Z_STREAM_END", 2: "Z_NEED_DICT", "-1": "Z_ERRNO", "-2": "Z_STREAM_ERROR", "-3": "Z_DATA_ERROR",
  "-4": "Z_MEM_ERROR", "-5": "Z_BUF_ERROR", "-6": "Z_VERSION_ERROR",
});

/** zlib's error, as Bun throws it: a plain Error with errno and code. */
function zlibError(message, code = "Z_DATA_ERROR") {
  const error = new Error(message);
  error.errno = constants[code];
  error.code = code;
  return error;
}
const dataError = (message) => zlibError(message, "Z_DATA_ERROR");
const endError = () => zlibError("unexpected end of file", "Z_BUF_ERROR");

function describe(value) {
  if (value === null || value === undefined) return String(value);
  if (typeof value === "function") return `function ${value.name}`;
  if (typeof value === "object") return value.constructor?.name ? `an instance of ${value.constructor.name}` : "an object";
  const shown = typeof value === "string" ? `'${value}'` : String(value);
  return `type ${typeof value} (${shown})`;
}

function typeError(message, code = "ERR_INVALID_ARG_TYPE") {
  const error = new TypeError(message);
  Object.defineProperty(error, "code", { value: code, writable: true, configurable: true, enumerable: false });
  return error;
}

/** The bytes of a string, Buffer, TypedArray, DataView or ArrayBuffer. */
function bytesOf(input, name = "buffer") {
  if (typeof input === "string") return new Uint8Array(Buffer.from(input, "utf8"));
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  if (input instanceof ArrayBuffer || (typeof SharedArrayBuffer === "function" && input instanceof SharedArrayBuffer)) return new Uint8Array(input);
  throw typeError(`The "${name}" argument must be of type string, Buffer, TypedArray, DataView, or ArrayBuffer. Received ${describe(input)}`);
}

function concat(chunks) {
  let length = 0;
  for (const chunk of chunks) length += chunk.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

const CRC_TABLE = (() => {
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
})();

function crc32Of(bytes, value = 0) {
  let crc = ~value;
  for (let i = 0; i < bytes.length; i++) crc = CRC_TABLE[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return ~crc >>> 0;
}

function adler32Of(bytes) {
  let a = 1;
  let b = 0;
  for (let i = 0; i < bytes.length; ) {
    const end = Math.min(bytes.length, i + 3800);
    for (; i < end; i++) {
      a += bytes[i];
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/** zlib.crc32(data[, value]), as Node 22 and Bun have it. */
export function crc32(data, value = 0) {
  if (typeof data !== "string" && !ArrayBuffer.isView(data)) {
    throw typeError(`The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received ${describe(data)}`);
  }
  if (typeof value !== "number") throw typeError(`The "value" argument must be of type number. Received ${describe(value)}`);
  return crc32Of(bytesOf(data, "data"), value >>> 0);
}

function checkRange(options, name, min, max, fallback) {
  const value = options?.[name];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== "number" || Number.isNaN(value)) {
    throw typeError(`The "options.${name}" property must be of type number. Received ${describe(value)}`);
  }
  if (value < min || value > max || !Number.isInteger(value)) {
    const error = new RangeError(`The value of "options.${name}" is out of range. It must be >= ${min} and <= ${max}. Received ${value}`);
    error.code = "ERR_OUT_OF_RANGE";
    throw error;
  }
  return value;
}

function settings(options) {
  if (options !== undefined && options !== null && typeof options !== "object") {
    throw typeError(`The "options" argument must be of type object. Received ${describe(options)}`);
  }
  const level = checkRange(options, "level", -1, 9, -1);
  const windowBits = checkRange(options, "windowBits", 8, 15, 15);
  const memLevel = checkRange(options, "memLevel", 1, 9, 8);
  const strategy = checkRange(options, "strategy", 0, 4, 0);
  const dictionary = options?.dictionary === undefined ? undefined : bytesOf(options.dictionary, "options.dictionary");
  return { level: level === -1 ? 6 : level, windowBits, memLevel, strategy, dictionary, maxOutputLength: options?.maxOutputLength, info: Boolean(options?.info) };
}

function deflateRawBytes(bytes, s) {
  return rawDeflate(bytes, { level: s.level, mem: s.memLevel, ...(s.dictionary ? { dictionary: s.dictionary } : {}) });
}

const u32be = (value) => [(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
const u32le = (value) => [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff];
const readLe = (bytes, at) => (bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24)) >>> 0;
const readBe = (bytes, at) => ((bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]) >>> 0;

function zlibBytes(bytes, s) {
  const cmf = 0x08 | ((s.windowBits - 8) << 4);
  const levelFlag = s.level < 2 ? 0 : s.level < 6 ? 1 : s.level === 6 ? 2 : 3;
  let flg = (levelFlag << 6) | (s.dictionary ? 0x20 : 0);
  flg += 31 - ((cmf * 256 + flg) % 31);
  const header = [cmf, flg, ...(s.dictionary ? u32be(adler32Of(s.dictionary)) : [])];
  return concat([Uint8Array.from(header), deflateRawBytes(bytes, s), Uint8Array.from(u32be(adler32Of(bytes)))]);
}

function gzipBytes(bytes, s) {
  const xfl = s.level === 9 ? 2 : s.strategy >= 2 || s.level < 2 ? 4 : 0;
  const header = Uint8Array.of(0x1f, 0x8b, 8, 0, 0, 0, 0, 0, xfl, 3);
  return concat([header, deflateRawBytes(bytes, s), Uint8Array.from([...u32le(crc32Of(bytes)), ...u32le(bytes.length)])]);
}

const INFLATE_ERRORS = ["unexpected end of file", "invalid block type", "invalid literal/length code", "invalid distance code"];

/** Inflates one raw DEFLATE stream at the start of `bytes`: its output, and the bytes after it. */
function inflateRawBytes(bytes, dictionary) {
  const chunks = [];
  const inflater = new RawInflate(dictionary ? { dictionary } : {}, (chunk) => chunks.push(chunk));
  try {
    inflater.push(bytes, true);
  } catch (error) {
    if (error?.code === 0) throw endError();
    throw dataError(INFLATE_ERRORS[error?.code] ?? "invalid data");
  }
  const state = inflater.s;
  if (!state.f || state.l) throw endError();
  return { output: concat(chunks), rest: inflater.p.subarray(((state.p + 7) / 8) | 0) };
}

function inflateZlib(bytes, s) {
  if (bytes.length < 2) throw endError();
  const cmf = bytes[0];
  const flg = bytes[1];
  if ((cmf * 256 + flg) % 31 !== 0 || (cmf & 0x0f) !== 8) throw dataError("incorrect header check");
  if ((cmf >> 4) + 8 > 15) throw dataError("invalid window size");
  let at = 2;
  if (flg & 0x20) {
    if (!s.dictionary) throw zlibError("Missing dictionary", "Z_NEED_DICT");
    if (bytes.length < 6) throw endError();
    if (readBe(bytes, 2) !== adler32Of(s.dictionary)) throw dataError("Bad dictionary");
    at = 6;
  }
  const { output, rest } = inflateRawBytes(bytes.subarray(at), flg & 0x20 ? s.dictionary : undefined);
  if (rest.length < 4) throw endError();
  if (readBe(rest, 0) !== adler32Of(output)) throw dataError("incorrect data check");
  return output;
}

function gunzipBytes(bytes) {
  const members = [];
  let at = 0;
  do {
    const member = bytes.subarray(at);
    if (member.length < 2 || (member.length < 10 && member[0] === 0x1f && member[1] === 0x8b)) throw member.length === 0 ? endError() : member[0] === 0x1f && (member.length < 2 || member[1] === 0x8b) ? endError() : dataError("incorrect header check");
    if (member[0] !== 0x1f || member[1] !== 0x8b) throw dataError("incorrect header check");
    if (member[2] !== 8) throw dataError("unknown compression method");
    const flags = member[3];
    let p = 10;
    if (flags & 4) p += 2 + (member[p] | (member[p + 1] << 8));
    if (flags & 8) while (p < member.length && member[p++] !== 0);
    if (flags & 16) while (p < member.length && member[p++] !== 0);
    if (flags & 2) p += 2;
    if (p >= member.length) throw endError();
    const { output, rest } = inflateRawBytes(member.subarray(p));
    if (rest.length < 8) throw endError();
    if (readLe(rest, 0) !== crc32Of(output)) throw dataError("incorrect data check");
    if (readLe(rest, 4) !== output.length >>> 0) throw dataError("incorrect length check");
    members.push(output);
    at = bytes.length - rest.length + 8;
  } while (at < bytes.length);
  return concat(members);
}

// Brotli: uncompressed meta-blocks only (RFC 7932 §9.2), with the 22-bit window Bun announces.
const BROTLI_BLOCK = 65536;

function brotliEncode(bytes) {
  const out = [];
  let bits = 0;
  let count = 0;
  const put = (value, width) => {
    for (let i = 0; i < width; i++) {
      bits |= ((value >>> i) & 1) << count;
      if (++count === 8) {
        out.push(bits);
        bits = 0;
        count = 0;
      }
    }
  };
  const align = () => {
    if (count > 0) {
      out.push(bits);
      bits = 0;
      count = 0;
    }
  };
  put(1, 1);
  put(5, 3); // WBITS 22
  for (let at = 0; at < bytes.length; at += BROTLI_BLOCK) {
    const block = bytes.subarray(at, at + BROTLI_BLOCK);
    put(0, 1); // ISLAST
    put(0, 2); // MNIBBLES: 4
    put(block.length - 1, 16);
    put(1, 1); // ISUNCOMPRESSED
    align();
    for (const byte of block) out.push(byte);
  }
  put(1, 1); // ISLAST
  put(1, 1); // ISLASTEMPTY
  align();
  return Uint8Array.from(out);
}

function brotliError(message) {
  const error = new Error(message);
  error.errno = -1;
  error.code = "ERR_BROTLI_DECODE";
  return error;
}

function brotliDecode(bytes) {
  let pos = 0;
  const read = (width) => {
    let value = 0;
    for (let i = 0; i < width; i++, pos++) {
      if (pos >> 3 >= bytes.length) throw brotliError("unexpected end of file");
      value |= ((bytes[pos >> 3] >> (pos & 7)) & 1) << i;
    }
    return value >>> 0;
  };
  const align = () => {
    if (pos & 7 && read(8 - (pos & 7)) !== 0) throw brotliError("Decompression failed");
  };
  if (read(1)) {
    const n = read(3);
    if (n === 0 && read(3) === 1) throw brotliError("Decompression failed");
  }
  const chunks = [];
  for (;;) {
    const isLast = read(1);
    if (isLast && read(1)) break;
    const nibbles = read(2);
    if (nibbles === 3) {
      if (read(1)) throw brotliError("Decompression failed");
      const skipBytes = read(2);
      const skip = skipBytes ? read(skipBytes * 8) + 1 : 0;
      align();
      pos += skip * 8;
      if (isLast) break;
      continue;
    }
    const length = read((nibbles + 4) * 4) + 1;
    if (isLast || !read(1)) {
      throw new Error("brotliDecompress: this brotli data is compressed, and modlearn's sandbox decodes only uncompressed brotli (what its brotliCompress writes)");
    }
    align();
    const start = pos >> 3;
    if (start + length > bytes.length) throw brotliError("unexpected end of file");
    chunks.push(bytes.slice(start, start + length));
    pos += length * 8;
  }
  return concat(chunks);
}

function zstdUnavailable(name) {
  return () => {
    throw new Error(`zlib.${name}: zstd is not available in modlearn's sandbox`);
  };
}

function limited(bytes, s) {
  const max = s?.maxOutputLength;
  if (typeof max === "number" && bytes.length > max) {
    const error = new RangeError(`Cannot create a Buffer larger than ${max} bytes`);
    error.code = "ERR_BUFFER_TOO_LARGE";
    throw error;
  }
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  return s?.info ? { buffer, engine: {} } : buffer;
}

const CODERS = {
  deflate: (bytes, s) => zlibBytes(bytes, s),
  inflate: (bytes, s) => inflateZlib(bytes, s),
  gzip: (bytes, s) => gzipBytes(bytes, s),
  gunzip: (bytes) => gunzipBytes(bytes),
  deflateRaw: (bytes, s) => deflateRawBytes(bytes, s),
  inflateRaw: (bytes, s) => inflateRawBytes(bytes, s.dictionary).output,
  unzip: (bytes, s) => (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipBytes(bytes) : inflateZlib(bytes, s)),
  brotliCompress: (bytes) => brotliEncode(bytes),
  brotliDecompress: (bytes) => brotliDecode(bytes),
};

function syncForm(name) {
  const coder = CODERS[name];
  return {
    [`${name}Sync`](buffer, options) {
      const bytes = bytesOf(buffer);
      const s = name.startsWith("brotli") ? { maxOutputLength: options?.maxOutputLength, info: Boolean(options?.info) } : settings(options);
      return limited(coder(bytes, s), s);
    },
  }[`${name}Sync`];
}

function callbackForm(name, sync) {
  return {
    [name](buffer, options, callback) {
      if (typeof options === "function") {
        callback = options;
        options = {};
      }
      if (typeof callback !== "function") throw typeError(`The "callback" argument must be of type function. Received ${describe(callback)}`);
      bytesOf(buffer);
      let result;
      let failure = null;
      try {
        result = sync(buffer, options);
      } catch (error) {
        failure = error;
      }
      queueHostTask(() => (failure ? callMod(callback, undefined, [failure]) : callMod(callback, undefined, [null, result])), "io");
    },
  }[name];
}

export const deflateSync = syncForm("deflate");
export const inflateSync = syncForm("inflate");
export const gzipSync = syncForm("gzip");
export const gunzipSync = syncForm("gunzip");
export const deflateRawSync = syncForm("deflateRaw");
export const inflateRawSync = syncForm("inflateRaw");
export const unzipSync = syncForm("unzip");
export const brotliCompressSync = syncForm("brotliCompress");
export const brotliDecompressSync = syncForm("brotliDecompress");
export const deflate = callbackForm("deflate", deflateSync);
export const inflate = callbackForm("inflate", inflateSync);
export const gzip = callbackForm("gzip", gzipSync);
export const gunzip = callbackForm("gunzip", gunzipSync);
export const deflateRaw = callbackForm("deflateRaw", deflateRawSync);
export const inflateRaw = callbackForm("inflateRaw", inflateRawSync);
export const unzip = callbackForm("unzip", unzipSync);
export const brotliCompress = callbackForm("brotliCompress", brotliCompressSync);
export const brotliDecompress = callbackForm("brotliDecompress", brotliDecompressSync);
export const zstdCompress = zstdUnavailable("zstdCompress");
export const zstdCompressSync = zstdUnavailable("zstdCompressSync");
export const zstdDecompress = zstdUnavailable("zstdDecompress");
export const zstdDecompressSync = zstdUnavailable("zstdDecompressSync");

/** The streams: Transforms that collect what is written and code it all when the input ends. */
class ZlibBase extends Transform {
  #name;
  #options;
  #chunks = [];
  constructor(name, options) {
    super({ ...options, objectMode: false, readableObjectMode: false, writableObjectMode: false });
    this.#name = name;
    this.#options = name.startsWith("brotli") ? { maxOutputLength: options?.maxOutputLength } : settings(options);
    this.bytesWritten = 0;
    this._handle = {};
  }
  _transform(chunk, encoding, callback) {
    const bytes = typeof chunk === "string" ? new Uint8Array(Buffer.from(chunk, encoding)) : bytesOf(chunk, "chunk");
    this.bytesWritten += bytes.length;
    this.#chunks.push(bytes.slice());
    callback();
  }
  _flush(callback) {
    let output;
    try {
      output = limited(CODERS[this.#name](concat(this.#chunks), this.#options), { ...this.#options, info: false });
    } catch (error) {
      callback(error);
      return;
    }
    this.#chunks = [];
    if (output.length) this.push(output);
    callback();
  }
  flush(kind, callback) {
    if (typeof kind === "function") callback = kind;
    if (typeof callback === "function") queueHostTask(() => callMod(callback, undefined, []), "tick");
  }
  params(level, strategy, callback) {
    if (this.#options.level !== undefined) Object.assign(this.#options, settings({ level, strategy }), { dictionary: this.#options.dictionary });
    if (typeof callback === "function") queueHostTask(() => callMod(callback, undefined, []), "tick");
  }
  reset() {
    this.#chunks = [];
  }
  close(callback) {
    if (typeof callback === "function") this.once("close", callback);
    this.destroy();
  }
}

export class Zlib extends ZlibBase {}
export class Deflate extends Zlib { constructor(options) { super("deflate", options); } }
export class Inflate extends Zlib { constructor(options) { super("inflate", options); } }
export class Gzip extends Zlib { constructor(options) { super("gzip", options); } }
export class Gunzip extends Zlib { constructor(options) { super("gunzip", options); } }
export class DeflateRaw extends Zlib { constructor(options) { super("deflateRaw", options); } }
export class InflateRaw extends Zlib { constructor(options) { super("inflateRaw", options); } }
export class Unzip extends Zlib { constructor(options) { super("unzip", options); } }
export class BrotliCompress extends ZlibBase { constructor(options) { super("brotliCompress", options); } }
export class BrotliDecompress extends ZlibBase { constructor(options) { super("brotliDecompress", options); } }
export class ZstdCompress extends ZlibBase { constructor() { super("brotliCompress", {}); zstdUnavailable("ZstdCompress")(); } }
export class ZstdDecompress extends ZlibBase { constructor() { super("brotliDecompress", {}); zstdUnavailable("ZstdDecompress")(); } }

export const createDeflate = (options) => new Deflate(options);
export const createInflate = (options) => new Inflate(options);
export const createDeflateRaw = (options) => new DeflateRaw(options);
export const createInflateRaw = (options) => new InflateRaw(options);
export const createGzip = (options) => new Gzip(options);
export const createGunzip = (options) => new Gunzip(options);
export const createUnzip = (options) => new Unzip(options);
export const createBrotliCompress = (options) => new BrotliCompress(options);
export const createBrotliDecompress = (options) => new BrotliDecompress(options);
export const createZstdCompress = (options) => new ZstdCompress(options);
export const createZstdDecompress = (options) => new ZstdDecompress(options);

export default {
  crc32, Deflate, Inflate, Gzip, Gunzip, DeflateRaw, InflateRaw, Unzip, BrotliCompress, BrotliDecompress, ZstdCompress,
  ZstdDecompress, deflate, deflateSync, gzip, gzipSync, deflateRaw, deflateRawSync, unzip, unzipSync, inflate, inflateSync,
  gunzip, gunzipSync, inflateRaw, inflateRawSync, brotliCompress, brotliCompressSync, brotliDecompress, brotliDecompressSync,
  zstdCompress, zstdCompressSync, zstdDecompress, zstdDecompressSync, createDeflate, createInflate, createDeflateRaw,
  createInflateRaw, createGzip, createGunzip, createUnzip, createBrotliCompress, createBrotliDecompress, createZstdCompress,
  createZstdDecompress, constants, codes,
};
