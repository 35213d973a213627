// Intl.DateTimeFormat as Bun (ICU) formats it: every format is built as parts
// (`formatToParts`), and `format` joins them. en-US throughout, save the numeric dates and times
// of the locales in LOCALES, which mods ask for by name ("sv-SE" for an ISO date). The machine's
// zone is UTC; a `timeZone` is any the compiled tz database holds.

import { supportedLocalesOf } from "./intl.js";

export const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
export const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const UTC_NAMES = new Set(["utc", "etc/utc", "gmt", "etc/gmt", "etc/universal", "universal", "zulu", "etc/zulu"]);

/**
 * Numeric dates and times per locale, as ICU writes them: the order of year, month and day,
 * their separator and whether numeric ones are padded; the clock (12-hour with its day
 * periods, or 24-hour with a padded hour or not); what joins a date and a time.
 */
const LOCALES = {
  "en-US": { order: "mdy", sep: "/", pad: false, periods: ["AM", "PM"], join: ", " },
  "en-GB": { order: "dmy", sep: "/", pad: true, hour24: "2-digit", join: ", " },
  "en-CA": { order: "ymd", sep: "-", pad: true, periods: ["a.m.", "p.m."], join: ", " },
  "en-AU": { order: "dmy", sep: "/", pad: true, periods: ["am", "pm"], join: ", " },
  "en-IN": { order: "dmy", sep: "/", pad: false, periods: ["am", "pm"], join: ", " },
  "sv-SE": { order: "ymd", sep: "-", pad: true, hour24: "2-digit", join: " " },
  "de-DE": { order: "dmy", sep: ".", pad: false, hour24: "2-digit", join: ", " },
  "fr-FR": { order: "dmy", sep: "/", pad: true, hour24: "2-digit", join: " " },
  "es-ES": { order: "dmy", sep: "/", pad: false, hour24: "numeric", join: ", " },
  "it-IT": { order: "dmy", sep: "/", pad: true, hour24: "2-digit", join: ", " },
  "nl-NL": { order: "dmy", sep: "-", pad: false, hour24: "2-digit", join: ", " },
  "pt-BR": { order: "dmy", sep: "/", pad: true, hour24: "2-digit", join: ", " },
  "ru-RU": { order: "dmy", sep: ".", pad: true, hour24: "2-digit", join: ", " },
  "ja-JP": { order: "ymd", sep: "/", pad: false, hour24: "numeric", join: " " },
  "zh-CN": { order: "ymd", sep: "/", pad: false, hour24: "2-digit", join: " " },
};

/** A language alone means its usual region, as ICU's likely subtags have it. */
const REGIONS = { en: "en-US", sv: "sv-SE", de: "de-DE", fr: "fr-FR", es: "es-ES", it: "it-IT", nl: "nl-NL", pt: "pt-BR", ru: "ru-RU", ja: "ja-JP", zh: "zh-CN" };

/** The first of `locales` with numbers of its own in LOCALES, or en-US. */
function localeOf(locales) {
  const list = locales === undefined ? [] : Array.isArray(locales) ? locales : [locales];
  for (const locale of list) {
    const [language, region] = String(locale).replace(/_/g, "-").split("-");
    const name = region === undefined ? REGIONS[language.toLowerCase()] : `${language.toLowerCase()}-${region.toUpperCase()}`;
    if (name !== undefined && Object.hasOwn(LOCALES, name)) return name;
  }
  return "en-US";
}

/**
 * The tz database compiled into modlearn (the host sets `at` to the engine's op): a zone's
 * name as the database spells it, its offset east of UTC in seconds and its abbreviation at
 * an instant, or null for a name it does not hold.
 */
export const zones = { at: (_name, _epochMs) => null };

function checkTimeZone(timeZone) {
  if (timeZone === undefined) return "UTC";
  const name = String(timeZone);
  if (UTC_NAMES.has(name.toLowerCase())) return "UTC";
  const zone = zones.at(name, 0);
  if (zone === null || zone === undefined) throw new RangeError(`invalid time zone: ${name}`);
  return zone.name;
}

