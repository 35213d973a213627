// node:async_hooks: AsyncLocalStorage and AsyncResource over one "current context", a frozen Map
// from each AsyncLocalStorage to its store, which never changes once made (a run makes a new
// one). The engine carries it into code that runs later: it captures the context where a timer
// is set or a promise is made (`captureContext`, `promiseHooks.init`) and runs the callback or
// the reaction in it (`runInContext`, `promiseHooks.before`/`after`), only once an
// AsyncLocalStorage exists (`contextInUse`). Without that wiring, a store is seen by code that
// runs synchronously inside `run` and by what AsyncResource/bind/snapshot carry, not after an
// `await`. Async ids are Bun's: always 0. createHook's hooks are never called, as in Bun.

import { callMod } from "../platform.js";

const EMPTY = Object.freeze(new Map());

/** The context code runs in now. */
let current = EMPTY;
/** Whether any AsyncLocalStorage was made: until then the engine need not carry contexts. */
let inUse = false;

/** The current context (to hand to runInContext later). */
export function captureContext() {
  return current;
}

/** Runs `fn` with `context` current, then restores the one before (even when `fn` throws). */
export function runInContext(context, fn, thisArg, ...args) {
  const previous = current;
  current = context ?? EMPTY;
  try {
    return Reflect.apply(fn, thisArg, args);
  } finally {
    current = previous;
  }
}

/** Whether an AsyncLocalStorage was ever created (the engine's hooks are free until then). */
export function contextInUse() {
  return inUse;
}

/** What the host does when the first AsyncLocalStorage is made: start carrying contexts. */
export const contextUse = { begin: () => {} };

function beginUse() {
  if (inUse) return;
  inUse = true;
  contextUse.begin();
}

// The engine's promise hooks (deno_core's setPromiseHooks(init, before, after)): a promise keeps
// the context it was made in, and its reactions run in it.
const promiseContexts = new WeakMap();
const saved = [];
export const promiseHooks = {
  init(promise, _parent) {
    if (inUse) promiseContexts.set(promise, current);
  },
  before(promise) {
    saved.push(current);
    if (inUse) current = promiseContexts.get(promise) ?? EMPTY;
  },
  after(_promise) {
    current = saved.length ? saved.pop() : EMPTY;
  },
};

const withStore = (storage, store) => {
  const next = new Map(current);
  next.set(storage, store);
  return Object.freeze(next);
};
const withoutStore = (storage) => {
  if (!current.has(storage)) return current;
  const next = new Map(current);
  next.delete(storage);
  return Object.freeze(next);
};
const enterMod = (context, fn, thisArg, args) => runInContext(context, callMod, undefined, fn, thisArg, args);

function checkFunction(fn, name) {
  if (typeof fn !== "function") {
    const error = new TypeError(`The "${name}" argument must be of type function. Received ${fn === null ? "null" : `type ${typeof fn}`}`);
    error.code = "ERR_INVALID_ARG_TYPE";
    throw error;
  }
}

export class AsyncLocalStorage {
  #enabled = false;
  constructor(_options) {
    beginUse();
  }

  static bind(fn) {
    checkFunction(fn, "fn");
    const context = current;
    return function bound(...args) {
      return enterMod(context, fn, this, args);
    };
  }

  static snapshot() {
    const context = current;
    return (fn, ...args) => enterMod(context, fn, undefined, args);
  }

  get name() {
    return "";
  }

  getStore() {
    return this.#enabled ? current.get(this) : undefined;
  }

  run(store, callback, ...args) {
    this.#enabled = true;
    return enterMod(withStore(this, store), callback, undefined, args);
  }

  exit(callback, ...args) {
    return enterMod(withoutStore(this), callback, undefined, args);
  }

  enterWith(store) {
    this.#enabled = true;
    current = withStore(this, store);
  }

  disable() {
    this.#enabled = false;
    current = withoutStore(this);
  }

  withScope(store) {
    const previous = current;
    this.enterWith(store);
    return { [Symbol.dispose]: () => void (current = previous) };
  }
}

export class AsyncResource {
  #context;
  #triggerAsyncId;
  constructor(type, options) {
    if (typeof type !== "string") {
      const error = new TypeError(`The "type" argument must be of type string. Received ${type === null ? "null" : `type ${typeof type}`}`);
      error.code = "ERR_INVALID_ARG_TYPE";
      throw error;
    }
    this.#context = current;
    this.#triggerAsyncId = typeof options === "number" ? options : (options?.triggerAsyncId ?? 0);
  }

  static bind(fn, type, thisArg) {
    checkFunction(fn, "fn");
    return new AsyncResource(type || fn.name || "bound-anonymous-fn").bind(fn, thisArg);
  }

  runInAsyncScope(fn, thisArg, ...args) {
    return enterMod(this.#context, fn, thisArg, args);
  }

  bind(fn, thisArg) {
    checkFunction(fn, "fn");
    const resource = this;
    return function bound(...args) {
      return resource.runInAsyncScope(fn, thisArg === undefined ? this : thisArg, ...args);
    };
  }

  emitBefore() {
    return true;
  }

  emitAfter() {
    return true;
  }

  emitDestroy() {
    return undefined;
  }

  asyncId() {
    return 0;
  }

  triggerAsyncId() {
    return this.#triggerAsyncId;
  }
}

export function createHook(_callbacks) {
  const hook = {
    enable: () => hook,
    disable: () => hook,
  };
  return hook;
}

export const executionAsyncId = () => 0;
export const triggerAsyncId = () => 0;
export const executionAsyncResource = () => ({});

export const asyncWrapProviders = Object.freeze(Object.fromEntries([
  "NONE", "DIRHANDLE", "DNSCHANNEL", "ELDHISTOGRAM", "FILEHANDLE", "FILEHANDLECLOSEREQ", "FIXEDSIZEBLOBCOPY", "FSEVENTWRAP",
  "FSREQCALLBACK", "FSREQPROMISE", "GETADDRINFOREQWRAP", "GETNAMEINFOREQWRAP", "HEAPSNAPSHOT", "HTTP2SESSION", "HTTP2STREAM",
  "HTTP2PING", "HTTP2SETTINGS", "HTTPINCOMINGMESSAGE", "HTTPCLIENTREQUEST", "JSSTREAM", "JSUDPWRAP", "MESSAGEPORT",
  "PIPECONNECTWRAP", "PIPESERVERWRAP", "PIPEWRAP", "PROCESSWRAP", "PROMISE", "QUERYWRAP", "SHUTDOWNWRAP", "SIGNALWRAP",
  "STATWATCHER", "STREAMPIPE", "TCPCONNECTWRAP", "TCPSERVERWRAP", "TCPWRAP", "TTYWRAP", "UDPSENDWRAP", "UDPWRAP",
  "SIGINTWATCHDOG", "WORKER", "WORKERHEAPSNAPSHOT", "WRITEWRAP", "ZLIB", "CHECKPRIMEREQUEST", "PBKDF2REQUEST",
  "KEYPAIRGENREQUEST", "KEYGENREQUEST", "KEYEXPORTREQUEST", "CIPHERREQUEST", "DERIVEBITSREQUEST", "HASHREQUEST",
  "RANDOMBYTESREQUEST", "RANDOMPRIMEREQUEST", "SCRYPTREQUEST", "SIGNREQUEST", "TLSWRAP", "VERIFYREQUEST", "INSPECTORJSBINDING",
].map((name, index) => [name, index])));

export default {
  AsyncLocalStorage, createHook, executionAsyncId, triggerAsyncId, executionAsyncResource, asyncWrapProviders, AsyncResource,
};
