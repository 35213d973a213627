// node:v8 with Bun's answers, fixed: the heap figures are the same on every run (Bun's own, from a
// small process), serialize/deserialize round-trip values with structured-clone semantics in a
// format of modlearn's (not V8's wire format, nor Bun's), and what Bun leaves unimplemented
// throws as it does there.

import { Buffer } from "./buffer.js";
import { Readable } from "./stream.js";
import { writeFileSync } from "./fs.js";
import { process } from "./process.js";
import { DOMException } from "../web/event-target.js";

const HEAP = Object.freeze({
  total_heap_size: 880452, total_heap_size_executable: 440226, total_physical_size: 33165312, total_available_size: 25275191484,
  used_heap_size: 880452, total_allocated_bytes: 1661972, heap_size_limit: 331653120, malloced_memory: 880452,
  peak_malloced_memory: 33165312, does_zap_garbage: 0, number_of_native_contexts: 1, number_of_detached_contexts: 0,
  total_global_handles_size: 8192, used_global_handles_size: 2208, external_memory: 236564,
});

const SPACES = [
  "read_only_space", "new_space", "old_space", "code_space", "shared_space", "trusted_space", "new_large_object_space",
  "large_object_space", "code_large_object_space", "shared_large_object_space", "shared_trusted_space",
  "shared_trusted_large_object_space", "trusted_large_object_space",
];

export const getHeapStatistics = () => ({ ...HEAP });
export const getHeapSpaceStatistics = () =>
  SPACES.map((space_name) =>
    space_name === "old_space"
      ? { space_name, space_size: 1678356, space_used_size: 880452, space_available_size: 797904, physical_space_size: 1678356 }
      : { space_name, space_size: 0, space_used_size: 0, space_available_size: 0, physical_space_size: 0 });
export const getHeapCodeStatistics = () => ({ code_and_metadata_size: 0, bytecode_and_metadata_size: 0, external_script_source_size: 0, cpu_profiler_metadata_size: 0 });
export const getCppHeapStatistics = (detailLevel = "detailed") => ({ committed_size_bytes: 0, resident_size_bytes: 0, used_size_bytes: 0, space_statistics: [], type_names: [], detail_level: detailLevel });
export const cachedDataVersionTag = () => 4158346522;
export const setFlagsFromString = (_flags) => undefined;
export const isStringOneByteRepresentation = (text) => !/[^\u0000-\u00ff]/.test(String(text));

function notImplemented(what) {
  const error = new Error(`node:v8 ${what} is not yet implemented in Bun.`);
  error.name = "NotImplementedError";
  error.code = "ERR_NOT_IMPLEMENTED";
  return error;
}
export function takeCoverage() {
  throw notImplemented("takeCoverage");
}
export function stopCoverage() {
  throw notImplemented("stopCoverage");
}
export function setHeapSnapshotNearHeapLimit(_limit) {
  throw notImplemented("setHeapSnapshotNearHeapLimit");
}

// serialize / deserialize: a tagged tree, as JSON, behind a two-byte header.
const MAGIC = [0xff, 0x6d];
const notCloneable = () => new DOMException("The object can not be cloned.", "DataCloneError");
const TYPED = {
  Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array, BigInt64Array,
  BigUint64Array, DataView,
};
if (typeof globalThis.Float16Array === "function") TYPED.Float16Array = globalThis.Float16Array;
const ERRORS = { Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError };

function encode(value, seen) {
  if (value === undefined) return ["u"];
  if (value === null || typeof value === "boolean" || typeof value === "string") return value;
  if (typeof value === "number") return Number.isFinite(value) && !Object.is(value, -0) ? value : ["n", String(Object.is(value, -0) ? "-0" : value)];
  if (typeof value === "bigint") return ["b", value.toString()];
  if (typeof value !== "object") throw notCloneable();
  if (seen.has(value)) return ["r", seen.get(value)];
  const id = seen.size;
  seen.set(value, id);
  if (Array.isArray(value)) return ["a", value.length, Object.keys(value).map((key) => [key, encode(value[key], seen)])];
  if (value instanceof Date) return ["d", value.getTime()];
  if (value instanceof RegExp) return ["x", value.source, value.flags];
  if (value instanceof Map) return ["m", [...value].map(([k, v]) => [encode(k, seen), encode(v, seen)])];
  if (value instanceof Set) return ["s", [...value].map((v) => encode(v, seen))];
  if (value instanceof ArrayBuffer) return ["B", Buffer.from(value).toString("base64")];
  if (ArrayBuffer.isView(value)) {
    const bytes = Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("base64");
    const kind = Buffer.isBuffer(value) ? "Buffer" : Object.keys(TYPED).find((name) => value instanceof TYPED[name]) ?? "Uint8Array";
    return ["v", kind, bytes];
  }
  if (value instanceof Error) return ["e", Object.hasOwn(ERRORS, value.name) ? value.name : "Error", String(value.message), value.stack === undefined ? null : String(value.stack)];
  if (value instanceof Boolean || value instanceof Number || value instanceof String) return ["w", encode(value.valueOf(), seen)];
  if (value instanceof Promise || value instanceof WeakMap || value instanceof WeakSet) throw notCloneable();
  return ["o", Object.keys(value).map((key) => {
    const item = value[key];
    if (typeof item === "function" || typeof item === "symbol") throw notCloneable();
    return [key, encode(item, seen)];
  })];
}

