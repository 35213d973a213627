// node:punycode: vendored `punycode` 2.3.1, which behaves as Bun's does; Bun's reports itself
// as version 2.1.0 (Node's own copy kept that number), and so does this one.

import punycode from "../vendor/punycode.js";

export const version = "2.1.0";
export const { ucs2, decode, encode, toASCII, toUnicode } = punycode;
export default { version, ucs2, decode, encode, toASCII, toUnicode };
