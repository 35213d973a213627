// node-inspect-extracted reads Date's methods off `Date.prototype` by own
// property name when it loads; the sandbox's Date is a subclass that owns
// none, so util.js lends it the engine's own Date while inspect.js loads
// (imported between this module and real-date-end.js).

export const virtualDate = globalThis.Date;
globalThis.Date = Object.getPrototypeOf(virtualDate);
