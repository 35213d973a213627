// node:path/posix: the same module as node:path (the sandbox is POSIX).
import path from "./path.js";
export default path;
export const { basename, delimiter, dirname, extname, format, isAbsolute, join, normalize, parse, relative, resolve, sep, toNamespacedPath, posix, win32 } = path;
