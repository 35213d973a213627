// Mutant `noop` (Pi): the factory does nothing.
export default function () {}
