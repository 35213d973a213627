// node:stream/web: the web stream globals, as a module.

import * as streams from "../web/streams.js";

export * from "../web/streams.js";
export default { ...streams };
