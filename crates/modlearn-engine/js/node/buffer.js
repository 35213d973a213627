// node:buffer: Node's Buffer API (vendored feross/buffer, the one browsers
// bundle), the same class as the `Buffer` global.

import { Buffer, INSPECT_MAX_BYTES, SlowBuffer, kMaxLength } from "../web/buffer.js";
import { atob, btoa } from "../web/encoding.js";
import { Blob, File } from "../web/blob.js";

export const constants = Object.freeze({ MAX_LENGTH: kMaxLength, MAX_STRING_LENGTH: 0x1fffffe8 });
export const kStringMaxLength = constants.MAX_STRING_LENGTH;
export { Blob, Buffer, File, INSPECT_MAX_BYTES, SlowBuffer, kMaxLength, atob, btoa };
export default { Blob, Buffer, File, INSPECT_MAX_BYTES, SlowBuffer, kMaxLength, kStringMaxLength, constants, atob, btoa };
