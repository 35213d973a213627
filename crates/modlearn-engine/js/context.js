// The ctx every mod callback receives, and the conversation handle on it.
// modlearn has no conversation backend, so its methods fail as Letta's do
// when none is wired (as in Letta's own learning harness).

const NO_BACKEND = "Mod conversation backend is not available";

/** A conversation handle bound to `id` (null when there is none). */
export function conversationHandle(id) {
  const unavailable = async () => {
    throw new Error(NO_BACKEND);
  };
  return {
    id: typeof id === "string" ? id : null,
    fork: unavailable,
    getHistory: unavailable,
    updateTitle: unavailable,
    sendMessageStream: unavailable,
    updateLlmConfig: unavailable,
  };
}

/**
 * Adds Letta's non-enumerable `getContext` trap, which records a
 * deprecated_api warning and throws.
 */
export function withGetContextTrap(ctx, id, onCall) {
  Object.defineProperty(ctx, "getContext", {
    enumerable: false,
    configurable: true,
    value() {
      onCall();
      throw new Error(`${id}() was removed`);
    },
  });
  return ctx;
}

/** Deep copy of the host's base context, so one callback cannot change the next one's. */
export function freshContext(base) {
  return JSON.parse(JSON.stringify(base));
}
