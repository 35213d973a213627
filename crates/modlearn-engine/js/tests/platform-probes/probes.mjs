// Platform probes: the same file runs in Bun (run-bun.mjs) and as a mod in
// modlearn's engine (tests/platform.rs), and both must print expected.json,
// which is Bun's own output (TZ=UTC). Only deterministic values: no random
// ids, no stacks, no wall clock.

import assert from "node:assert";
import { execSync } from "node:child_process";
import crypto from "node:crypto";
import { createRequire, isBuiltin } from "node:module";
import { performance as hooksPerformance } from "node:perf_hooks";
import tty from "node:tty";
import path from "node:path";
import util from "node:util";
import { Buffer } from "node:buffer";
import querystring from "node:querystring";
import { StringDecoder } from "node:string_decoder";
import { fileURLToPath, pathToFileURL } from "node:url";
import events from "node:events";
import fs from "node:fs";
import os from "node:os";
import { Readable, Transform, Writable } from "node:stream";
import { pipeline as pipelineAsync } from "node:stream/promises";

class Point {
  constructor(x, y) {
    this.x = x;
    this.y = y;
  }
}
class Empty {}

export function probe() {
  const out = {};
  const put = (name, fn) => {
    try {
      out[name] = fn();
    } catch (error) {
      out[name] = `threw ${error && error.name}: ${error && error.message}`;
    }
  };
  const text = "The quick brown fox jumps over the lazy dog é😀";
  for (const algorithm of ["md5", "sha1", "sha256", "sha512"]) {
    put(`hash.${algorithm}.hex`, () => crypto.createHash(algorithm).update(text).digest("hex"));
    put(`hash.${algorithm}.base64`, () => crypto.createHash(algorithm).update("a").update(Buffer.from([0, 255])).digest("base64"));
    put(`hmac.${algorithm}`, () => crypto.createHmac(algorithm, "secret key").update(text).digest("hex"));
  }
  put("hash.empty", () => crypto.createHash("sha256").digest("hex"));
  put("hmac.longkey", () => crypto.createHmac("sha256", "k".repeat(200)).update("x").digest("base64"));
  put("timingSafeEqual", () => [crypto.timingSafeEqual(Buffer.from("abc"), Buffer.from("abc")), crypto.timingSafeEqual(Buffer.from("abc"), Buffer.from("abd"))]);

  const nested = { a: 1, b: "two", c: [1, 2, [3, [4, [5]]]], d: { e: { f: { g: { h: 1 } } } }, n: null, u: undefined };
  put("inspect.nested", () => util.inspect(nested));
  put("inspect.depth0", () => util.inspect(nested, { depth: 0 }));
  put("inspect.depthInf", () => util.inspect(nested, { depth: Infinity }));
  put("inspect.map", () => util.inspect(new Map([["a", 1], ["b", { c: [1, 2] }]])));
  put("inspect.set", () => util.inspect(new Set([1, "two", [3]])));
  put("inspect.class", () => util.inspect(new Point(1, 2)));
  put("inspect.emptyClass", () => util.inspect(new Empty()));
  put("inspect.nullProto", () => util.inspect(Object.assign(Object.create(null), { a: 1 })));
  put("inspect.array", () => util.inspect(Array.from({ length: 120 }, (_, i) => i)));
  put("inspect.longString", () => util.inspect({ s: "x".repeat(100), t: "it's \"quoted\"" }));
  put("inspect.wide", () => util.inspect({ alpha: "aaaaaaaaaa", beta: "bbbbbbbbbb", gamma: "cccccccccc", delta: "dddddddddd", epsilon: 1 }));
  put("inspect.primitives", () => [util.inspect("s"), util.inspect(1n), util.inspect(-0), util.inspect(Symbol("q")), util.inspect(null), util.inspect(undefined)]);
  put("inspect.functions", () => [util.inspect(function named() {}), util.inspect(() => {}), util.inspect(class K {})]);
  put("inspect.date", () => util.inspect(new Date(Date.UTC(2025, 6, 4, 15, 7, 9, 45))));
  put("inspect.regexp", () => util.inspect(/a+b/gi));
  put("inspect.circular", () => {
    const o = { name: "loop" };
    o.self = o;
    return util.inspect(o);
  });
  put("inspect.sorted", () => util.inspect({ b: 1, a: 2 }, { sorted: true }));
  put("inspect.compactFalse", () => util.inspect({ a: [1, 2], b: { c: 1 } }, { compact: false }));
  put("format", () => [util.format("%s is %d years and %i, %f", "Bob", 42.5, 42.5, 1.5), util.format("%j %o", { a: 1 }, [1]), util.format("%%s %s", "x", "extra", 3), util.format(1, { a: 1 }, "s")]);
  put("isDeepStrictEqual", () => [util.isDeepStrictEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }), util.isDeepStrictEqual([1], ["1"]), util.isDeepStrictEqual(new Map([[1, 2]]), new Map([[1, 2]])), util.isDeepStrictEqual(0, -0), util.isDeepStrictEqual(NaN, NaN)]);

  put("path.relative", () => [path.relative("/a/b/c", "/a/d"), path.relative("/a", "/a"), path.relative("/a/b", "/a/b/c/d"), path.relative("/x/y", "/")]);
  put("path.normalize", () => [path.normalize("/a//b/../c/./d/"), path.normalize("a/../../b"), path.normalize(""), path.normalize("./")]);
  put("path.resolve", () => [path.resolve("/a/b", "../c"), path.resolve("/a", "/b", "c"), path.resolve("/r", "x/", "..", "y")]);
  put("path.join", () => [path.join("a", "", "b/", "../c"), path.join("/a", ".."), path.join()]);
  put("path.parse", () => path.parse("/home/u/file.tar.gz"));
  put("path.misc", () => [path.basename("/a/b.txt", ".txt"), path.extname("x.tar.gz"), path.extname(".bashrc"), path.dirname("/a/b/"), path.isAbsolute("a"), path.sep, path.delimiter, path.format({ dir: "/d", name: "n", ext: ".e" })]);

  const url = new URL("HTTPS://user:pa ss@EXAMPLE.com:443/a/../b/c d?q=1&r=ä#frag ment");
  put("url.href", () => url.href);
  put("url.parts", () => [url.protocol, url.username, url.password, url.host, url.hostname, url.port, url.pathname, url.search, url.hash, url.origin]);
  put("url.relative", () => [new URL("../x/./y?z", "http://h.test/a/b/c").href, new URL("//other.test/p", "https://h.test").href, new URL("?only", "http://h.test/p/q").href]);
  put("url.ports", () => [new URL("http://h.test:80/").href, new URL("http://h.test:8080").href, new URL("ws://h.test:80").port]);
  put("url.ipv4", () => new URL("http://0x7f.1/").href);
  put("url.file", () => [new URL("file:///tmp/a b.txt").href, fileURLToPath("file:///tmp/a%20b.txt"), pathToFileURL("/tmp/x y#z").href]);
  put("url.search", () => {
    const params = new URLSearchParams("a=1&b=2&a=3&c=%20x+y");
    params.append("d", "é &=");
    params.sort();
    return [params.toString(), params.getAll("a"), params.get("c"), [...params.keys()]];
  });
  put("url.setters", () => {
    const u = new URL("http://h.test/p");
    u.searchParams.set("k", "v w");
    u.hash = "h";
    u.pathname = "/new path";
    return u.href;
  });
  put("url.invalid", () => {
    try {
      new URL("not a url");
      return "parsed";
    } catch (error) {
      return error.name;
    }
  });
  put("url.canParse", () => [URL.canParse("http://x"), URL.canParse("nope")]);

  const sample = "héllo wörld €😀";
  for (const encoding of ["hex", "base64", "utf8", "latin1", "base64url", "ascii", "utf16le"]) {
    put(`buffer.${encoding}`, () => Buffer.from(sample).toString(encoding));
    put(`buffer.from.${encoding}`, () => [...Buffer.from(Buffer.from(sample).toString(encoding), encoding)]);
  }
  put("buffer.latin1.roundtrip", () => [...Buffer.from("ÿþ\u00e9", "latin1")]);
  put("buffer.base64.loose", () => [...Buffer.from("aGVsbG8gd29ybGQ", "base64"), ...Buffer.from("aGVs bG8=\n", "base64")]);
  put("buffer.ops", () => {
    const b = Buffer.alloc(8);
    b.writeUInt32BE(0xdeadbeef, 0);
    b.writeInt16LE(-2, 4);
    return [b.toString("hex"), b.readUInt32BE(0), b.readInt16LE(4), Buffer.concat([Buffer.from("a"), Buffer.from("bc")]).toString(), Buffer.byteLength("€"), Buffer.compare(Buffer.from("a"), Buffer.from("b")), b.subarray(0, 2).toString("hex"), Buffer.from("abc").equals(Buffer.from("abc")), Buffer.from("hello").indexOf("l"), Buffer.isBuffer(b), JSON.stringify(Buffer.from("hi"))];
  });
  put("textencoder", () => [...new TextEncoder().encode("a€😀\ud800")]);
  put("textdecoder", () => new TextDecoder().decode(new Uint8Array([0x61, 0xc3, 0x28, 0xe2, 0x82, 0xf0, 0x9f, 0x98, 0x80, 0xed, 0xa0, 0x80])));
  put("atob-btoa", () => [btoa("binary\u00ff"), atob("YmluYXJ5/w==")]);
  put("string_decoder", () => {
    const decoder = new StringDecoder("utf8");
    const euro = Buffer.from("€");
    return [decoder.write(euro.subarray(0, 1)), decoder.write(euro.subarray(1)), decoder.end()];
  });
  put("querystring", () => [querystring.stringify({ a: [1, 2], b: "x y", c: "é" }), querystring.parse("a=1&a=2&b=x%20y&c")]);

  const date = new Date(Date.UTC(2025, 6, 4, 15, 7, 9, 45));
  const midnight = new Date(Date.UTC(2026, 0, 1));
  put("intl.numbers", () => [1234.5, 0, -0, 1e21, 0.1 + 0.2, 1.005, 123456789.987654, -1234.5, NaN, Infinity, 999.9995, 0.000123].map((n) => n.toLocaleString()));
  put("intl.number.en-US", () => [(1234.5).toLocaleString("en-US"), (1234.5).toLocaleString("en-US", { maximumFractionDigits: 0 }), (1.005).toLocaleString("en-US", { maximumFractionDigits: 2 }), (5).toLocaleString("en-US", { minimumIntegerDigits: 2 }), (12.5).toLocaleString("en-US", { minimumFractionDigits: 2 })]);
  put("intl.currency", () => [["USD", 1234.5], ["EUR", -3.5], ["JPY", 1234.5], ["GBP", 0], ["CHF", 12]].map(([currency, n]) => new Intl.NumberFormat("en-US", { style: "currency", currency }).format(n)));
  put("intl.percent", () => [0.256, 1, -0.5, 0.0049].map((n) => new Intl.NumberFormat("en-US", { style: "percent" }).format(n)));
  put("intl.compact", () => [0, 999, 1234, 12345, 123456, 1500000, 999999, 2.5e9, -4321].map((n) => new Intl.NumberFormat("en-US", { notation: "compact" }).format(n)));
  put("intl.significant", () => [new Intl.NumberFormat("en-US", { maximumSignificantDigits: 3 }).format(123456), new Intl.NumberFormat("en-US", { maximumSignificantDigits: 2 }).format(0.012345)]);
  put("intl.grouping", () => [new Intl.NumberFormat("en-US", { useGrouping: false }).format(1234567.891), new Intl.NumberFormat("en-US", { signDisplay: "always" }).format(5), new Intl.NumberFormat("en-US", { signDisplay: "exceptZero" }).format(0)]);
  put("intl.dates", () => [midnight.toLocaleString(), midnight.toLocaleString("en-US"), midnight.toLocaleDateString(), midnight.toLocaleTimeString(), date.toLocaleString("en-US", { timeZone: "UTC" })]);
  put("intl.dateStyles", () => ["full", "long", "medium", "short"].flatMap((style) => [new Intl.DateTimeFormat("en-US", { dateStyle: style, timeZone: "UTC" }).format(date), new Intl.DateTimeFormat("en-US", { timeStyle: style, timeZone: "UTC" }).format(date), new Intl.DateTimeFormat("en-US", { dateStyle: style, timeStyle: "short", timeZone: "UTC" }).format(date)]));
  put("intl.dateFields", () => [
    date.toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric" }),
    date.toLocaleDateString("en-US", { weekday: "long", month: "long", day: "numeric" }),
    date.toLocaleDateString("en-US", { weekday: "short", year: "numeric", month: "2-digit", day: "2-digit" }),
    date.toLocaleTimeString("en-US", { hour: "2-digit", minute: "2-digit" }),
    date.toLocaleTimeString("en-US", { hour: "numeric" }),
    date.toLocaleTimeString("en-US", { hour12: false }),
    midnight.toLocaleTimeString("en-US", { hour12: false }),
    midnight.toLocaleTimeString("en-US", { hourCycle: "h23" }),
    date.toLocaleString("en-US", { timeZoneName: "short" }),
    new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric" }).format(date),
    new Intl.DateTimeFormat("en-US", { year: "2-digit", month: "numeric" }).format(date),
  ]);
  put("intl.resolved", () => [new Intl.DateTimeFormat().resolvedOptions(), new Intl.NumberFormat().resolvedOptions()]);
  put("date.strings", () => [date.toString(), date.toDateString(), date.toTimeString(), date.toISOString(), date.toUTCString(), date.getTimezoneOffset(), new Date(2026, 0, 2, 3, 4).toISOString()]);
  put("intl.plural", () => [new Intl.PluralRules("en-US").select(1), new Intl.PluralRules("en-US").select(2), new Intl.PluralRules("en-US", { type: "ordinal" }).select(22)]);
  put("localeCompare", () => [["b", "a", "C", "á", "A"].sort((x, y) => x.localeCompare(y)), ["item10", "item2"].sort(new Intl.Collator("en", { numeric: true }).compare)]);
  put("localeCompare.punctuation", () => [["alpha", "10", "_draft", "-x", "Zed", "a b", "ab", "!", "$", "~"].sort((x, y) => x.localeCompare(y)), "straße".localeCompare("strasse", "de", { sensitivity: "base" })]);
  put("intl.withoutNew", () => [typeof Intl.DateTimeFormat().resolvedOptions().timeZone, Intl.NumberFormat("en-US").format(1234.5), Intl.Collator().compare("a", "b"), Intl.DateTimeFormat() instanceof Intl.DateTimeFormat]);
  for (const style of ["long", "short", "narrow"]) {
    for (const type of ["conjunction", "disjunction", "unit"]) {
      const list = new Intl.ListFormat("en", { style, type });
      put(`intl.list.${style}.${type}`, () => [list.format([]), list.format(["a"]), list.format(["a", "b"]), list.format(["a", "b", "c"])]);
    }
    for (const numeric of ["always", "auto"]) {
      const relative = new Intl.RelativeTimeFormat("en", { style, numeric });
      const units = ["year", "quarter", "month", "week", "day", "hour", "minute", "second", "days"];
      put(`intl.relative.${style}.${numeric}`, () => units.flatMap((unit) => [-2, -1, 0, 1, 3, 1.5, -0, 1000].map((value) => relative.format(value, unit))));
    }
  }
  const units = ["byte", "kilobyte", "megabyte", "gigabyte", "bit", "kilobit", "millisecond", "second", "minute", "hour", "day", "week", "month", "year", "percent", "meter", "kilometer", "foot", "inch", "pound", "liter", "celsius", "fahrenheit", "degree", "microsecond"];
  for (const unitDisplay of ["short", "long", "narrow"]) {
    put(`intl.unit.${unitDisplay}`, () => units.map((unit) => [1, 2, 1.5, 1234, -1].map((value) => new Intl.NumberFormat("en", { style: "unit", unit, unitDisplay }).format(value)).join(" | ")));
  }
  put("intl.unit.options", () => [new Intl.NumberFormat("en", { style: "unit", unit: "kilobyte", maximumFractionDigits: 1 }).format(12.345), new Intl.NumberFormat("en-US", { style: "unit", unit: "kilobyte" }).resolvedOptions().unitDisplay]);
  put("intl.unit.missing", () => new Intl.NumberFormat("en", { style: "unit" }));
  put("intl.unit.bad", () => new Intl.NumberFormat("en", { style: "unit", unit: "kilo byte" }));
  put("intl.list.parts", () => new Intl.ListFormat().formatToParts(["x", "y"]));
  put("intl.relative.parts", () => [new Intl.RelativeTimeFormat("en").formatToParts(3, "day"), new Intl.RelativeTimeFormat("en", { numeric: "auto" }).formatToParts(-1, "day")]);
  put("intl.list.withoutNew", () => Intl.ListFormat());
  put("intl.list.badType", () => new Intl.ListFormat("en", { type: "x" }));
  put("intl.relative.badUnit", () => new Intl.RelativeTimeFormat("en").format(1, "decade"));
  const falsy = (fn) => {
    try {
      fn();
      return "passed";
    } catch (error) {
      return error.message;
    }
  };
  put("assert.falsy", () => [falsy(() => assert.ok(false)), falsy(() => assert(0)), falsy(() => assert.ok("")), falsy(() => assert(null)), falsy(() => assert.ok())]);
  put("path.formatExt", () => [path.format({ dir: "/x", name: "y", ext: "txt" }), path.format({ root: "/", base: "b", ext: "e" }), path.format({ name: "n", ext: ".e" }), path.format({ dir: "d", name: "n", ext: "" })]);
  put("timers.handle", () => {
    const timer = setTimeout(() => {}, 10);
    const shape = [typeof timer, typeof timer.refresh, timer.refresh() === timer, timer.hasRef(), timer.unref() === timer, timer.hasRef(), typeof +timer];
    clearTimeout(timer);
    return shape;
  });
  put("abort.reason", () => [String(AbortSignal.abort().reason), AbortSignal.abort().reason.name]);
  put("builtins.more", () => [typeof hooksPerformance.now, isBuiltin("node:fs"), isBuiltin("fs"), isBuiltin("nope"), typeof createRequire(import.meta.url)("node:path").join, tty.isatty(1)]);
  put("shell.echo", () => [execSync("echo uv").toString(), execSync("echo -n 'a  b' \"c\"").toString(), execSync("true").toString()]);
  put("clock.busyWait", () => {
    const start = Date.now();
    let reads = 0;
    while (Date.now() - start < 20) reads++;
    const begun = performance.now();
    while (performance.now() - begun < 5) reads++;
    return reads > 0;
  });
  put("blob", () => {
    const blob = new Blob(["héllo", new Uint8Array([1, 2]), new Blob(["!"])], { type: "Text/Plain" });
    const sliced = blob.slice(1, 4, "x/y");
    const file = new File(["ab"], "a.txt", { type: "text/plain", lastModified: 5 });
    return [blob.size, blob.type, Object.prototype.toString.call(blob), sliced.size, sliced.type, blob.slice(-2).size, new Blob().size, new Blob([123, null]).size, file.name, file.size, file.lastModified, file instanceof Blob, typeof Buffer.from("x").toString];
  });
  put("blob.notArray", () => new Blob("abc"));
  put("bun.global", () => [typeof Bun, typeof Bun.version, typeof navigator, navigator.userAgent.startsWith("Bun/")]);
  // Bun lets an ES module use require and __filename/__dirname; mods written for Bun do.
  const codeOf = (id) => {
    try {
      require(id);
      return "loaded";
    } catch (error) {
      return error.code ?? error.name;
    }
  };
  put("require.builtins", () => [require("node:path") === path, require("path") === path, typeof require("node:fs").readFileSync, typeof require("crypto").createHash, require("node:util").format("%s=%d", "n", 3)]);
  put("require.missing", () => [codeOf("./not-beside-me.js"), typeof require.resolve]);
  put("require.module", () => [typeof module, typeof exports, typeof __dirname, __filename.endsWith("/probes.mjs"), __filename.startsWith(__dirname + "/")]);
  for (const algorithm of ["sha3-256", "SHA3-512", "sha512-256", "ripemd160", "blake2b512", "blake2s256", "shake128", "shake256"]) {
    put(`hash.${algorithm}`, () => crypto.createHash(algorithm).update(text).digest("hex"));
  }
  put("hash.shake.length", () => crypto.createHash("shake256", { outputLength: 8 }).update(text).digest("hex"));
  put("hmac.sha3", () => crypto.createHmac("sha3-256", "k").update(text).digest("base64"));
  put("pbkdf2Sync", () => crypto.pbkdf2Sync("pw", "salt", 100, 32, "sha256").toString("hex"));
  put("pbkdf2Sync.digest", () => crypto.pbkdf2Sync("pw", "salt", 1, 20, "nope"));
  put("pbkdf2Sync.iterations", () => crypto.pbkdf2Sync("pw", "salt", 0, 20, "sha1"));
  put("hkdfSync", () => {
    const key = crypto.hkdfSync("sha256", "key", "salt", "info", 42);
    return [Object.prototype.toString.call(key), Buffer.from(key).toString("hex")];
  });
  put("scryptSync", () => [crypto.scryptSync("pw", "salt", 16, { N: 64 }).toString("hex"), crypto.scryptSync("pw", "salt", 8, { cost: 32, blockSize: 2 }).toString("hex")]);
  put("scryptSync.params", () => crypto.scryptSync("pw", "salt", 16, { N: 3 }));
  const ranges = [[{}, 3, 5], [{}, 3, 3], [{}, 1000, 2000000], [{}, -5, 5], [{}, 1.5, 2.25], [{ style: "currency", currency: "USD" }, 3, 5], [{ style: "currency", currency: "USD" }, 3, 3], [{ style: "percent" }, 0.1, 0.2], [{ style: "unit", unit: "kilometer" }, 3, 5], [{ notation: "compact" }, 1000, 5000000], [{ maximumFractionDigits: 0 }, 2.9, 3.1], [{ signDisplay: "always" }, 3, 5]];
  put("numberFormat.formatRange", () => ranges.map(([options, start, end]) => new Intl.NumberFormat("en-US", options).formatRange(start, end)));
  put("numberFormat.formatRange.nan", () => new Intl.NumberFormat("en-US").formatRange(NaN, 3));
  put("dateTimeFormat.formatRange.sameDay", () => new Intl.DateTimeFormat("en-US", { timeZone: "UTC" }).formatRange(0, 3600000));
  const instant = Date.UTC(2025, 6, 4, 9, 7, 9, 45);
  const dateOptions = [{}, { year: "numeric", month: "2-digit", day: "2-digit" }, { dateStyle: "full", timeStyle: "long" }, { dateStyle: "medium", timeStyle: "short" }, { hour: "2-digit", minute: "2-digit" }, { hour: "numeric" }, { weekday: "long", month: "long", day: "numeric" }, { month: "short", year: "numeric" }, { hour: "numeric", minute: "2-digit", hour12: false }, { minute: "2-digit", second: "2-digit" }, { timeZoneName: "short" }, { hour: "numeric", minute: "numeric", timeZoneName: "short" }, { fractionalSecondDigits: 3, second: "numeric" }, { era: "short" }, { month: "numeric", day: "numeric" }];
  put("dateTimeFormat.formatToParts", () => dateOptions.map((options) => new Intl.DateTimeFormat("en-US", { timeZone: "UTC", ...options }).formatToParts(instant).map((part) => `${part.type}=${part.value}`).join("|")));
  const locales = ["en-GB", "en-CA", "en-AU", "sv-SE", "de-DE", "fr-FR", "es-ES", "it-IT", "nl-NL", "pt-BR", "ja-JP", "zh-CN", "ru-RU", "de", "sv"];
  put("date.toLocaleString.locales", () => locales.map((locale) => [new Date(instant).toLocaleDateString(locale, { timeZone: "UTC" }), new Date(instant).toLocaleTimeString(locale, { timeZone: "UTC" }), new Date(instant).toLocaleString(locale, { timeZone: "UTC" }), new Date(instant).toLocaleDateString(locale, { timeZone: "UTC", year: "numeric", month: "2-digit", day: "2-digit" })]));
  const zoneNames = ["America/New_York", "America/Los_Angeles", "Europe/London", "Europe/Berlin", "Asia/Tokyo", "Asia/Kolkata", "Australia/Sydney", "Etc/GMT+5", "asia/tokyo", "UTC"];
  put("dateTimeFormat.timeZones", () => zoneNames.map((timeZone) => [Date.UTC(2025, 0, 9, 15, 5, 3), Date.UTC(2025, 6, 9, 15, 5, 3)].map((at) => new Date(at).toLocaleString("en-US", { timeZone, timeZoneName: "short" })).concat(new Intl.DateTimeFormat("en-US", { timeZone }).resolvedOptions().timeZone, new Date(0).toLocaleString("en-US", { timeZone, timeZoneName: "longOffset" }))));
  put("dateTimeFormat.zoneNames", () => ["Europe/London", "UTC", "America/New_York"].flatMap((timeZone) => ["longOffset", "shortOffset", "long", "short"].map((timeZoneName) => new Date(Date.UTC(2025, 0, 1)).toLocaleString("en-US", { timeZone, timeZoneName }))));
  put("date.toLocale.requiredFields", () => [new Date(instant).toLocaleDateString("en-US", { timeZone: "UTC", hour: "numeric" }), new Date(instant).toLocaleTimeString("en-US", { timeZone: "UTC", year: "numeric" }), new Date(instant).toLocaleString("en-US", { timeZone: "UTC", era: "short" }), new Intl.DateTimeFormat("en-US", { timeZone: "UTC", era: "long" }).format(instant)]);
  put("dateTimeFormat.timeZone.invalid", () => new Intl.DateTimeFormat("en-US", { timeZone: "Mars/Base" }).format(0));
  put("util.styleText", () => [util.styleText(["bold", "red"], "x"), util.styleText(["bold", "red"], "x", { validateStream: false })]);
  put("util.styleText.bad", () => util.styleText("nope", "x"));
  put("process.stdout.tty", () => [process.stdout.isTTY, process.stdout.columns, process.stdin.isTTY].map(String));
  put("structuredClone.function", () => structuredClone(() => 1));
  put("structuredClone.error", () => { try { structuredClone(Symbol("x")); } catch (error) { return [error.name, error.code, error instanceof DOMException]; } });
  put("buffer.constructorName", () => [Buffer.name, Buffer.from("a").constructor.name]);
  put("date.invalid.toISOString", () => new Date(NaN).toISOString());
  put("string.localeCase", () => ["i".toLocaleUpperCase("tr-TR"), "I".toLocaleLowerCase("tr"), "i".toLocaleUpperCase(), "I".toLocaleLowerCase(["az"]), "ı".toLocaleUpperCase("en")]);
  put("bun.CryptoHasher", () => {
    const hasher = new Bun.CryptoHasher("sha256");
    hasher.update("a");
    const copy = hasher.copy();
    return [hasher.digest("hex"), copy.digest().length, hasher.algorithm, hasher.byteLength, Bun.CryptoHasher.hash("sha1", "x", "base64"), Bun.CryptoHasher.hash("blake2b256", "a", "hex"), new Bun.CryptoHasher("sha256", "key").update("a").digest("hex")];
  });
  put("fs.descriptors", () => {
    const file = path.join(os.tmpdir(), "modlearn-probe-fd.txt");
    const fd = fs.openSync(file, "w");
    fs.writeSync(fd, "hello ");
    fs.writeSync(fd, Buffer.from("world"));
    fs.closeSync(fd);
    const reader = fs.openSync(file, "r");
    const bytes = Buffer.alloc(5);
    const read = fs.readSync(reader, bytes, 0, 5, 6);
    const size = fs.fstatSync(reader).size;
    fs.closeSync(reader);
    let closedTwice;
    try {
      fs.closeSync(reader);
    } catch (error) {
      closedTwice = error.code;
    }
    const appender = fs.openSync(file, "a");
    fs.writeSync(appender, "!");
    fs.closeSync(appender);
    return [fs.readFileSync(file, "utf8"), read, bytes.toString(), size, closedTwice];
  });
  return out;
}

