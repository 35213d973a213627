// `@sinclair/typebox` (and `typebox`, its newer name), the real package, vendored.
export * from "../../vendor/typebox.js";

import { Type } from "../../vendor/typebox.js";
import { shareObject } from "../../lifecycle.js";

// One `Type` serves every load generation: what an extension hangs on it outlives a reload.
shareObject("Type", Type);
