// Objects the host makes whose prototypes a mod can reach only through an instance (an
// iterator's, a stream's internal state, a hash's): keys a mod hangs on those prototypes
// outlive a reload as a global's would, so the lifecycle checks watch them too
// (lifecycle.js `recordGlobalBaseline`). Each sample is made once, at boot, before any mod.

import { Readable, Writable, Transform } from "./node/stream.js";
import { createHash, createHmac } from "./node/crypto.js";

/** `[name, instance]` pairs; a sample the platform cannot make is left out. */
export function prototypeSamples(global) {
  const samples = [];
  const sample = (name, make) => {
    try {
      const instance = make();
      if (instance !== null && (typeof instance === "object" || typeof instance === "function")) samples.push([name, instance]);
    } catch {
      // A platform without this class has no prototype to watch.
    }
  };
  sample("[].values()", () => [].values());
  sample("new Map().entries()", () => new Map().entries());
  sample("new Set().values()", () => new Set().values());
  sample('""[Symbol.iterator]()', () => ""[Symbol.iterator]());
  sample('/x/g[Symbol.matchAll]("")', () => /x/g[Symbol.matchAll](""));
  sample("(function* () {})()", () => (function* () {})());
  sample("(async function* () {})()", () => (async function* () {})());
  sample("Iterator.from([])", () => global.Iterator?.from([]));
  sample("new Headers().entries()", () => new global.Headers().entries());
  sample("new URLSearchParams().entries()", () => new global.URLSearchParams().entries());
  sample("new FormData().entries()", () => new global.FormData().entries());
  sample("new URL().searchParams", () => new global.URL("http://localhost/").searchParams);
  sample("new AbortController().signal", () => new global.AbortController().signal);
  sample("new ReadableStream().getReader()", () => new global.ReadableStream().getReader());
  sample("ReadableStreamDefaultController", () => {
    let controller = null;
    new global.ReadableStream({ start: (c) => void (controller = c) });
    return controller;
  });
  sample("new ReadableStream({ type: 'bytes' }).getReader({ mode: 'byob' })", () =>
    new global.ReadableStream({ type: "bytes" }).getReader({ mode: "byob" }));
  sample("new WritableStream().getWriter()", () => new global.WritableStream().getWriter());
  sample("WritableStreamDefaultController", () => {
    let controller = null;
    new global.WritableStream({ start: (c) => void (controller = c) });
    return controller;
  });
  sample("TransformStreamDefaultController", () => {
    let controller = null;
    new global.TransformStream({ start: (c) => void (controller = c) });
    return controller;
  });
  sample("new Blob().stream()", () => new global.Blob([]).stream());
  const readable = new Readable({ read() {} });
  sample("Readable._readableState", () => readable._readableState);
  sample("Readable._readableState.buffer", () => readable._readableState.buffer);
  sample("Readable[Symbol.asyncIterator]()", () => readable[Symbol.asyncIterator]());
  sample("Writable._writableState", () => new Writable({ write(_chunk, _encoding, done) { done(); } })._writableState);
  sample("Transform._readableState", () => new Transform({ transform(chunk, _encoding, done) { done(null, chunk); } })._readableState);
  sample('createHash("sha256")', () => createHash("sha256"));
  sample('createHmac("sha256", "")', () => createHmac("sha256", ""));
  sample("new TextEncoder()", () => new global.TextEncoder());
  sample("new TextDecoder()", () => new global.TextDecoder());
  return samples;
}
