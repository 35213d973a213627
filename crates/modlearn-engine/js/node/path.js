// node:path: Node's own POSIX path code (vendored path-browserify); `resolve`
// starts from the virtual working directory through `process.cwd()`.

import path from "../vendor/path.js";

path.posix = path;
export default path;
export const { basename, delimiter, dirname, extname, format, isAbsolute, join, normalize, parse, relative, resolve, sep, toNamespacedPath, posix, win32 } = path;