function decode(node, refs) {
  if (node === null || typeof node !== "object") return node;
  const [tag, a, b, c] = node;
  const keep = (made) => {
    refs.push(made);
    return made;
  };
  switch (tag) {
    case "u": return undefined;
    case "n": return a === "-0" ? -0 : Number(a);
    case "b": return BigInt(a);
    case "r": return refs[a];
    case "a": {
      const array = keep(new Array(a));
      for (const [key, item] of b) array[key] = decode(item, refs);
      return array;
    }
    case "d": return keep(new Date(a));
    case "x": return keep(new RegExp(a, b));
    case "m": {
      const map = keep(new Map());
      for (const [k, v] of a) map.set(decode(k, refs), decode(v, refs));
      return map;
    }
    case "s": {
      const set = keep(new Set());
      for (const v of a) set.add(decode(v, refs));
      return set;
    }
    case "B": return keep(new Uint8Array(Buffer.from(a, "base64")).buffer);
    case "v": {
      const bytes = new Uint8Array(Buffer.from(b, "base64"));
      if (a === "Buffer") return keep(Buffer.from(bytes));
      const Ctor = TYPED[a] ?? Uint8Array;
      return keep(Ctor === DataView ? new DataView(bytes.buffer) : new Ctor(bytes.buffer));
    }
    case "e": {
      const error = keep(new (ERRORS[a] ?? Error)(b));
      if (c !== null) error.stack = c;
      return error;
    }
    case "w": return keep(Object(decode(a, refs)));
    case "o": {
      const object = keep({});
      for (const [key, item] of a) Object.defineProperty(object, key, { value: decode(item, refs), writable: true, enumerable: true, configurable: true });
      return object;
    }
    default: throw new TypeError("Unable to deserialize data.");
  }
}

export function serialize(value) {
  const json = JSON.stringify(encode(value, new Map()));
  return Buffer.concat([Buffer.from(MAGIC), Buffer.from(json, "utf8")]);
}

export function deserialize(buffer) {
  if (!ArrayBuffer.isView(buffer)) {
    const error = new TypeError(`The "buffer" argument must be an instance of Buffer, TypedArray, or DataView.`);
    error.code = "ERR_INVALID_ARG_TYPE";
    throw error;
  }
  const bytes = Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  if (bytes[0] !== MAGIC[0] || bytes[1] !== MAGIC[1]) throw new TypeError("Unable to deserialize data.");
  let tree;
  try {
    tree = JSON.parse(bytes.subarray(2).toString("utf8"));
  } catch {
    throw new TypeError("Unable to deserialize data.");
  }
  return decode(tree, []);
}

export class Serializer {
  constructor() {
    throw notImplemented("Serializer");
  }
}
export class Deserializer {
  constructor() {
    throw notImplemented("Deserializer");
  }
}
export class DefaultSerializer extends Serializer {}
export class DefaultDeserializer extends Deserializer {}

/** A heap snapshot with no nodes, in the format the inspector reads. */
function emptySnapshot() {
  return JSON.stringify({
    snapshot: {
      meta: {
        node_fields: ["type", "name", "id", "self_size", "edge_count", "trace_node_id", "detachedness"],
        node_types: [["hidden", "array", "string", "object", "code", "closure", "regexp", "number", "native", "synthetic", "concatenated string", "sliced string", "symbol", "bigint", "object shape"], "string", "number", "number", "number", "number", "number"],
        edge_fields: ["type", "name_or_index", "to_node"],
        edge_types: [["context", "element", "property", "internal", "hidden", "shortcut", "weak"], "string_or_number", "node"],
        trace_function_info_fields: [], trace_node_fields: [], sample_fields: [], location_fields: [],
      },
      node_count: 0, edge_count: 0, trace_function_count: 0,
    },
    nodes: [], edges: [], trace_function_infos: [], trace_tree: [], samples: [], locations: [], strings: [],
  });
}

/** Writes a (near empty) snapshot onto the machine, named as Bun names it. */
export function writeHeapSnapshot(filename, _options) {
  let name = filename;
  if (name === undefined || name === null) {
    const now = new Date();
    const pad = (n) => String(n).padStart(2, "0");
    name = `Heap-${now.getUTCFullYear()}${pad(now.getUTCMonth() + 1)}${pad(now.getUTCDate())}-${pad(now.getUTCHours())}${pad(now.getUTCMinutes())}${pad(now.getUTCSeconds())}-${process.pid}-0.heapsnapshot`;
  }
  writeFileSync(String(name), emptySnapshot());
  return String(name);
}

export function getHeapSnapshot(_options) {
  return Readable.from([emptySnapshot()]);
}

export class GCProfiler {
  #start = null;
  start() {
    this.#start = Date.now();
  }
  stop() {
    if (this.#start === null) return undefined;
    const result = { version: 1, startTime: this.#start, endTime: Date.now(), statistics: [] };
    this.#start = null;
    return result;
  }
}

const stopHook = () => () => {};
export const promiseHooks = {
  createHook: (_hooks) => () => {},
  onInit: stopHook,
  onBefore: stopHook,
  onAfter: stopHook,
  onSettled: stopHook,
};

export const startupSnapshot = {
  addDeserializeCallback() {},
  addSerializeCallback() {},
  setDeserializeMainFunction() {},
  isBuildingSnapshot: () => false,
};

export default {
  cachedDataVersionTag, GCProfiler, isStringOneByteRepresentation, getHeapSnapshot, getHeapStatistics, getHeapSpaceStatistics,
  getHeapCodeStatistics, getCppHeapStatistics, setFlagsFromString, deserialize, takeCoverage, stopCoverage, serialize,
  writeHeapSnapshot, setHeapSnapshotNearHeapLimit, promiseHooks, startupSnapshot, Deserializer, Serializer, DefaultDeserializer,
  DefaultSerializer,
};
