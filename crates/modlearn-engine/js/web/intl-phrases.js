// Intl.ListFormat and Intl.RelativeTimeFormat for en-US, as Bun (ICU) formats them:
// QuickJS has no Intl, and mods join lists and say "3 days ago" with these.

import { supportedLocalesOf } from "./intl.js";

/** ICU's en list patterns: [pair, middle, last] joiners by type and style. */
const LIST_PATTERNS = {
  conjunction: { long: [" and ", ", ", ", and "], short: [" & ", ", ", ", & "], narrow: [", ", ", ", ", "] },
  disjunction: { long: [" or ", ", ", ", or "], short: [" or ", ", ", ", or "], narrow: [" or ", ", ", ", or "] },
  unit: { long: [", ", ", ", ", "], short: [", ", ", ", ", "], narrow: [" ", " ", " "] },
};

const STYLES = ["long", "short", "narrow"];

/** An option's value, as Bun words a bad one: `type must be either "a", "b", or "c"`. */
function pick(value, allowed, fallback, name) {
  if (value === undefined) return fallback;
  const text = String(value);
  if (!allowed.includes(text)) {
    const quoted = allowed.map((option) => `"${option}"`);
    const choices = quoted.length === 2 ? quoted.join(" or ") : `${quoted.slice(0, -1).join(", ")}, or ${quoted.at(-1)}`;
    throw new RangeError(`${name} must be either ${choices}`);
  }
  return text;
}

export class ListFormat {
  #type;
  #style;
  constructor(_locales, options = {}) {
    options = options ?? {};
    this.#type = pick(options.type, Object.keys(LIST_PATTERNS), "conjunction", "type");
    this.#style = pick(options.style, STYLES, "long", "style");
  }
  format(list) {
    return this.formatToParts(list).map((part) => part.value).join("");
  }
  formatToParts(list) {
    const items = [...(list ?? [])].map((item) => {
      if (typeof item !== "string") throw new TypeError("Iterable yielded a non-string value");
      return item;
    });
    const [pair, middle, last] = LIST_PATTERNS[this.#type][this.#style];
    const parts = [];
    items.forEach((item, index) => {
      if (index > 0) parts.push({ type: "literal", value: items.length === 2 ? pair : index === items.length - 1 ? last : middle });
      parts.push({ type: "element", value: item });
    });
    return parts;
  }
  resolvedOptions() {
    return { locale: "en-US", type: this.#type, style: this.#style };
  }
  static supportedLocalesOf(locales) {
    return supportedLocalesOf(locales);
  }
}

/** Unit names by style: [singular, plural]; a short or narrow one with a dot has none plural. */
const UNITS = {
  year: { long: ["year", "years"], short: ["yr.", "yr."], narrow: ["y", "y"] },
  quarter: { long: ["quarter", "quarters"], short: ["qtr.", "qtrs."], narrow: ["q", "q"] },
  month: { long: ["month", "months"], short: ["mo.", "mo."], narrow: ["mo", "mo"] },
  week: { long: ["week", "weeks"], short: ["wk.", "wk."], narrow: ["w", "w"] },
  day: { long: ["day", "days"], short: ["day", "days"], narrow: ["d", "d"] },
  hour: { long: ["hour", "hours"], short: ["hr.", "hr."], narrow: ["h", "h"] },
  minute: { long: ["minute", "minutes"], short: ["min.", "min."], narrow: ["m", "m"] },
  second: { long: ["second", "seconds"], short: ["sec.", "sec."], narrow: ["s", "s"] },
};

/** What `numeric: "auto"` says instead of a number, by unit and value. */
const AUTO = {
  year: { "-1": "last year", 0: "this year", 1: "next year" },
  quarter: { "-1": "last quarter", 0: "this quarter", 1: "next quarter" },
  month: { "-1": "last month", 0: "this month", 1: "next month" },
  week: { "-1": "last week", 0: "this week", 1: "next week" },
  day: { "-1": "yesterday", 0: "today", 1: "tomorrow" },
  hour: { 0: "this hour" },
  minute: { 0: "this minute" },
  second: { 0: "now" },
};

export class RelativeTimeFormat {
  #style;
  #numeric;
  constructor(_locales, options = {}) {
    options = options ?? {};
    this.#style = pick(options.style, STYLES, "long", "style");
    this.#numeric = pick(options.numeric, ["always", "auto"], "always", "numeric");
  }
  format(value, unit) {
    return this.formatToParts(value, unit).map((part) => part.value).join("");
  }
  formatToParts(value, unit) {
    const number = Number(value);
    const name = String(unit).replace(/s$/, "");
    if (!Object.hasOwn(UNITS, name)) throw new RangeError("unit argument is not a recognized unit type");
    if (!Number.isFinite(number)) throw new RangeError("number argument must be finite");
    const phrase = this.#numeric === "auto" ? AUTO[name][number] : undefined;
    if (phrase !== undefined) return [{ type: "literal", value: this.#style === "long" || !CALENDAR_UNITS.has(name) ? phrase : shortAuto(phrase, name) }];
    const amount = Math.abs(number);
    const [singular, plural] = UNITS[name][this.#style];
    const word = `${this.#style === "narrow" ? "" : " "}${amount === 1 ? singular : plural}`;
    const digits = { type: Number.isInteger(amount) ? "integer" : "decimal", value: amount.toLocaleString("en-US"), unit: name };
    return number < 0 || Object.is(number, -0)
      ? [digits, { type: "literal", value: `${word} ago` }]
      : [{ type: "literal", value: "in " }, digits, { type: "literal", value: word }];
  }
  resolvedOptions() {
    return { locale: "en-US", style: this.#style, numeric: this.#numeric, numberingSystem: "latn" };
  }
  static supportedLocalesOf(locales) {
    return supportedLocalesOf(locales);
  }
}

/** The units whose auto phrases ("last month") shorten with the unit ("last mo."). */
const CALENDAR_UNITS = new Set(["year", "quarter", "month", "week"]);

function shortAuto(phrase, unit) {
  const [word] = phrase.split(" ");
  return `${word} ${UNITS[unit].short[0]}`;
}
