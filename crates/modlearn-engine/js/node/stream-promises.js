// node:stream/promises.

import stream from "../vendor/readable-stream.js";

export const { finished, pipeline } = stream.promises;
export default stream.promises;
