// node:diagnostics_channel: named channels in this process (Node's lib/diagnostics_channel.js,
// minus the weak references): publish runs the subscribers at once, in order; one that throws
// does not stop the others, and its error is thrown again on the next tick (an uncaught error of the mod's), as Node does.

import { callMod, queueHostTask, watchCollection } from "../platform.js";
import { holdHandle } from "../world.js";

/** What lets each subscriber's handle go, by subscriber (one per subscription). */
const releases = new WeakMap();

function invalidArg(name, expected, value) {
  const error = new TypeError(`The "${name}" argument must be ${expected}. Received ${value === null ? "null" : `type ${typeof value}`}`);
  error.code = "ERR_INVALID_ARG_TYPE";
  return error;
}

function checkFunction(fn, name) {
  if (typeof fn !== "function") throw invalidArg(name, "of type function", fn);
}

const channels = new Map();
// What subscribers and bound stores the channels hold (an empty channel is Node's, held weakly).
const held = (channel, key) => Reflect.getOwnPropertyDescriptor(channel, key)?.value;
watchCollection("node:diagnostics_channel subscribers", () => [...channels.values()].map((channel) => [held(channel, "_subscribers"), held(channel, "_stores")]));

export class Channel {
  constructor(name) {
    if (typeof name !== "string" && typeof name !== "symbol") throw invalidArg("channel", "of type string or symbol", name);
    this._subscribers = [];
    this._stores = new Map();
    this.name = name;
  }

  get hasSubscribers() {
    return this._subscribers.length > 0 || this._stores.size > 0;
  }

  subscribe(subscription) {
    checkFunction(subscription, "subscription");
    this._subscribers = [...this._subscribers, subscription];
    // A subscriber is code that runs on every publish, until it is unsubscribed.
    releases.set(subscription, [...(releases.get(subscription) ?? []), holdHandle("diagnostics_channel", this.name)]);
  }

  unsubscribe(subscription) {
    const index = this._subscribers.indexOf(subscription);
    if (index === -1) return false;
    this._subscribers = this._subscribers.filter((_, i) => i !== index);
    releases.get(subscription)?.pop()?.();
    return true;
  }

  bindStore(store, transform) {
    this._stores.set(store, transform);
  }

  unbindStore(store) {
    return this._stores.delete(store);
  }

  publish(data) {
    for (const subscriber of this._subscribers) {
      try {
        callMod(subscriber, undefined, [data, this.name]);
      } catch (error) {
        queueHostTask(() => {
          throw error;
        }, "tick");
      }
    }
  }

  runStores(data, fn, thisArg, ...args) {
    let run = () => {
      this.publish(data);
      return callMod(fn, thisArg, args);
    };
    for (const [store, transform] of this._stores) {
      const next = run;
      run = () => {
        let value;
        try {
          value = transform === undefined ? data : callMod(transform, undefined, [data]);
        } catch (error) {
          queueHostTask(() => {
            throw error;
          }, "tick");
          return next();
        }
        return store.run(value, next);
      };
    }
    return run();
  }
}

export function channel(name) {
  let found = channels.get(name);
  if (found === undefined) {
    found = new Channel(name);
    channels.set(name, found);
  }
  return found;
}

export function hasSubscribers(name) {
  return channels.get(name)?.hasSubscribers ?? false;
}

export function subscribe(name, subscription) {
  channel(name).subscribe(subscription);
}

export function unsubscribe(name, subscription) {
  return channel(name).unsubscribe(subscription);
}

const TRACE_EVENTS = ["start", "end", "asyncStart", "asyncEnd", "error"];

class TracingChannel {
  constructor(nameOrChannels) {
    if (typeof nameOrChannels === "string") {
      for (const event of TRACE_EVENTS) this[event] = channel(`tracing:${nameOrChannels}:${event}`);
    } else if (nameOrChannels !== null && typeof nameOrChannels === "object") {
      for (const event of TRACE_EVENTS) {
        const given = nameOrChannels[event];
        if (!(given instanceof Channel)) throw invalidArg(`nameOrChannels.${event}`, "an instance of Channel", given);
        this[event] = given;
      }
    } else {
      throw invalidArg("nameOrChannels", "of type string or an instance of TracingChannel or Object", nameOrChannels);
    }
  }

  // Bun's TracingChannel has no `hasSubscribers` (Node 22's has): kept inside.
  #hasSubscribers() {
    return TRACE_EVENTS.some((event) => this[event].hasSubscribers);
  }

  subscribe(handlers) {
    for (const event of TRACE_EVENTS) if (handlers[event]) this[event].subscribe(handlers[event]);
  }

  unsubscribe(handlers) {
    let done = true;
    for (const event of TRACE_EVENTS) {
      if (handlers[event] && !this[event].unsubscribe(handlers[event])) done = false;
    }
    return done;
  }

  traceSync(fn, context = {}, thisArg, ...args) {
    if (!this.#hasSubscribers()) return callMod(fn, thisArg, args);
    return this.#traced(context, () => {
      const result = callMod(fn, thisArg, args);
      context.result = result;
      return result;
    });
  }

  /** Runs `call` in the start channel's stores: a throw is published on error, and end always. */
  #traced(context, call) {
    const { start, end, error } = this;
    return start.runStores(context, () => {
      try {
        return call();
      } catch (thrown) {
        context.error = thrown;
        error.publish(context);
        throw thrown;
      } finally {
        end.publish(context);
      }
    });
  }

  tracePromise(fn, context = {}, thisArg, ...args) {
    if (!this.#hasSubscribers()) return callMod(fn, thisArg, args);
    const { asyncStart, asyncEnd, error } = this;
    const reject = (thrown) => {
      context.error = thrown;
      error.publish(context);
      asyncStart.publish(context);
      asyncEnd.publish(context);
      return Promise.reject(thrown);
    };
    const resolve = (result) => {
      context.result = result;
      asyncStart.publish(context);
      asyncEnd.publish(context);
      return result;
    };
    return this.#traced(context, () => {
      let promise = callMod(fn, thisArg, args);
      if (!(promise instanceof Promise)) promise = Promise.resolve(promise);
      return promise.then(resolve, reject);
    });
  }

  traceCallback(fn, position = -1, context = {}, thisArg, ...args) {
    if (!this.#hasSubscribers()) return callMod(fn, thisArg, args);
    const { asyncStart, asyncEnd, error } = this;
    const callback = args.at(position);
    checkFunction(callback, "callback");
    function wrappedCallback(err, result) {
      if (err) {
        context.error = err;
        error.publish(context);
      } else {
        context.result = result;
      }
      const callArgs = arguments;
      asyncStart.runStores(context, () => {
        try {
          return callMod(callback, this, [...callArgs]);
        } finally {
          asyncEnd.publish(context);
        }
      });
    }
    args.splice(position, 1, wrappedCallback);
    return this.#traced(context, () => callMod(fn, thisArg, args));
  }
}

export function tracingChannel(nameOrChannels) {
  return new TracingChannel(nameOrChannels);
}

export default { channel, hasSubscribers, subscribe, tracingChannel, unsubscribe, Channel };
