// node:perf_hooks: the global `performance`, on the virtual clock.

import { performance } from "../web/install.js";

export { performance };
export const constants = Object.freeze({ NODE_PERFORMANCE_GC_MAJOR: 4, NODE_PERFORMANCE_GC_MINOR: 1, NODE_PERFORMANCE_GC_INCREMENTAL: 8, NODE_PERFORMANCE_GC_WEAKCB: 16 });
export default { performance, constants };
