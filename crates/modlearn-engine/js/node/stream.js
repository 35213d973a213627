// node:stream: Node's streams from Node's own source for userland (vendored
// readable-stream), on the sandbox's EventEmitter and process.nextTick.

import stream from "../vendor/readable-stream.js";

export default stream;
export const {
  Duplex, PassThrough, Readable, Stream, Transform, Writable, addAbortSignal, compose, destroy, finished, getDefaultHighWaterMark,
  isDestroyed, isDisturbed, isErrored, isReadable, isWritable, pipeline, promises, setDefaultHighWaterMark,
} = stream;
export const eos = finished;
