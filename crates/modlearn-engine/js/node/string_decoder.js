// node:string_decoder: Node's own StringDecoder (vendored `string_decoder`).
import { StringDecoder } from "../vendor/string_decoder.js";
export { StringDecoder };
export default { StringDecoder };
