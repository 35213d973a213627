// node:assert/strict: node:assert's strict mode.
import { strict } from "./assert.js";
export default strict;
export const { ok, fail, throws, doesNotThrow, rejects, doesNotReject, match, doesNotMatch, ifError, strictEqual, notStrictEqual, deepStrictEqual, notDeepStrictEqual, AssertionError, equal, notEqual, deepEqual, notDeepEqual } = strict;
