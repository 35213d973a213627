// The statics of the tracking Promise (js/lifecycle.js: resolve, all, withResolvers, ...), in a
// module of their own. The host calls them from its own code, so a stack that begins in this
// file had the engine call one directly, with no frame of the host's beneath it: a bound static
// the mod handed in as a reaction (`.then(Promise.withResolvers.bind(Promise))`). The engine's
// frame walk (modlearn-engine-ops) counts such a stack as the mod's.

/**
 * `method` (a static of the engine's Promise) answering as itself, with what it makes handed to
 * `record` (withResolvers' promise, the promise anything else returns). Called on the tracking
 * constructor it runs as the engine's (`engine`), whose promises' `constructor` it is: so
 * `Promise.resolve(p)` is `p` itself, as in Bun.
 */
export function trackedStatic(method, record, tracking, engine) {
  const wrapped = {
    [method.name](...args) {
      const result = Reflect.apply(method, this === tracking ? engine : this, args);
      record(method.name === "withResolvers" ? result?.promise : result);
      return result;
    },
  }[method.name];
  Object.defineProperty(wrapped, "length", { value: method.length });
  return wrapped;
}
