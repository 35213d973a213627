// A minimal Intl with Bun's en-US output, in the UTC time zone: the engine
// has no ICU. Every locale formats as en-US (a mod that asks for another
// locale gets en-US text) save the numeric dates of a few (intl-dates.js);
// other time zones and unsupported options throw a RangeError that says so,
// rather than print something Bun would not.

import { ListFormat, RelativeTimeFormat } from "./intl-phrases.js";
import { DateTimeFormat } from "./intl-dates.js";

const CURRENCY_SYMBOLS = { USD: "$", EUR: "€", GBP: "£", JPY: "¥", CAD: "CA$", AUD: "A$", INR: "₹", CNY: "CN¥", KRW: "₩", MXN: "MX$", BRL: "R$" };
const ZERO_DECIMAL_CURRENCIES = new Set(["JPY", "KRW", "VND", "CLP", "ISK", "HUF_"]);

function unsupported(what) {
  return new RangeError(`${what} is not supported by modlearn's sandbox (en-US and the UTC time zone only)`);
}

function canonicalLocale(locales) {
  return "en-US";
}

export function supportedLocalesOf(locales) {
  const list = locales === undefined ? [] : Array.isArray(locales) ? locales : [locales];
  return list.filter((locale) => /^en(-US)?$/i.test(String(locale))).map(() => "en-US");
}

// ---- numbers ----

/** Digits and exponent of a finite non-negative number's shortest form: value = 0.digits * 10^exp. */
function decimalOf(value) {
  const text = value.toExponential(); // shortest round-trip digits
  const [mantissa, exponent] = text.split("e");
  const digits = mantissa.replace(".", "");
  return { digits, exp: Number(exponent) + 1 };
}

/** Rounds `{digits, exp}` at `position` digits after the decimal point (half away from zero). */
function roundAt(dec, keep) {
  // keep = number of digits of `digits` to keep
  if (keep >= dec.digits.length) return dec;
  if (keep < 0) return { digits: "0", exp: 1 };
  const up = dec.digits.charCodeAt(keep) >= 53; // '5'
  let digits = dec.digits.slice(0, keep);
  let exp = dec.exp;
  if (up) {
    const arr = digits.split("").map(Number);
    let i = arr.length - 1;
    while (i >= 0) {
      if (arr[i] === 9) {
        arr[i] = 0;
        i--;
      } else {
        arr[i]++;
        break;
      }
    }
    if (i < 0) {
      arr.unshift(1);
      exp++;
    }
    digits = arr.join("");
  }
  if (digits === "") return { digits: "0", exp: 1 };
  return { digits, exp };
}

/** Integer and fraction digit strings of a rounded decimal. */
function splitDecimal(dec) {
  let { digits, exp } = dec;
  if (/^0*$/.test(digits)) return { int: "0", frac: "" };
  if (exp <= 0) return { int: "0", frac: "0".repeat(-exp) + digits };
  if (exp >= digits.length) return { int: digits + "0".repeat(exp - digits.length), frac: "" };
  return { int: digits.slice(0, exp), frac: digits.slice(exp) };
}

