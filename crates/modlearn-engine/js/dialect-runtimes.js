// Dialect runtimes the engine evaluates before the seal, and only in engines of their dialect
// (a Letta engine never evaluates DSH's). Each hands its API to the host here, so the host
// imports none of its own modules once mods can run: the loader refuses such an import, since
// code a mod evaluates from inside host code would carry a host module's name.

const runtimes = new Map();

/** Called by a dialect runtime's entry module as it is evaluated. */
export function provideRuntime(dialect, api) {
  if (!runtimes.has(dialect)) runtimes.set(dialect, Object.freeze({ ...api }));
}

/** The API a dialect runtime provided, or null when this engine did not load it. */
export function runtimeOf(dialect) {
  return runtimes.get(dialect) ?? null;
}
