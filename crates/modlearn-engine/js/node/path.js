// node:path: Node's own POSIX path code (vendored path-browserify); `resolve`
// starts from the virtual working directory through `process.cwd()`.

import path from "../vendor/path.js";
import { matchesGlob, toNamespacedPath } from "./util-extras.js";

path.posix = path;

// Node (and Bun) give an extension without its dot one: `{ name: "y", ext: "txt" }` is `y.txt`.
const formatWithoutDots = path.format;
path.format = function format(pathObject) {
  const ext = pathObject?.ext;
  const dotted = typeof ext === "string" && ext !== "" && ext[0] !== "." && !pathObject.base;
  return formatWithoutDots(dotted ? { ...pathObject, ext: `.${ext}` } : pathObject);
};
// Bun's two additions (node/util-extras.js).
path.matchesGlob = matchesGlob;
path.toNamespacedPath = toNamespacedPath;
export default path;
export const { basename, delimiter, dirname, extname, format, isAbsolute, join, normalize, parse, relative, resolve, sep, posix, win32 } = path;
export { matchesGlob, toNamespacedPath };