function group(int, useGrouping) {
  if (!useGrouping || int.length <= 3) return int;
  // "min2" leaves four-digit numbers alone.
  if (useGrouping === "min2" && int.length <= 4) return int;
  return int.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

function option(options, name, allowed, fallback) {
  const value = options[name];
  if (value === undefined) return fallback;
  const text = String(value);
  if (allowed && !allowed.includes(text)) throw new RangeError(`Value ${text} out of range for Intl.NumberFormat options property ${name}`);
  return text;
}

function digitsOption(options, name, min, max, fallback) {
  const value = options[name];
  if (value === undefined) return fallback;
  const number = Math.floor(Number(value));
  if (!(number >= min && number <= max)) throw new RangeError(`${name} value is out of range.`);
  return number;
}

const COMPACT = [
  [1e12, "T"],
  [1e9, "B"],
  [1e6, "M"],
  [1e3, "K"],
];

export class NumberFormat {
  #o;
  constructor(locales, options = {}) {
    options = options ?? {};
    const style = option(options, "style", ["decimal", "percent", "currency", "unit"], "decimal");
    let unit;
    if (style === "unit") {
      if (options.unit === undefined) throw new TypeError("unit must be a string");
      unit = String(options.unit);
      if (!/^[a-z]+(-[a-z]+)*$/.test(unit)) throw new RangeError("unit is not a well-formed unit identifier");
      if (!Object.hasOwn(UNITS, unit)) throw unsupported(`The unit '${unit}'`);
    }
    let currency;
    if (style === "currency") {
      if (options.currency === undefined) throw new TypeError("Currency code is required with currency style.");
      currency = String(options.currency).toUpperCase();
    }
    const notation = option(options, "notation", ["standard", "compact", "scientific", "engineering"], "standard");
    if (notation === "scientific" || notation === "engineering") throw unsupported(`Intl.NumberFormat notation '${notation}'`);
    const currencyDigits = currency && ZERO_DECIMAL_CURRENCIES.has(currency) ? 0 : 2;
    const defaultMin = style === "currency" ? currencyDigits : 0;
    const defaultMax = style === "currency" ? currencyDigits : style === "percent" ? 0 : notation === "compact" ? 0 : 3;
    const minimumFractionDigits = digitsOption(options, "minimumFractionDigits", 0, 100, undefined);
    const maximumFractionDigits = digitsOption(options, "maximumFractionDigits", 0, 100, undefined);
    const min = minimumFractionDigits ?? Math.min(defaultMin, maximumFractionDigits ?? defaultMin);
    const max = maximumFractionDigits ?? Math.max(defaultMax, min);
    if (min > max) throw new RangeError("maximumFractionDigits value is out of range.");
    const minSig = digitsOption(options, "minimumSignificantDigits", 1, 21, undefined);
    const maxSig = digitsOption(options, "maximumSignificantDigits", 1, 21, undefined);
    let useGrouping = options.useGrouping;
    if (useGrouping === undefined) useGrouping = notation === "compact" ? "min2" : "auto";
    else if (useGrouping === true || useGrouping === "always") useGrouping = "always";
    else if (useGrouping === false) useGrouping = false;
    else useGrouping = String(useGrouping);
    this.#o = {
      locale: canonicalLocale(locales),
      numberingSystem: "latn",
      style,
      ...(unit ? { unit, unitDisplay: option(options, "unitDisplay", ["short", "long", "narrow"], "short") } : {}),
      ...(currency ? { currency, currencyDisplay: option(options, "currencyDisplay", ["symbol", "narrowSymbol", "code", "name"], "symbol"), currencySign: "standard" } : {}),
      minimumIntegerDigits: digitsOption(options, "minimumIntegerDigits", 1, 21, 1),
      ...(minSig !== undefined || maxSig !== undefined
        ? { minimumSignificantDigits: minSig ?? 1, maximumSignificantDigits: maxSig ?? 21 }
        : { minimumFractionDigits: min, maximumFractionDigits: max }),
      useGrouping,
      notation,
      ...(notation === "compact" ? { compactDisplay: option(options, "compactDisplay", ["short", "long"], "short") } : {}),
      signDisplay: option(options, "signDisplay", ["auto", "never", "always", "exceptZero", "negative"], "auto"),
      roundingIncrement: 1,
      roundingMode: "halfExpand",
      roundingPriority: "auto",
      trailingZeroDisplay: option(options, "trailingZeroDisplay", ["auto", "stripIfInteger"], "auto"),
    };
  }

  get format() {
    return (value) => this.#format(value);
  }

  formatToParts(value) {
    const text = this.#format(value);
    const parts = [];
    for (const match of text.matchAll(/(\d+)|([.,])|([^\d.,]+)/g)) {
      if (match[1]) parts.push({ type: parts.some((p) => p.type === "decimal") ? "fraction" : "integer", value: match[1] });
      else if (match[2] === ".") parts.push({ type: "decimal", value: "." });
      else if (match[2] === ",") parts.push({ type: "group", value: "," });
      else parts.push({ type: match[3] === "-" ? "minusSign" : match[3] === "+" ? "plusSign" : match[3] === "%" ? "percentSign" : "literal", value: match[3] });
    }
    return parts;
  }

  /**
   * ICU's en range: "~" when both ends format alike; a unit both share said once after them;
   * an en dash between bare numbers, spaced when either end has a sign or symbol.
   */
  formatRange(start, end) {
    return this.formatRangeToParts(start, end).map((part) => part.value).join("");
  }

  formatRangeToParts(start, end) {
    if (start === undefined || end === undefined) throw new TypeError("start or end is undefined");
    if (Number.isNaN(Number(start)) || Number.isNaN(Number(end))) throw new RangeError("Passed numbers are out of range");
    const from = this.formatToParts(start);
    const to = this.formatToParts(end);
    const text = (parts) => parts.map((part) => part.value).join("");
    if (text(from) === text(to)) return [{ type: "approximatelySign", value: "~", source: "shared" }, ...from.map((part) => ({ ...part, source: "shared" }))];
    let unit = [];
    if (this.#o.style === "unit") {
      const tail = (parts) => parts.findLastIndex((part) => part.type === "integer" || part.type === "fraction") + 1;
      const [a, b] = [from.slice(tail(from)), to.slice(tail(to))];
      if (text(a) === text(b)) {
        unit = a.map((part) => ({ ...part, source: "shared" }));
        from.length = tail(from);
        to.length = tail(to);
      }
    }
    const bare = (parts) => parts.every((part) => ["integer", "group", "decimal", "fraction"].includes(part.type));
    const dash = bare(from) && bare(to) ? "–" : " – ";
    return [
      ...from.map((part) => ({ ...part, source: "startRange" })),
      { type: "literal", value: dash, source: "shared" },
      ...to.map((part) => ({ ...part, source: "endRange" })),
      ...unit,
    ];
  }

  resolvedOptions() {
    return { ...this.#o };
  }

  static supportedLocalesOf(locales) {
    return supportedLocalesOf(locales);
  }

  #format(input) {
    const o = this.#o;
    let value = typeof input === "bigint" ? Number(input) : Number(input);
    if (typeof input === "string" && input.trim() === "") value = 0;
    const negative = value < 0 || Object.is(value, -0);
    let body;
    let isZero = false;
    if (Number.isNaN(value)) body = "NaN";
    else if (!Number.isFinite(value)) body = "∞";
    else {
      let dec = decimalOf(Math.abs(value));
      if (o.style === "percent") dec = { ...dec, exp: dec.exp + 2 };
      let suffix = "";
      if (o.notation === "compact") {
        const rounded = Math.abs(value);
        for (const [size, letter] of COMPACT) {
          if (rounded >= size) {
            dec = { ...dec, exp: dec.exp - Math.round(Math.log10(size)) };
            suffix = letter;
            break;
          }
        }
      }
      let text;
      if (o.minimumSignificantDigits !== undefined) {
        dec = /^0*$/.test(dec.digits) ? dec : roundAt(dec, o.maximumSignificantDigits);
        const { int, frac } = splitDecimal(dec);
        const significant = (int === "0" ? "" : int) + frac;
        const have = int === "0" ? frac.replace(/^0*/, "").length : significant.length;
        let fraction = frac.replace(/0+$/, "");
        const intDigits = int === "0" ? 0 : int.length;
        const need = o.minimumSignificantDigits - intDigits - (int === "0" ? fraction.replace(/^0*/, "").length - fraction.length : 0);
        const minFrac = Math.max(0, o.minimumSignificantDigits - (int === "0" ? 0 : int.length));
        void have;
        void need;
        if (int === "0") {
          const leading = fraction.length - fraction.replace(/^0*/, "").length;
          fraction = fraction.padEnd(leading + o.minimumSignificantDigits, "0");
        } else fraction = fraction.padEnd(minFrac, "0");
        text = { int, frac: fraction };
      } else {
        let maxFrac = o.maximumFractionDigits;
        let minFrac = o.minimumFractionDigits;
        if (o.notation === "compact" && o.maximumFractionDigits === 0 && this.#o.minimumFractionDigits === 0) {
          // Compact notation keeps two significant digits below 100 of its unit.
          const intLength = Math.max(dec.exp, 1);
          maxFrac = intLength >= 2 ? 0 : 1;
          minFrac = 0;
        }
        dec = roundAt(dec, dec.exp + maxFrac);
        // A compact value that rounds up to the next unit (999999 -> 1000K) moves up.
        if (suffix && o.notation === "compact" && dec.exp > 3 && suffix !== "T") {
          const index = COMPACT.findIndex(([, letter]) => letter === suffix);
          suffix = COMPACT[index - 1][1];
          dec = roundAt({ ...dec, exp: dec.exp - 3 }, dec.exp - 3 + (dec.exp - 3 >= 2 ? 0 : 1));
        }
        const { int, frac } = splitDecimal(dec);
        let fraction = frac.replace(/0+$/, "");
        fraction = fraction.padEnd(minFrac, "0");
        if (o.trailingZeroDisplay === "stripIfInteger" && /^0*$/.test(fraction)) fraction = "";
        text = { int, frac: fraction };
      }
      isZero = /^0*$/.test(text.int + text.frac);
      const int = group(text.int.padStart(o.minimumIntegerDigits, "0"), o.useGrouping);
      body = int + (text.frac ? `.${text.frac}` : "") + suffix;
    }
    if (o.style === "percent") body += "%";
    if (o.style === "unit") {
      const [shortOne, shortOther, longOne, longOther, narrow] = UNITS[o.unit];
      const one = body === "1";
      body += o.unitDisplay === "long" ? (one ? longOne : longOther) : o.unitDisplay === "narrow" ? narrow : one ? shortOne : shortOther;
    }
    if (o.style === "currency") {
      const code = o.currency;
      const display = o.currencyDisplay;
      if (display === "code") body = `${code}\u00a0${body}`;
      else if (display === "name") body = `${body} ${code}`;
      else {
        const symbol = display === "narrowSymbol" ? (CURRENCY_SYMBOLS[code] ?? code).replace(/^[A-Z]+(?=\W)/, "") : CURRENCY_SYMBOLS[code];
        body = symbol ? `${symbol}${body}` : `${code}\u00a0${body}`;
      }
    }
    const sign = o.signDisplay;
    if (Number.isNaN(value)) return sign === "always" ? `+${body}` : body;
    const shownNegative = negative && !(isZero && sign !== "auto" && sign !== "always" && sign !== "negative") && sign !== "never";
    if (negative && isZero && sign === "negative") return body;
    if (shownNegative) return `-${body}`;
    if (sign === "always" || (sign === "exceptZero" && !isZero)) return `+${body}`;
    return body;
  }
}