/** Abbreviations ICU's en-US uses as short names; any other zone is named by its offset. */
const US_ABBREVIATIONS = new Set(["EST", "EDT", "CST", "CDT", "MST", "MDT", "PST", "PDT", "AKST", "AKDT", "HST", "HDT"]);

/** Long names ICU's en-US gives the zones mods name most, by abbreviation. */
const LONG_NAMES = {
  EST: "Eastern Standard Time", EDT: "Eastern Daylight Time", CST: "Central Standard Time", CDT: "Central Daylight Time",
  MST: "Mountain Standard Time", MDT: "Mountain Daylight Time", PST: "Pacific Standard Time", PDT: "Pacific Daylight Time",
  AKST: "Alaska Standard Time", AKDT: "Alaska Daylight Time", HST: "Hawaii-Aleutian Standard Time", HDT: "Hawaii-Aleutian Daylight Time",
  GMT: "Greenwich Mean Time", BST: "British Summer Time", CET: "Central European Standard Time", CEST: "Central European Summer Time",
  EET: "Eastern European Standard Time", EEST: "Eastern European Summer Time", WET: "Western European Standard Time",
  WEST: "Western European Summer Time", JST: "Japan Standard Time", KST: "Korean Standard Time", IST: "India Standard Time",
  AEST: "Australian Eastern Standard Time", AEDT: "Australian Eastern Daylight Time", UTC: "Coordinated Universal Time",
};

/** `GMT+9`, `GMT+5:30`, `GMT-3` (short) or `GMT+09:00` (long); at no offset `GMT+0` and `GMT+00:00`. */
function offsetName(seconds, long) {
  const sign = seconds < 0 ? "-" : "+";
  const minutes = Math.round(Math.abs(seconds) / 60);
  const [hours, rest] = [Math.floor(minutes / 60), minutes % 60];
  if (long) return `GMT${sign}${two(hours)}:${two(rest)}`;
  return `GMT${sign}${hours}${rest === 0 ? "" : `:${two(rest)}`}`;
}

/** The zone's name in `style`, as ICU's en-US writes it. */
function zoneName(style, zone) {
  const { abbreviation, offsetSeconds } = zone ?? { abbreviation: "UTC", offsetSeconds: 0 };
  if (style === "shortOffset" || style === "shortGeneric") return offsetName(offsetSeconds, false);
  if (style === "longOffset" || style === "longGeneric") return offsetName(offsetSeconds, true);
  if (style === "long") return LONG_NAMES[abbreviation] ?? offsetName(offsetSeconds, true);
  if (US_ABBREVIATIONS.has(abbreviation) || abbreviation === "UTC") return abbreviation;
  // ICU's short name of a zone at no offset is plain GMT (London in winter).
  return offsetSeconds === 0 ? "GMT" : offsetName(offsetSeconds, false);
}

const DATE_FIELDS = ["weekday", "era", "year", "month", "day", "dayPeriod", "hour", "minute", "second", "fractionalSecondDigits", "timeZoneName"];
const DAY_FIELDS = ["weekday", "year", "month", "day"];
const CLOCK_FIELDS = ["dayPeriod", "hour", "minute", "second", "fractionalSecondDigits"];
const REQUIRED = { any: [...DAY_FIELDS, ...CLOCK_FIELDS], date: DAY_FIELDS, time: CLOCK_FIELDS };

const two = (n) => String(n).padStart(2, "0");

