// The ctx every mod callback receives, and the conversation handle on it.
// modlearn has no conversation backend, so its methods fail as Letta's do
// when none is wired (as in Letta's own learning harness).

const NO_BACKEND = "Mod conversation backend is not available";

/** A conversation handle bound to `id` (null when there is none). */
export function conversationHandle(id) {
  const conversationId = typeof id === "string" ? id : null;
  const requireBackend = () => {
    throw new Error(NO_BACKEND);
  };
  // As Letta's conversation-handle.ts: the async methods reject, the other two throw at once.
  return {
    id: conversationId,
    async fork() {
      requireBackend();
    },
    getHistory() {
      requireBackend();
    },
    async updateTitle() {
      if (!conversationId) throw new Error("Mod updateTitle: conversationId is not available for this conversation");
      requireBackend();
    },
    sendMessageStream() {
      requireBackend();
    },
    async updateLlmConfig() {
      requireBackend();
    },
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

/** A scenario's context: a deep copy of the host's base context, with Letta's `subagents.list`. */
export function freshContext(base) {
  const ctx = JSON.parse(JSON.stringify(base));
  if (ctx.subagents !== null && typeof ctx.subagents === "object") ctx.subagents.list = () => [];
  return ctx;
}
