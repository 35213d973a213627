// Mutant `noop` (DSH): a plugin whose apply does nothing.
export const name = "mutant-noop";
export function apply() {}