export class DateTimeFormat {
  #o;
  /**
   * `required` is which fields keep the defaults away (ECMA-402's ToDateTimeOptions): any of
   * the date's or time's for the constructor and toLocaleString, the date's alone for
   * toLocaleDateString, the time's for toLocaleTimeString.
   */
  constructor(locales, options = {}, defaults = "date", required = "any") {
    options = options ?? {};
    const locale = localeOf(locales);
    const o = { locale, calendar: "gregory", numberingSystem: "latn", timeZone: checkTimeZone(options.timeZone) };
    const hourCycle = options.hourCycle !== undefined ? String(options.hourCycle) : undefined;
    const localTwelve = LOCALES[locale].periods !== undefined;
    const hour12 = options.hour12 !== undefined ? Boolean(options.hour12) : hourCycle ? hourCycle === "h12" || hourCycle === "h11" : localTwelve;
    if (options.dateStyle !== undefined || options.timeStyle !== undefined) {
      for (const field of DATE_FIELDS) {
        if (options[field] !== undefined) throw new TypeError(`Can't set option ${field} when ${options.dateStyle !== undefined ? "dateStyle" : "timeStyle"} is used`);
      }
      if (options.timeStyle !== undefined) (o.hourCycle = hour12 ? "h12" : "h23"), (o.hour12 = hour12);
      if (options.dateStyle !== undefined) o.dateStyle = String(options.dateStyle);
      if (options.timeStyle !== undefined) o.timeStyle = String(options.timeStyle);
    } else {
      // As ECMA-402: a time zone name alone still gets the default fields.
      const any = REQUIRED[required].some((field) => options[field] !== undefined);
      const fields = {};
      for (const field of DATE_FIELDS) if (options[field] !== undefined) fields[field] = String(options[field]);
      if (!any) {
        if (defaults === "date" || defaults === "all") Object.assign(fields, { year: "numeric", month: "numeric", day: "numeric" });
        if (defaults === "time" || defaults === "all") Object.assign(fields, { hour: "numeric", minute: "2-digit", second: "2-digit" });
        // The locale's own clock, not the numeric hour asked for by name.
        if (defaults === "time" || defaults === "all") o.localClock = true;
      }
      if (fields.hour !== undefined) (o.hourCycle = hour12 ? "h12" : "h23"), (o.hour12 = hour12);
      // Bun reports minutes and seconds as 2-digit whenever an hour is shown.
      if (fields.hour !== undefined && fields.minute !== undefined) fields.minute = "2-digit";
      if (fields.minute !== undefined && fields.second !== undefined) fields.second = "2-digit";
      for (const field of DATE_FIELDS) if (fields[field] !== undefined) o[field] = fields[field];
    }
    this.#o = o;
  }

  get format() {
    return (date) => text(this.#parts(date));
  }

  formatToParts(date) {
    return this.#parts(date).map(([type, value]) => ({ type, value }));
  }

  /** Two instants that format alike are one (Bun's "1/1/1970" for a range within a day). */
  formatRange(start, end) {
    const [from, to] = [this.format(start), this.format(end)];
    return from === to ? from : `${from} – ${to}`;
  }

  resolvedOptions() {
    const { localClock: _, ...options } = this.#o;
    return options;
  }

  static supportedLocalesOf(locales) {
    return supportedLocalesOf(locales);
  }

  #parts(input) {
    const time = input === undefined ? Date.now() : typeof input === "number" ? input : Number(input);
    if (!Number.isFinite(time)) throw new RangeError("Invalid time value");
    const o = this.#o;
    // Another zone's wall clock is UTC's, moved by the zone's offset at that instant.
    const zone = o.timeZone === "UTC" ? null : zones.at(o.timeZone, time);
    const d = new globalThis.Date(time + (zone === null ? 0 : zone.offsetSeconds * 1000));
    const p = {
      year: d.getUTCFullYear(),
      month: d.getUTCMonth(),
      day: d.getUTCDate(),
      weekday: d.getUTCDay(),
      hour: d.getUTCHours(),
      minute: d.getUTCMinutes(),
      second: d.getUTCSeconds(),
      ms: d.getUTCMilliseconds(),
    };
    const locale = LOCALES[o.locale];
    if (o.dateStyle !== undefined || o.timeStyle !== undefined) {
      const date = o.dateStyle === undefined ? null : styleDate(o.dateStyle, p);
      const clock = o.timeStyle === undefined ? null : styleTime(o.timeStyle, p, o.hour12, zone);
      if (date && clock) return [...date, ["literal", o.dateStyle === "full" || o.dateStyle === "long" ? " at " : ", "], ...clock];
      return date ?? clock;
    }
    let date = fieldDate(o, p, locale);
    const clock = fieldTime(o, p, locale);
    // The era follows the date it belongs to ("1/1/2025 AD, 12:00:00 AM").
    if (o.era !== undefined) date = [...(date ?? []), ["literal", " "], ["era", eraName(o.era, p.year)]];
    const parts = date && clock ? [...date, ["literal", locale.join], ...clock] : date ?? clock ?? [];
    if (o.timeZoneName !== undefined) {
      // After a time a space; after a date alone ICU puts a comma too.
      parts.push(["literal", clock ? " " : ", "], ["timeZoneName", zoneName(o.timeZoneName, zone)]);
    }
    return parts;
  }
}