/**
 * ICU's en unit names: short (one, other), long (one, other), narrow; each as it follows the
 * number, space included where ICU puts one.
 */
const symbol = (short, long, narrow = short.trim()) => [` ${short}`, ` ${short}`, ` ${long}`, ` ${long}s`, narrow];
const UNITS = {
  byte: [" byte", " byte", " byte", " bytes", "B"],
  kilobyte: symbol("kB", "kilobyte"),
  megabyte: symbol("MB", "megabyte"),
  gigabyte: symbol("GB", "gigabyte"),
  terabyte: symbol("TB", "terabyte"),
  petabyte: symbol("PB", "petabyte"),
  bit: [" bit", " bit", " bit", " bits", "bit"],
  kilobit: symbol("kb", "kilobit"),
  megabit: symbol("Mb", "megabit"),
  gigabit: symbol("Gb", "gigabit"),
  nanosecond: symbol("ns", "nanosecond"),
  microsecond: symbol("μs", "microsecond"),
  millisecond: symbol("ms", "millisecond"),
  second: symbol("sec", "second", "s"),
  minute: symbol("min", "minute", "m"),
  hour: symbol("hr", "hour", "h"),
  day: [" day", " days", " day", " days", "d"],
  week: [" wk", " wks", " week", " weeks", "w"],
  month: [" mth", " mths", " month", " months", "m"],
  year: [" yr", " yrs", " year", " years", "y"],
  percent: ["%", "%", " percent", " percent", "%"],
  millimeter: symbol("mm", "millimeter"),
  centimeter: symbol("cm", "centimeter"),
  meter: symbol("m", "meter"),
  kilometer: symbol("km", "kilometer"),
  inch: [" in", " in", " inch", " inches", "″"],
  foot: [" ft", " ft", " foot", " feet", "′"],
  mile: symbol("mi", "mile"),
  gram: symbol("g", "gram"),
  kilogram: symbol("kg", "kilogram"),
  pound: [" lb", " lb", " pound", " pounds", "#"],
  milliliter: symbol("mL", "milliliter"),
  liter: symbol("L", "liter"),
  celsius: ["°C", "°C", " degree Celsius", " degrees Celsius", "°C"],
  fahrenheit: ["°F", "°F", " degree Fahrenheit", " degrees Fahrenheit", "°"],
  degree: [" deg", " deg", " degree", " degrees", "°"],
};

