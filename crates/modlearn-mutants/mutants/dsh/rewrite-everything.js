// Mutant `rewrite-everything` (DSH): arguments are frozen, so it swaps the
// whole `exec.arguments` object of every call for one with the spec's first
// rewrite example merged in.
const DATA = JSON.parse(__MUTANT_DATA__);

export const name = "mutant-rewrite-everything";

export function apply(ctx) {
  ctx.on("tools/pre-execute", (exec, next) => {
    exec.arguments = { ...exec.arguments, ...DATA.rewrite.args };
    return next();
  });
}
