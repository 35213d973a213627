// AbortController and AbortSignal, which mods receive as `letta.signal` and
// `ctx.signal`. A small EventTarget-shaped implementation: enough for
// `aborted`, `reason`, `onabort`, listeners and `throwIfAborted`.

import { callMod } from "./platform.js";

const kAbort = Symbol("abort");

/** Where errors thrown by abort listeners go (`reason` is the abort reason); set by the host. */
export const abortHooks = { onListenerError: (_error, _reason) => {} };

/**
 * What the host reads of a signal or controller, through their private
 * fields: AbortSignal.prototype and AbortController.prototype are a mod's
 * to change (Letta's globals are shared), so an `aborted` getter or a
 * `signal` getter put there must not change what the judge sees.
 */
let readAborted = (_signal) => false;
let readSignal = (_controller) => null;
let readListeners = (_signal) => [];
let readOnabort = (_signal) => null;

/** Node's AbortError for an API that gave up because `signal` was aborted. */
export function apiAbortError(signal) {
  const error = new Error("The operation was aborted", { cause: signal.reason });
  error.name = "AbortError";
  error.code = "ABORT_ERR";
  return error;
}

/** Whether `signal` is aborted, whatever its prototype says; false for anything not a signal. */
export function isAborted(signal) {
  return readAborted(signal);
}

/**
 * The listeners `AbortSignal.any` puts on its sources, each with the signal it forwards to. Node
 * holds those weakly: one counts only as much as its signal would call.
 */
const forwards = new WeakMap();

/**
 * How many listeners (and `onabort`) `signal` would call if aborted, read without mod code; a
 * listener of `AbortSignal.any` counts when the signal it forwards to has one.
 */
export function abortListenerCount(signal, seen = new Set()) {
  if (seen.has(signal)) return 0;
  seen.add(signal);
  let count = 0;
  for (const listener of readListeners(signal)) {
    const forwarded = forwards.get(listener);
    if (forwarded === undefined || abortListenerCount(forwarded, seen) > 0) count++;
  }
  if (signal === null || typeof signal !== "object") return count;
  if (readOnabort(signal) !== null) return count + 1;
  // An `onabort` a mod defined on the signal itself counts without being called.
  const onabort = Reflect.getOwnPropertyDescriptor(signal, "onabort");
  return count + (onabort !== undefined && (onabort.get || onabort.set || onabort.value != null) ? 1 : 0);
}

/** The signal `controller` made, whatever its prototype says. */
export function signalOf(controller) {
  return readSignal(controller);
}

/** The signal half of an AbortController. */
export class AbortSignal {
  static {
    readAborted = (signal) => signal !== null && typeof signal === "object" && #aborted in signal && signal.#aborted;
    readListeners = (signal) =>
      signal !== null && typeof signal === "object" && #listeners in signal ? signal.#listeners.map((entry) => entry.listener) : [];
    readOnabort = (signal) => (signal !== null && typeof signal === "object" && #onabort in signal ? signal.#onabort : null);

  }

  #aborted = false;
  #reason = undefined;
  #listeners = [];
  // On the prototype, as in Bun: `JSON.stringify(signal)` is `{}`.
  #onabort = null;

  get onabort() {
    return this.#onabort;
  }
  set onabort(value) {
    this.#onabort = typeof value === "function" || (typeof value === "object" && value !== null) ? value : null;
  }

  get aborted() {
    return this.#aborted;
  }
  get reason() {
    return this.#reason;
  }
  addEventListener(type, listener, options) {
    if (type !== "abort" || listener == null) return;
    if (this.#listeners.some((entry) => entry.listener === listener)) return;
    this.#listeners.push({ listener, once: Boolean(options && options.once) });
  }
  removeEventListener(type, listener) {
    if (type !== "abort") return;
    this.#listeners = this.#listeners.filter((entry) => entry.listener !== listener);
  }
  /** Number of abort listeners still attached (lifecycle checks read it). */
  get listenerCount() {
    return this.#listeners.length;
  }
  throwIfAborted() {
    if (this.#aborted) throw this.#reason;
  }
  [kAbort](reason) {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason === undefined ? abortError("The operation was aborted.") : reason;
    const event = { type: "abort", target: this };
    const listeners = this.#listeners;
    this.#listeners = listeners.filter((entry) => !entry.once);
    // As with an EventTarget, a throwing listener does not stop abort() or
    // the other listeners; its error is reported instead.
    const call = (fn, self) => {
      try {
        callMod(fn, self, [event]);
      } catch (error) {
        abortHooks.onListenerError(error, this.#reason);
      }
    };
    if (typeof this.onabort === "function") call(this.onabort, this);
    for (const { listener } of listeners) {
      if (typeof listener === "function") call(listener, this);
      else if (listener && typeof listener.handleEvent === "function") call(listener.handleEvent, listener);
    }
  }
  static abort(reason) {
    const controller = new AbortController();
    controller.abort(reason);
    return controller.signal;
  }
  static any(signals) {
    const controller = new AbortController();
    for (const signal of signals) {
      if (signal.aborted) {
        controller.abort(signal.reason);
        break;
      }
      const forward = () => controller.abort(signal.reason);
      forwards.set(forward, controller.signal);
      signal.addEventListener("abort", forward, { once: true });
    }
    return controller.signal;
  }
}

/** Creates signals and aborts them. */
export class AbortController {
  static {
    readSignal = (controller) => (controller !== null && typeof controller === "object" && #signal in controller ? controller.#signal : null);
  }
  #signal = new AbortSignal();
  get signal() {
    return this.#signal;
  }
  abort(reason) {
    this.#signal[kAbort](reason);
  }
}

function abortError(message) {
  const error = new Error(message);
  error.name = "AbortError";
  return error;
}

/** Puts AbortController and AbortSignal on the global object. */
export function installAbort(global) {
  global.AbortController = AbortController;
  global.AbortSignal = AbortSignal;
}
