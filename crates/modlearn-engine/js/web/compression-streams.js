// The coding behind CompressionStream and DecompressionStream (web/streams.js), as Bun has
// them: node:zlib's coders (fflate) as a TransformStream's transformer. The whole input is
// coded when the writable side closes, so the bytes come out at the end rather than as they
// go; what they decode to is the same.

import { deflateRawSync, deflateSync, gunzipSync, gzipSync, inflateRawSync, inflateSync } from "../node/zlib.js";

const CODERS = {
  compress: { gzip: gzipSync, deflate: deflateSync, "deflate-raw": deflateRawSync },
  decompress: { gzip: gunzipSync, deflate: inflateSync, "deflate-raw": inflateRawSync },
};

/** The bytes of a BufferSource chunk, or a TypeError as the standard's streams throw. */
function chunkBytes(chunk) {
  if (chunk instanceof ArrayBuffer) return new Uint8Array(chunk);
  if (ArrayBuffer.isView(chunk)) return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  throw new TypeError("The provided value is not of type '(ArrayBuffer or ArrayBufferView)'");
}

/** The transformer that codes a whole stream one way (`compress`, `decompress`) in `format`. */
export function codingTransformer(direction, format) {
  const name = String(format);
  const code = Object.hasOwn(CODERS[direction], name) ? CODERS[direction][name] : undefined;
  if (code === undefined) throw new TypeError(`Unsupported compression format: '${name}'`);
  const chunks = [];
  let length = 0;
  return {
    transform(chunk) {
      const bytes = chunkBytes(chunk);
      chunks.push(bytes.slice());
      length += bytes.byteLength;
    },
    flush(controller) {
      const input = new Uint8Array(length);
      let at = 0;
      for (const bytes of chunks) {
        input.set(bytes, at);
        at += bytes.byteLength;
      }
      const output = code(input);
      controller.enqueue(new Uint8Array(output.buffer, output.byteOffset, output.byteLength));
    },
  };
}
