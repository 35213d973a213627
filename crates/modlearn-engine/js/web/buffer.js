// The Buffer class mods see (global and node:buffer): the vendored
// feross/buffer, taught the one encoding Node has that it lacks, base64url
// (its base64 decoder already reads '-' and '_').

import { Buffer, INSPECT_MAX_BYTES, SlowBuffer, kMaxLength } from "../vendor/buffer.js";

// The bundler renamed the constructors (Buffer3, SlowBuffer2); mods print and compare their names.
Object.defineProperty(Buffer, "name", { value: "Buffer" });
Object.defineProperty(SlowBuffer, "name", { value: "SlowBuffer" });

const isBase64Url = (encoding) => typeof encoding === "string" && encoding.toLowerCase() === "base64url";
const toBase64Url = (text) => text.replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");

const from = Buffer.from;
Buffer.from = function fromWithBase64Url(value, encodingOrOffset, length) {
  return from.call(this, value, isBase64Url(encodingOrOffset) ? "base64" : encodingOrOffset, length);
};
const byteLength = Buffer.byteLength;
Buffer.byteLength = function byteLengthWithBase64Url(value, encoding) {
  return byteLength.call(this, value, isBase64Url(encoding) ? "base64" : encoding);
};
const isEncoding = Buffer.isEncoding;
Buffer.isEncoding = (encoding) => isBase64Url(encoding) || isEncoding(encoding);
const toString = Buffer.prototype.toString;
Buffer.prototype.toString = function toStringWithBase64Url(encoding, start, end) {
  if (isBase64Url(encoding)) return toBase64Url(toString.call(this, "base64", start, end));
  return toString.apply(this, arguments);
};
const write = Buffer.prototype.write;
Buffer.prototype.write = function writeWithBase64Url(string, ...rest) {
  const index = rest.findIndex((arg) => typeof arg === "string");
  if (index >= 0 && isBase64Url(rest[index])) rest[index] = "base64";
  return write.call(this, string, ...rest);
};

export { Buffer, INSPECT_MAX_BYTES, SlowBuffer, kMaxLength };
