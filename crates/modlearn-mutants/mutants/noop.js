// Mutant `noop`: activate runs and does nothing at all. A spec this mod
// passes asks nothing of a mod beyond loading.
export function activate(letta) {
  void letta;
}
