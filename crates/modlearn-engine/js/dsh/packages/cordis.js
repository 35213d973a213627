// `@deepseek-ai/cordis` (also `cordis`, `@cordisjs/core`): the real Cordis core, the one
// instance the host's services are built on.
export { Context, Service, FiberState, Fiber, CordisError, Inject } from "../../vendor/dsh.js";
