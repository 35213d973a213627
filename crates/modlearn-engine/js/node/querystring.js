// node:querystring: Node's legacy query string code (vendored querystring-es3).
import qs from "../vendor/querystring.js";
import { Buffer } from "../web/buffer.js";
import { makeUnescapeBuffer } from "./util-extras.js";

export const parse = qs.parse ?? qs.decode;
export const stringify = qs.stringify ?? qs.encode;
export const decode = parse;
export const encode = stringify;
export const escape = (text) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
export const unescape = (text) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return unescape(text);
  }
};
export const unescapeBuffer = makeUnescapeBuffer(Buffer);
export default { parse, stringify, decode, encode, escape, unescape, unescapeBuffer };
