// Mutant `throws-in-activate` (Pi): the factory throws.
export default function () {
  throw new Error("mutant: the factory throws");
}