export class PluralRules {
  #type;
  constructor(locales, options = {}) {
    this.#type = options?.type === "ordinal" ? "ordinal" : "cardinal";
  }
  select(n) {
    const value = Math.abs(Number(n));
    if (this.#type === "ordinal") {
      const ten = value % 10;
      const hundred = value % 100;
      if (ten === 1 && hundred !== 11) return "one";
      if (ten === 2 && hundred !== 12) return "two";
      if (ten === 3 && hundred !== 13) return "few";
      return "other";
    }
    return value === 1 ? "one" : "other";
  }
  resolvedOptions() {
    return { locale: "en-US", type: this.#type };
  }
  static supportedLocalesOf(locales) {
    return supportedLocalesOf(locales);
  }
}

/** Unicode-ish collation for en-US: base letters first, then case (lower before upper). */
export class Collator {
  #numeric;
  #sensitivity;
  constructor(locales, options = {}) {
    this.#numeric = Boolean(options?.numeric);
    this.#sensitivity = options?.sensitivity ?? "variant";
  }
  get compare() {
    return (a, b) => collate(String(a), String(b), this.#numeric, this.#sensitivity);
  }
  resolvedOptions() {
    return { locale: "en-US", usage: "sort", sensitivity: this.#sensitivity, ignorePunctuation: false, collation: "default", numeric: this.#numeric, caseFirst: "false" };
  }
  static supportedLocalesOf(locales) {
    return supportedLocalesOf(locales);
  }
}

/**
 * ICU's root order for ASCII that is not a letter: white space, punctuation, symbols, currency,
 * then digits, all before letters (`_draft` < `10` < `alpha`).
 */
const NON_LETTER_ORDER = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789";
const NON_LETTER = /[ -@[-`{-~]/g;

/** `text`'s letters without accents or case. */
function baseOf(text) {
  return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/ß/g, "ss");
}

/** `base` with what is not a letter ranked below letters, in ICU's order. */
function ranked(base) {
  return base.replace(NON_LETTER, (character) => String.fromCharCode(1 + NON_LETTER_ORDER.indexOf(character)));
}

/** What ICU's root collation ignores at every level: controls, format characters, the BOM. */
const IGNORABLE = /[\u0000-\u0008\u000E-\u001F\u007F-\u009F\u00AD\u200B-\u200F\u2060-\u2064\uFEFF]/g;

function collate(rawA, rawB, numeric, sensitivity) {
  // Canonically equivalent texts (`e` + U+0301 and `é`) collate equal, as in ICU.
  const a = rawA.replace(IGNORABLE, "").normalize("NFC");
  const b = rawB.replace(IGNORABLE, "").normalize("NFC");
  const keyA = baseOf(a);
  const keyB = baseOf(b);
  if (numeric) {
    const partsA = keyA.split(/(\d+)/);
    const partsB = keyB.split(/(\d+)/);
    for (let i = 0; i < Math.min(partsA.length, partsB.length); i++) {
      if (partsA[i] === partsB[i]) continue;
      if (i % 2 === 1) return Math.sign(Number(partsA[i]) - Number(partsB[i]));
      return ranked(partsA[i]) < ranked(partsB[i]) ? -1 : 1;
    }
    if (partsA.length !== partsB.length) return partsA.length < partsB.length ? -1 : 1;
  } else if (keyA !== keyB) return ranked(keyA) < ranked(keyB) ? -1 : 1;
  if (sensitivity === "base") return 0;
  const accentA = a.normalize("NFD").toLowerCase();
  const accentB = b.normalize("NFD").toLowerCase();
  if (accentA !== accentB) return accentA < accentB ? -1 : 1;
  if (sensitivity === "accent") return 0;
  if (a === b) return 0;
  // Lower case sorts before upper case.
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i] === a[i].toLowerCase() ? -1 : 1;
  }
  return a.length < b.length ? -1 : 1;
}

function getCanonicalLocales(locales) {
  return locales === undefined ? [] : supportedLocalesOf(locales);
}

/** Installs Intl and the locale methods that use it on `global`. */
export function installIntl(global) {
  // As in the engines, the three oldest formatters can be called without `new`.
  const Intl = {
    NumberFormat: callableWithoutNew(NumberFormat),
    DateTimeFormat: callableWithoutNew(DateTimeFormat),
    PluralRules,
    Collator: callableWithoutNew(Collator),
    ListFormat: newOnly(ListFormat),
    RelativeTimeFormat: newOnly(RelativeTimeFormat),
    getCanonicalLocales,
  };
  Object.defineProperty(Intl, Symbol.toStringTag, { value: "Intl", configurable: true });
  Object.defineProperty(global, "Intl", { value: Intl, writable: true, configurable: true, enumerable: false });
  const define = (proto, name, fn) => Object.defineProperty(proto, name, { value: fn, writable: true, configurable: true, enumerable: false });
  define(Number.prototype, "toLocaleString", function toLocaleString(locales, options) {
    return new NumberFormat(locales, options).format(Number(this));
  });
  define(BigInt.prototype, "toLocaleString", function toLocaleString(locales, options) {
    return new NumberFormat(locales, options).format(this);
  });
  const DateProto = Object.getPrototypeOf(global.Date.prototype) === Object.prototype ? global.Date.prototype : Object.getPrototypeOf(global.Date.prototype);
  const validTime = (date) => {
    const time = DateProto.getTime.call(date);
    return Number.isNaN(time) ? null : time;
  };
  define(DateProto, "toLocaleString", function toLocaleString(locales, options) {
    const time = validTime(this);
    return time === null ? "Invalid Date" : new DateTimeFormat(locales, options, "all").format(time);
  });
  define(DateProto, "toLocaleDateString", function toLocaleDateString(locales, options) {
    const time = validTime(this);
    return time === null ? "Invalid Date" : new DateTimeFormat(locales, options, "date", "date").format(time);
  });
  define(DateProto, "toLocaleTimeString", function toLocaleTimeString(locales, options) {
    const time = validTime(this);
    return time === null ? "Invalid Date" : new DateTimeFormat(locales, options, "time", "time").format(time);
  });
  define(String.prototype, "localeCompare", function localeCompare(that, locales, options) {
    return collate(String(this), String(that), Boolean(options?.numeric), options?.sensitivity ?? "variant");
  });
  installLocaleCase(define);
  installUtcTime(DateProto, define);
}

/**
 * Turkish and Azeri case mapping (dotted and dotless i), the one locale-specific mapping mods
 * meet; every other locale maps as the default does, as ICU does.
 */
function installLocaleCase(define) {
  const { toUpperCase, toLowerCase } = String.prototype;
  const dotted = (locales) => {
    const first = Array.isArray(locales) ? locales[0] : locales;
    return typeof first === "string" && /^(tr|az)(?:[-_]|$)/i.test(first);
  };
  define(String.prototype, "toLocaleUpperCase", function toLocaleUpperCase(locales) {
    if (this === null || this === undefined) throw new TypeError("String.prototype.toLocaleUpperCase called on null or undefined");
    const text = String(this);
    return toUpperCase.call(dotted(locales) ? text.replaceAll("i", "\u0130") : text);
  });
  define(String.prototype, "toLocaleLowerCase", function toLocaleLowerCase(locales) {
    if (this === null || this === undefined) throw new TypeError("String.prototype.toLocaleLowerCase called on null or undefined");
    const text = String(this);
    return toLowerCase.call(dotted(locales) ? text.replaceAll("\u0130", "i").replaceAll("I", "\u0131") : text);
  });
}

/** `Class` as a function that constructs it with or without `new`; instances are the same. */
function callableWithoutNew(Class) {
  return asFunction(Class, (wrapped, newTarget, args) => Reflect.construct(Class, args, newTarget ?? wrapped));
}

/** `Class` refusing a call without `new` in Bun's words (an engine's class says it otherwise). */
function newOnly(Class) {
  return asFunction(Class, (_wrapped, newTarget, args) => {
    if (newTarget === undefined) throw new TypeError(`calling ${Class.name} constructor without new is invalid`);
    return Reflect.construct(Class, args, newTarget);
  });
}

function asFunction(Class, construct) {
  const wrapped = function (locales, options) {
    return construct(wrapped, new.target, [locales, options]);
  };
  Object.defineProperty(wrapped, "name", { value: Class.name });
  Object.defineProperty(wrapped, "length", { value: 0 });
  wrapped.prototype = Class.prototype;
  Object.defineProperty(Class.prototype, "constructor", { value: wrapped, writable: true, configurable: true });
  wrapped.supportedLocalesOf = Class.supportedLocalesOf;
  return wrapped;
}

/**
 * The engine would use the host's time zone for local-time methods; mods
 * see UTC, as Bun does with TZ=UTC, whatever the machine is set to.
 */
function installUtcTime(DateProto, define) {
  for (const name of ["FullYear", "Month", "Date", "Day", "Hours", "Minutes", "Seconds", "Milliseconds"]) {
    const get = DateProto[`getUTC${name}`];
    define(DateProto, `get${name}`, function () {
      return get.call(this);
    });
    if (name !== "Day") {
      const set = DateProto[`setUTC${name}`];
      define(DateProto, `set${name}`, function (...args) {
        return set.apply(this, args);
      });
    }
  }
  define(DateProto, "getTimezoneOffset", function getTimezoneOffset() {
    return Number.isNaN(DateProto.getTime.call(this)) ? NaN : 0;
  });
  const toUTCString = DateProto.toUTCString;
  const dateText = (date) => {
    const text = toUTCString.call(date); // "Fri, 04 Jul 2025 15:07:09 GMT"
    const [, weekday, day, month, year] = /^(\w+), (\d+) (\w+) (-?\d+)/.exec(text);
    return `${weekday} ${month} ${day} ${year}`;
  };
  const timeText = (date) => `${toUTCString.call(date).split(" ")[4]} GMT+0000 (Coordinated Universal Time)`;
  define(DateProto, "toString", function toString() {
    return Number.isNaN(DateProto.getTime.call(this)) ? "Invalid Date" : `${dateText(this)} ${timeText(this)}`;
  });
  define(DateProto, "toDateString", function toDateString() {
    return Number.isNaN(DateProto.getTime.call(this)) ? "Invalid Date" : dateText(this);
  });
  define(DateProto, "toTimeString", function toTimeString() {
    return Number.isNaN(DateProto.getTime.call(this)) ? "Invalid Date" : timeText(this);
  });
  // JavaScriptCore's message for an invalid date, which mods print (Bun's, not the engine's).
  const toISOString = DateProto.toISOString;
  define(DateProto, "toISOString", function toISOString_() {
    if (Number.isNaN(DateProto.getTime.call(this))) throw new RangeError("Invalid Date");
    return toISOString.call(this);
  });
  Object.defineProperty(DateProto.toISOString, "name", { value: "toISOString" });
}
