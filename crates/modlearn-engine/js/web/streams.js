// The WHATWG streams Bun has as globals: the reference implementation's port
// (vendor/streams.js), and the text encoding and compression streams built on
// its TransformStream.

import { TransformStream } from "../vendor/streams.js";
import { TextDecoder, TextEncoder } from "./encoding.js";
import { codingTransformer } from "./compression-streams.js";

export * from "../vendor/streams.js";

/** Splits the stream's readable and writable ends off a TransformStream, as the standard's classes expose only those. */
class TransformEnds {
  #stream;
  constructor(transformer) {
    this.#stream = new TransformStream(transformer);
  }
  get readable() {
    return this.#stream.readable;
  }
  get writable() {
    return this.#stream.writable;
  }
}

export class TextEncoderStream extends TransformEnds {
  constructor() {
    const encoder = new TextEncoder();
    // A chunk may end in half a surrogate pair: hold it for the next.
    let high = "";
    super({
      transform(chunk, controller) {
        let text = high + String(chunk);
        high = "";
        const last = text.charCodeAt(text.length - 1);
        if (last >= 0xd800 && last <= 0xdbff) {
          high = text.slice(-1);
          text = text.slice(0, -1);
        }
        if (text.length > 0) controller.enqueue(encoder.encode(text));
      },
      flush(controller) {
        if (high) controller.enqueue(encoder.encode(high));
      },
    });
  }
  get encoding() {
    return "utf-8";
  }
  get [Symbol.toStringTag]() {
    return "TextEncoderStream";
  }
}

export class TextDecoderStream extends TransformEnds {
  #decoder;
  constructor(label = "utf-8", options = {}) {
    const decoder = new TextDecoder(label, options);
    super({
      transform(chunk, controller) {
        const text = decoder.decode(chunk, { stream: true });
        if (text) controller.enqueue(text);
      },
      flush(controller) {
        const text = decoder.decode();
        if (text) controller.enqueue(text);
      },
    });
    this.#decoder = decoder;
  }
  get encoding() {
    return this.#decoder.encoding;
  }
  get fatal() {
    return this.#decoder.fatal;
  }
  get ignoreBOM() {
    return this.#decoder.ignoreBOM;
  }
  get [Symbol.toStringTag]() {
    return "TextDecoderStream";
  }
}

export class CompressionStream extends TransformEnds {
  constructor(format) {
    if (format === undefined) throw new TypeError("1 argument required, but only 0 present.");
    super(codingTransformer("compress", format));
  }
  get [Symbol.toStringTag]() {
    return "CompressionStream";
  }
}

export class DecompressionStream extends TransformEnds {
  constructor(format) {
    if (format === undefined) throw new TypeError("1 argument required, but only 0 present.");
    super(codingTransformer("decompress", format));
  }
  get [Symbol.toStringTag]() {
    return "DecompressionStream";
  }
}