/** What needs the event loop: streams and the callback forms of key derivation. */
export async function probeAsync() {
  const out = {};
  const put = async (name, fn) => {
    try {
      out[name] = await fn();
    } catch (error) {
      out[name] = `threw ${error && error.name}: ${error && error.message}`;
    }
  };
  await put("pbkdf2.callback", () => new Promise((done) => crypto.pbkdf2("pw", "salt", 10, 8, "sha512", (error, key) => done([error, key.toString("hex")]))));
  await put("scrypt.callback", () => new Promise((done) => crypto.scrypt("pw", "salt", 8, { N: 64 }, (error, key) => done([String(error), key.toString("hex")]))));
  await put("hkdf.callback", () => new Promise((done) => crypto.hkdf("sha256", "k", "s", "i", 8, (error, key) => done([error, Buffer.from(key).toString("hex")]))));
  await put("readableStream", async () => {
    const stream = new ReadableStream({ start(controller) { controller.enqueue("a"); controller.enqueue("b"); controller.close(); } });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    return [chunks, Object.prototype.toString.call(stream), stream.locked];
  });
  await put("textStreams", async () => {
    const chunks = [];
    await new ReadableStream({ start(controller) { controller.enqueue("héllo 😀"); controller.close(); } })
      .pipeThrough(new TextEncoderStream())
      .pipeThrough(new TextDecoderStream())
      .pipeTo(new WritableStream({ write(chunk) { chunks.push(chunk); } }));
    return chunks;
  });
  await put("compressionStreams", async () => {
    const text = "modlearn ".repeat(40);
    const roundTrips = [];
    for (const format of ["gzip", "deflate", "deflate-raw"]) {
      const out = await new Response(new Blob([text]).stream().pipeThrough(new CompressionStream(format)).pipeThrough(new DecompressionStream(format))).text();
      roundTrips.push([format, out === text]);
    }
    let refused;
    try {
      new CompressionStream("zip");
    } catch (error) {
      refused = [error.name, error instanceof TypeError];
    }
    return [roundTrips, refused, Object.prototype.toString.call(new CompressionStream("gzip"))];
  });
  await put("transformStream", async () => {
    const { readable, writable } = new TransformStream({ transform(chunk, controller) { controller.enqueue(chunk.toUpperCase()); } });
    const writer = writable.getWriter();
    writer.write("ab");
    writer.close();
    const reader = readable.getReader();
    const first = await reader.read();
    const second = await reader.read();
    return [first, second];
  });
  await put("streams.tee", async () => {
    const [left, right] = new ReadableStream({ pull(controller) { controller.enqueue(1); controller.close(); } }).tee();
    return [await left.getReader().read(), await right.getReader().read()];
  });
  await put("headers", () => {
    const headers = new Headers({ "X-B": " 2 ", a: "1" });
    headers.append("a", "3");
    headers.append("Set-Cookie", "x=1");
    headers.append("Set-Cookie", "y=2");
    const seen = [];
    headers.forEach((value, name) => seen.push(`${name}=${value}`));
    return [[...headers], headers.get("A"), headers.getSetCookie(), seen];
  });
  await put("headers.badName", () => new Headers({ "bad name": "x" }));
  await put("response", async () => {
    const response = new Response("héllo", { status: 201, headers: { "x-a": "1" } });
    return [response.status, response.ok, response.headers.get("content-type"), await response.text(), response.bodyUsed];
  });
  await put("response.json", async () => {
    const response = Response.json({ a: 1 });
    return [response.headers.get("content-type"), await response.json()];
  });
  await put("response.usedTwice", async () => {
    const response = new Response("x");
    await response.text();
    return await response.text();
  });
  await put("response.status", () => new Response("", { status: 99 }));
  await put("response.body", async () => new TextDecoder().decode((await new Response("abc").body.getReader().read()).value));
  await put("request", async () => {
    const request = new Request("https://example.com/a?b=1", { method: "post", body: "x=1", headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    return [request.url, request.method, await request.text(), request.headers.get("content-type"), request.signal instanceof AbortSignal];
  });
  await put("formData", () => {
    const form = new FormData();
    form.append("a", "1");
    form.append("b", new Blob(["x"]), "b.txt");
    return [[...form.keys()], form.get("a"), form.get("b").name];
  });
  await put("util.parseArgs", () => util.parseArgs({ args: ["-f", "x", "--verbose", "pos"], options: { file: { type: "string", short: "f" }, verbose: { type: "boolean" } }, allowPositionals: true }));
  await put("util.parseArgs.unknown", () => util.parseArgs({ args: ["--nope"], options: {} }));
  await put("util.legacy", () => [util.isString("a"), util.isBuffer(Buffer.from("a")), util.isDate(new Date()), util.getSystemErrorName(-2)]);
  await put("util.brands", () => [util.types.isDate(Object.create(Date.prototype)), util.isDate(Object.create(Date.prototype)), util.types.isRegExp(Object.create(RegExp.prototype)), util.isRegExp(/x/)]);
  await put("util.MIMEType", () => {
    const mime = new util.MIMEType("text/html; charset=utf-8");
    return [mime.essence, mime.params.get("charset"), String(mime)];
  });
  await put("util.parseEnv", () => util.parseEnv('A=1\nB="two"\n#c\n'));
  await put("path.matchesGlob", () => [path.matchesGlob("/a/b/c.js", "/a/**/*.js"), path.matchesGlob("x.ts", "*.js")]);
  await put("events.addAbortListener", async () => {
    const controller = new AbortController();
    const seen = [];
    const disposable = events.addAbortListener(controller.signal, (event) => seen.push(event.type));
    controller.abort();
    await null;
    return [seen, typeof disposable[Symbol.dispose]];
  });
  await put("stream.pipeline", async () => {
    const chunks = [];
    const upper = new Transform({ transform(chunk, _encoding, done) { done(null, String(chunk).toUpperCase()); } });
    await pipelineAsync(Readable.from(["ab", "cd"]), upper, new Writable({ write(chunk, _encoding, done) { chunks.push(String(chunk)); done(); } }));
    return chunks;
  });
  await put("blob.stream", async () => {
    const chunks = [];
    for await (const chunk of new Blob(["héllo"]).stream()) chunks.push([Object.prototype.toString.call(chunk), [...chunk]]);
    return [chunks, Object.prototype.toString.call(new Blob([]).stream())];
  });
  await put("bun.shell", async () => {
    const sh = Bun.$;
    const words = await sh`echo hi ${"a b"} ${["c d", "e"]}`.quiet();
    const failed = await sh`exit 3`.quiet().catch((error) => [error.name, error.message, error.exitCode, Object.keys(error)]);
    const lines = [];
    for await (const line of sh`printf 'a\nb\n'`.lines()) lines.push(line);
    return [words.stdout.toString(), words.exitCode, Object.keys(words), failed, (await sh`exit 4`.nothrow().quiet()).exitCode,
      await sh`printf '%s' x`.text(), await sh`echo '{"a":1}'`.json(), lines, sh.escape("a'b $c"), sh.braces("a{b,c}")];
  });
  await put("bun.shell.lazy", async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "probe-")), "ran");
    Bun.$`touch ${file}`;
    await new Promise((done) => setTimeout(done, 50));
    return fs.existsSync(file);
  });
  await put("fs.streams", async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "probe-")), "log.txt");
    const writer = fs.createWriteStream(file, { flags: "a" });
    const seen = [];
    writer.on("open", (fd) => seen.push(`open:${typeof fd}`));
    writer.write("line1\n");
    await new Promise((done) => writer.end("end\n", done));
    const chunks = [];
    for await (const chunk of fs.createReadStream(file, { encoding: "utf8", start: 2 })) chunks.push(chunk);
    const missing = await new Promise((done) => fs.createReadStream(`${file}.nope`).on("error", (error) => done([error.code, error.syscall])));
    return [seen, fs.readFileSync(file, "utf8"), writer.bytesWritten, chunks, missing];
  });
  return out;
}

/**
 * The order a turn of the event loop runs what is queued, after the promise jobs. (Whether
 * finished I/O or an immediate comes first is a race in Bun, so each is probed apart.)
 */
export async function loopOrder() {
  const order = [];
  process.nextTick(() => order.push("tick"));
  Promise.resolve().then(() => order.push("promise"));
  setImmediate(() => order.push("immediate"));
  setTimeout(() => order.push("timeout"), 0);
  await new Promise((done) => setTimeout(done, 5));
  const io = [];
  const file = path.join(os.tmpdir(), "modlearn-probe-loop.txt");
  fs.writeFileSync(file, "x");
  process.nextTick(() => io.push("tick"));
  Promise.resolve().then(() => io.push("promise"));
  fs.promises.readFile(file).then(() => io.push("readFile"));
  await new Promise((done) => setTimeout(done, 5));
  return { "loop.order": order, "loop.order.io": io };
}

export async function activate() {
  console.log(JSON.stringify({ ...probe(), ...(await probeAsync()), ...(await loopOrder()) }));
}
