// Mutant `all-handlers-passthrough` (DSH): a listener on every extension point
// a headless evaluation dispatches, each passing the call on unchanged.
export const name = "mutant-all-handlers-passthrough";

export function apply(ctx) {
  ctx.on("tools/pre-execute", (_exec, next) => next());
  ctx.on("tools/execute", (_exec, next) => next());
  ctx.on("tools/post-execute", (_exec, _result, next) => next());
  ctx.on("tools/result", () => undefined);
  ctx.on("agent/session-start", () => undefined);
  ctx.on("agent/pre-step", (_step, next) => next());
  ctx.on("agent/turn-stopping", () => undefined);
}
