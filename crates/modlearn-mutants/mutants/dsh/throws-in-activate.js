// Mutant `throws-in-activate` (DSH): apply throws.
export const name = "mutant-throws-in-activate";
export function apply() {
  throw new Error("mutant: apply throws");
}
