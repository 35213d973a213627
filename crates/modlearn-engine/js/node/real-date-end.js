// Gives the sandbox its Date back (see real-date-begin.js).
import { virtualDate } from "./real-date-begin.js";

globalThis.Date = virtualDate;