const text = (parts) => parts.map(([, value]) => value).join("");

const eraName = (style, year) => (style === "long" ? (year > 0 ? "Anno Domini" : "Before Christ") : style === "narrow" ? (year > 0 ? "A" : "B") : year > 0 ? "AD" : "BC");

function styleDate(style, p) {
  const year = ["year", String(p.year)];
  switch (style) {
    case "full":
      return [["weekday", DAYS[p.weekday]], ["literal", ", "], ["month", MONTHS[p.month]], ["literal", " "], ["day", String(p.day)], ["literal", ", "], year];
    case "long":
      return [["month", MONTHS[p.month]], ["literal", " "], ["day", String(p.day)], ["literal", ", "], year];
    case "medium":
      return [["month", MONTHS[p.month].slice(0, 3)], ["literal", " "], ["day", String(p.day)], ["literal", ", "], year];
    case "short":
      return [["month", String(p.month + 1)], ["literal", "/"], ["day", String(p.day)], ["literal", "/"], ["year", two(p.year % 100)]];
    default:
      throw new RangeError(`Value ${style} out of range for Intl.DateTimeFormat options property dateStyle`);
  }
}

/** hour:minute[:second] and the day period, as en-US writes it. */
function clockParts(p, hour12, withSeconds, hourStyle = "numeric", periods = ["AM", "PM"]) {
  const h = hour12 ? p.hour % 12 || 12 : p.hour;
  const parts = [["hour", hourStyle === "2-digit" ? two(h) : String(h)], ["literal", ":"], ["minute", two(p.minute)]];
  if (withSeconds) parts.push(["literal", ":"], ["second", two(p.second)]);
  if (hour12) parts.push(["literal", " "], ["dayPeriod", periods[p.hour < 12 ? 0 : 1]]);
  return parts;
}

function styleTime(style, p, hour12, zone) {
  const twentyFour = hour12 ? "numeric" : "2-digit";
  switch (style) {
    case "full":
      return [...clockParts(p, hour12, true, twentyFour), ["literal", " "], ["timeZoneName", zoneName("long", zone)]];
    case "long":
      return [...clockParts(p, hour12, true, twentyFour), ["literal", " "], ["timeZoneName", zoneName("short", zone)]];
    case "medium":
      return clockParts(p, hour12, true, twentyFour);
    case "short":
      return clockParts(p, hour12, false, twentyFour);
    default:
      throw new RangeError(`Value ${style} out of range for Intl.DateTimeFormat options property timeStyle`);
  }
}

function monthText(style, month) {
  if (style === "long") return MONTHS[month];
  if (style === "short") return MONTHS[month].slice(0, 3);
  if (style === "narrow") return MONTHS[month][0];
  return null;
}

function weekdayText(style, day) {
  if (style === "long") return DAYS[day];
  if (style === "short") return DAYS[day].slice(0, 3);
  return DAYS[day][0];
}

/** A numeric field as written: 2-digit always padded, numeric as the locale writes a full date. */
const numeric = (style, value, pad) => (style === "2-digit" || pad ? two(value) : String(value));

