// The web platform globals Bun gives mods, installed into the sandbox at
// start-up: encoding, URL, Buffer, crypto, events, performance and Intl, all
// on the engine's virtual clock and seeded generator.

import { Blob, File } from "./blob.js";
import { Buffer } from "./buffer.js";
import { URL, URLSearchParams } from "./url.js";
import { TextDecoder, TextEncoder, atob, btoa } from "./encoding.js";
import { CustomEvent, DOMException, Event, EventTarget } from "./event-target.js";
import { webCrypto } from "./crypto.js";
import { installIntl } from "./intl.js";
import { callMod, clock, readClock, setHostTimeout, VIRTUAL_EPOCH_MS } from "../platform.js";
import { fetch } from "./network.js";
import * as streams from "./streams.js";
import { fetchTypes } from "./fetch.js";
import { process } from "../node/process.js";

/**
 * `performance` on the virtual clock: 0 when the engine starts. The one object of its kind:
 * the seal installs it again (js/seal.js) and node:perf_hooks exports it. Not frozen: a mod
 * may add to it, as in Bun.
 */
export const performance = {
  now: () => readClock() - VIRTUAL_EPOCH_MS,
  timeOrigin: VIRTUAL_EPOCH_MS,
  mark() {},
  measure() {},
  toJSON: () => ({ timeOrigin: VIRTUAL_EPOCH_MS }),
};

export function installWeb(global) {
  const define = (name, value) =>
    Object.defineProperty(global, name, { value, writable: true, configurable: true, enumerable: false });
  define("global", global);
  define("process", process);
  define("fetch", fetch);
  define("TextEncoder", TextEncoder);
  define("TextDecoder", TextDecoder);
  define("atob", atob);
  define("btoa", btoa);
  define("URL", URL);
  define("URLSearchParams", URLSearchParams);
  define("Buffer", Buffer);
  define("Blob", Blob);
  define("File", File);
  define("crypto", webCrypto);
  define("Event", Event);
  define("CustomEvent", CustomEvent);
  define("EventTarget", EventTarget);
  define("DOMException", DOMException);
  define("performance", performance);
  for (const [name, value] of Object.entries(streams)) define(name, value);
  const { AbortController, AbortSignal } = global;
  const fetchGlobals = fetchTypes({ Blob, File, URL, URLSearchParams, TextEncoder, TextDecoder, AbortController, AbortSignal, DOMException, ReadableStream: streams.ReadableStream, callMod });
  for (const [name, value] of Object.entries(fetchGlobals)) define(name, value);
  define("queueMicrotask", (callback) => {
    if (typeof callback !== "function") throw new TypeError("The \"callback\" argument must be of type function");
    // Through callMod, as timers are: a bound native handed in has no frame of the mod's.
    Promise.resolve().then(() => callMod(callback, undefined, []));
  });
  global.AbortSignal.timeout = function timeout(ms) {
    const controller = new global.AbortController();
    const delay = Math.max(0, Number(ms) || 0);
    // With the signal whose listeners firing it would run: lifecycle.js counts the timer only
    // while there are some.
    const abort = () => controller.abort(new DOMException("The operation timed out.", "TimeoutError"));
    setHostTimeout(abort, delay, clock.currentOwner(), controller.signal);
    return controller.signal;
  };
  // The sandbox's Date subclass answers to Date's name, as util.inspect and mods expect.
  Object.defineProperty(global.Date, "name", { value: "Date", configurable: true });
  installIntl(global);
}
