// node:readline/promises: `readline.promises` (see readline.js).

import { promises } from "./readline.js";

export const { Interface, Readline, createInterface } = promises;
export default promises;