function fieldDate(o, p, locale) {
  const parts = [];
  const weekday = o.weekday === undefined ? null : ["weekday", weekdayText(o.weekday, p.weekday)];
  const year = o.year === undefined ? null : ["year", o.year === "2-digit" ? two(p.year % 100) : String(p.year)];
  const textMonth = o.month === undefined ? null : monthText(o.month, p.month);
  if (textMonth !== null) {
    // Text month, en-US: "July 4, 2025", "July 2025", "July 4", "July".
    const day = o.day === undefined ? null : ["day", o.day === "2-digit" ? two(p.day) : String(p.day)];
    parts.push(["month", textMonth]);
    if (day) parts.push(["literal", " "], day);
    if (year) parts.push(["literal", day ? ", " : " "], year);
  } else if (o.month !== undefined) {
    // A full numeric date in the locale's order; a partial one as en-US writes it.
    const full = o.day !== undefined && year !== null;
    const style = full ? locale : LOCALES["en-US"];
    const fields = {
      m: ["month", numeric(o.month, p.month + 1, full && style.pad)],
      d: o.day === undefined ? null : ["day", numeric(o.day, p.day, full && style.pad)],
      y: year,
    };
    for (const key of style.order) {
      const field = fields[key];
      if (field === null) continue;
      if (parts.length > 0) parts.push(["literal", style.sep]);
      parts.push(field);
    }
  } else {
    const day = o.day === undefined ? null : ["day", o.day === "2-digit" ? two(p.day) : String(p.day)];
    if (day) parts.push(day);
    if (year) parts.push(...(day ? [["literal", " "]] : []), year);
  }
  if (weekday) return parts.length > 0 ? [weekday, ["literal", ", "], ...parts] : [weekday];
  return parts.length > 0 ? parts : null;
}

function fieldTime(o, p, locale) {
  if (o.hour === undefined && o.minute === undefined && o.second === undefined) return null;
  const hour12 = o.hour12 ?? true;
  const periods = locale.periods ?? ["AM", "PM"];
  if (o.hour !== undefined && o.minute === undefined) {
    const h = hour12 ? p.hour % 12 || 12 : p.hour;
    const hour = ["hour", o.hour === "2-digit" || (!hour12 && o.locale === "en-US") ? two(h) : String(h)];
    return hour12 ? [hour, ["literal", " "], ["dayPeriod", periods[p.hour < 12 ? 0 : 1]]] : [hour];
  }
  if (o.hour !== undefined) {
    // The locale's default clock pads a 24-hour hour as it likes; one asked for by name is as asked.
    // A numeric 24-hour hour is padded in en-US ("09:05") and not elsewhere ("9:05").
    const explicit = !hour12 && o.hour === "numeric" && o.locale === "en-US" ? "2-digit" : o.hour;
    const hourStyle = o.localClock ? (hour12 ? "numeric" : locale.hour24 ?? "2-digit") : explicit;
    const parts = clockParts(p, hour12, o.second !== undefined, hourStyle, periods);
    if (o.fractionalSecondDigits !== undefined && o.second !== undefined) parts.splice(parts.findIndex(([type]) => type === "second") + 1, 0, ...fraction(o, p));
    return parts;
  }
  if (o.second !== undefined) {
    const second = ["second", o.minute === undefined && o.second === "numeric" ? String(p.second) : two(p.second)];
    const parts = o.minute === undefined ? [second] : [["minute", o.minute === "2-digit" ? two(p.minute) : String(p.minute)], ["literal", ":"], second];
    if (o.fractionalSecondDigits !== undefined) parts.push(...fraction(o, p));
    return parts;
  }
  return [["minute", String(p.minute)]];
}

function fraction(o, p) {
  const digits = Math.min(3, Math.max(1, Number(o.fractionalSecondDigits) || 1));
  return [["literal", "."], ["fractionalSecond", String(p.ms).padStart(3, "0").slice(0, digits)]];
}
