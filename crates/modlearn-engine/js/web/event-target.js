// Event, CustomEvent, EventTarget and DOMException: the DOM event model
// without a tree (no capture or bubbling phases to walk).

import { callMod, clock, VIRTUAL_EPOCH_MS } from "../platform.js";

const DOM_CODES = { IndexSizeError: 1, NotFoundError: 8, NotSupportedError: 9, InvalidStateError: 11, SyntaxError: 12, InvalidCharacterError: 5, NetworkError: 19, AbortError: 20, TimeoutError: 23, DataCloneError: 25 };

export class DOMException extends Error {
  #name;
  constructor(message = "", options = "Error") {
    super(String(message));
    this.#name = typeof options === "string" ? options : String(options?.name ?? "Error");
    if (options && typeof options === "object" && "cause" in options) this.cause = options.cause;
  }
  get name() {
    return this.#name;
  }
  get code() {
    return DOM_CODES[this.#name] ?? 0;
  }
}

const kStop = Symbol("stopImmediate");

export class Event {
  #type;
  #bubbles;
  #cancelable;
  #composed;
  #defaultPrevented = false;
  constructor(type, init = {}) {
    if (arguments.length === 0) throw new TypeError("Event constructor requires a type");
    this.#type = String(type);
    this.#bubbles = Boolean(init?.bubbles);
    this.#cancelable = Boolean(init?.cancelable);
    this.#composed = Boolean(init?.composed);
    this.target = null;
    this.currentTarget = null;
    this.timeStamp = clock.now - VIRTUAL_EPOCH_MS;
    this.isTrusted = false;
    this[kStop] = false;
  }
  get type() {
    return this.#type;
  }
  get bubbles() {
    return this.#bubbles;
  }
  get cancelable() {
    return this.#cancelable;
  }
  get composed() {
    return this.#composed;
  }
  get defaultPrevented() {
    return this.#defaultPrevented;
  }
  get eventPhase() {
    return this.currentTarget ? 2 : 0;
  }
  preventDefault() {
    if (this.#cancelable) this.#defaultPrevented = true;
  }
  stopPropagation() {}
  stopImmediatePropagation() {
    this[kStop] = true;
  }
  composedPath() {
    return this.currentTarget ? [this.currentTarget] : [];
  }
}

export class CustomEvent extends Event {
  #detail;
  constructor(type, init = {}) {
    super(type, init);
    this.#detail = init?.detail ?? null;
  }
  get detail() {
    return this.#detail;
  }
}

/** Where errors thrown by listeners go (reported, as a browser does, not thrown). */
export const eventHooks = { onListenerError: (error) => queueMicrotask(() => { throw error; }) };

export class EventTarget {
  #listeners = new Map();
  addEventListener(type, listener, options) {
    if (listener == null) return;
    const once = typeof options === "object" && options !== null && Boolean(options.once);
    const capture = typeof options === "boolean" ? options : Boolean(options?.capture);
    const signal = typeof options === "object" && options !== null ? options.signal : undefined;
    if (signal?.aborted) return;
    const list = this.#listeners.get(type) ?? [];
    if (list.some((entry) => entry.listener === listener && entry.capture === capture)) return;
    const entry = { listener, once, capture, removed: false };
    list.push(entry);
    this.#listeners.set(type, list);
    signal?.addEventListener?.("abort", () => this.removeEventListener(type, listener, { capture }), { once: true });
  }
  removeEventListener(type, listener, options) {
    const capture = typeof options === "boolean" ? options : Boolean(options?.capture);
    const list = this.#listeners.get(type);
    if (!list) return;
    const index = list.findIndex((entry) => entry.listener === listener && entry.capture === capture);
    if (index >= 0) {
      list[index].removed = true;
      list.splice(index, 1);
    }
  }
  dispatchEvent(event) {
    if (!(event instanceof Event)) throw new TypeError("The \"event\" argument must be an instance of Event");
    event.target = this;
    event.currentTarget = this;
    for (const entry of [...(this.#listeners.get(event.type) ?? [])]) {
      if (entry.removed) continue;
      if (entry.once) this.removeEventListener(event.type, entry.listener, { capture: entry.capture });
      try {
        if (typeof entry.listener === "function") callMod(entry.listener, this, [event]);
        else if (typeof entry.listener.handleEvent === "function") callMod(entry.listener.handleEvent, entry.listener, [event]);
      } catch (error) {
        eventHooks.onListenerError(error);
      }
      if (event[kStop]) break;
    }
    event.currentTarget = null;
    return !event.defaultPrevented;
  }
}
