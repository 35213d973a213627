// node:fs/promises: the promise forms of node:fs, over the same machine.
import { constants, promises } from "./fs.js";

export const { readFile, writeFile, appendFile, mkdir, mkdtemp, readdir, stat, lstat, access, rm, unlink, rmdir, rename, copyFile, realpath, chmod, utimes, truncate, open, cp } = promises;
export { constants };
export default promises;
