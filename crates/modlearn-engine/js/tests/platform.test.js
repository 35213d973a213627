// Bun's platform inside the sandbox: the web globals, the Node built-ins and
// the machine behind them. (Byte-for-byte comparisons with Bun are in
// platform-probes/.)

import "../host.js";
import { test, assert, assertEqual, assertThrows } from "./harness.js";
import { seedWorld, worldSnapshot, world } from "../world.js";
import { advanceClock, consoleBuffer } from "../platform.js";
import fs, { readFileSync, writeFileSync, mkdirSync, existsSync, readdirSync, statSync } from "../node/fs.js";
import fsp from "../node/fs-promises.js";
import path from "../node/path.js";
import os from "../node/os.js";
import { exec, execSync, spawn } from "../node/child_process.js";
import { promisify, inspect, format, isDeepStrictEqual, types } from "../node/util.js";
import crypto from "../node/crypto.js";
import assertModule from "../node/assert.js";
import { EventEmitter, once } from "../node/events.js";
import { setTimeout as sleep } from "../node/timers-promises.js";
import http from "../node/http.js";

function fresh(seed = {}) {
  seedWorld({ cwd: "/workspace", ...seed });
}

test("without a machine, files and commands fail saying so", async () => {
  fresh();
  const refused = (fn) => {
    try {
      fn();
    } catch (error) {
      return error.code;
    }
    return "ran";
  };
  assertEqual(refused(() => readFileSync("/workspace/notes.md", "utf8")), "ERR_MODLEARN_NO_MACHINE");
  assertEqual(refused(() => writeFileSync("/tmp/x", "x")), "ERR_MODLEARN_NO_MACHINE");
  assertEqual(refused(() => execSync("git status")), "ERR_MODLEARN_NO_MACHINE");
  assertEqual(existsSync("/workspace"), false);
  const child = spawn("git", ["status"]);
  const [error] = await once(child, "error");
  assertEqual(error.code, "ERR_MODLEARN_NO_MACHINE");
  // A relative path reaches the kernel joined to the working directory, nothing else done to it.
  assertEqual(fs.constants.O_CREAT, 64);
});

test("the log keeps reads, environment reads and network attempts", async () => {
  fresh({ env: { API_MODE: "test" } });
  assertEqual(process.env.API_MODE, "test");
  assertEqual(process.env.MISSING, undefined);
  await fetch("https://api.example.com/x").catch(() => {});
  const kinds = world.effects.map((e) => `${e.kind}:${e.name ?? e.path ?? e.target}`);
  assertEqual(kinds, ["env_read:API_MODE", "env_read:MISSING", "network:https://api.example.com/x"]);
  assertEqual(Object.keys(worldSnapshot()).sort(), ["cwd", "dispatched", "effects", "effectsDropped", "filesWatched", "home", "processListeners", "timersPending"]);
});

test("process is the machine's user's", () => {
  fresh();
  assertEqual(process.cwd(), "/workspace");
  assertEqual(process.platform, "linux");
  assertEqual(process.env.HOME, "/home/user");
  // Letta's harness process has neither; a prompt scenario's seed adds MEMORY_DIR.
  assertEqual([process.env.MEMORY_DIR, process.env.LETTA_AGENT_ID], [undefined, undefined]);
  assertEqual(path.resolve("a/b"), "/workspace/a/b");
  assertThrows(() => process.exit(1), "process.exit(1) is not available");
  const [s, ns] = process.hrtime();
  assert(s >= 0 && ns >= 0);
  assertEqual(typeof process.hrtime.bigint(), "bigint");
});

test("network fails as without one", async () => {
  fresh();
  const error = await fetch("http://example.com/").catch((e) => e);
  assertEqual([error.name, error.code, error.message], ["TypeError", "ENOTFOUND", "getaddrinfo ENOTFOUND example.com"]);
  const request = http.get("http://example.com/");
  const [httpError] = await once(request, "error");
  assertEqual(httpError.code, "ENOTFOUND");
});

test("web globals", () => {
  assertEqual([...new TextEncoder().encode("é€😀")], [195, 169, 226, 130, 172, 240, 159, 152, 128]);
  assertEqual(new TextDecoder().decode(new Uint8Array([0xe2, 0x82, 0xac, 0xff])), "€\ufffd");
  assertEqual(btoa("hello"), "aGVsbG8=");
  assertEqual(atob("aGVsbG8="), "hello");
  assertEqual(new URL("../x?y=1#z", "https://a.example/b/c").href, "https://a.example/x?y=1#z");
  assertEqual(Buffer.from("hi").toString("hex"), "6869");
  assert(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(crypto.randomUUID()));
  assertEqual(globalThis.crypto.getRandomValues(new Uint8Array(4)).length, 4);
  const target = new EventTarget();
  let seen = 0;
  target.addEventListener("x", () => seen++, { once: true });
  target.dispatchEvent(new Event("x"));
  target.dispatchEvent(new Event("x"));
  assertEqual(seen, 1);
  assertEqual((1234.5).toLocaleString(), "1,234.5");
  assertEqual(structuredClone(new Map([[1, new Set([2])]])).get(1).has(2), true);
});

test("AbortSignal.timeout and timers/promises run on the virtual clock", async () => {
  const signal = AbortSignal.timeout(1000);
  const before = performance.now();
  const slept = sleep(5000, "done");
  while (advanceClock()) await Promise.resolve();
  assertEqual(await slept, "done");
  assert(signal.aborted);
  assertEqual(signal.reason.name, "TimeoutError");
  assert(performance.now() - before >= 5000);
});

test("Date runs on the virtual clock and leads nowhere else", () => {
  fresh();
  const now = Date.now();
  assertEqual(new Date().getTime(), now);
  assertEqual(Date(), new Date(now).toString());
  assertEqual(new Date(2026, 0, 2).toISOString(), "2026-01-02T00:00:00.000Z");
  assertEqual(new Date("2020-05-06T07:08:09Z").getTime(), Date.parse("2020-05-06T07:08:09Z"));
  // Neither the constructor's prototype chain nor an instance's gives the engine's own Date.
  assertEqual(Object.getPrototypeOf(Date), Function.prototype);
  assertEqual(Date.prototype.constructor, Date);
  assertEqual(Object.getPrototypeOf(new Date()).constructor, Date);
  assertEqual(Object.getPrototypeOf(Date.prototype), Object.prototype);
  class Stamp extends Date {}
  const stamp = new Stamp();
  assert(stamp instanceof Date && stamp instanceof Stamp);
  assertEqual(stamp.getTime(), now);
  assertEqual([Date.name, Date.length], ["Date", 7]);
});

// Values are written as console.log writes them here (JSON), not as Bun's inspector would.
test("the rest of Bun's console writes lines on the virtual clock", () => {
  fresh();
  const before = consoleBuffer.lines.length;
  console.time("t");
  console.timeLog("t", "mid");
  console.timeEnd("t");
  console.timeEnd("never started");
  console.count();
  console.count();
  console.countReset();
  console.count();
  console.table([{ a: 1 }]);
  console.group("g");
  console.groupEnd();
  console.assert(1 === 1, "not shown");
  console.assert(false, "shown");
  console.dir({ d: 1 });
  console.clear();
  assertEqual(consoleBuffer.lines.slice(before).map(({ level, text }) => `${level} ${text}`), [
    "log [0.00ms] t mid",
    "log [0.00ms] t",
    "log default: 1",
    "log default: 2",
    "log default: 1",
    'log [{"a":1}]',
    "log g",
    "error Assertion failed shown",
    'log {"d":1}',
  ]);
});

test("util, assert, events, crypto basics", () => {
  assertEqual(format("%s=%d %j", "a", 1, { b: 2 }), 'a=1 {"b":2}');
  assertEqual(inspect({ a: [1, { b: new Map([["k", 1]]) }] }), "{ a: [ 1, { b: [Map] } ] }");
  assert(isDeepStrictEqual({ a: [1, new Set([2])] }, { a: [1, new Set([2])] }));
  assert(!isDeepStrictEqual({ a: 1 }, { a: "1" }));
  assert(types.isDate(new Date()));
  assertThrows(() => assertModule.strictEqual(1, 2), "Expected values to be strictly equal");
  const emitter = new EventEmitter();
  let got = null;
  emitter.on("e", (v) => (got = v));
  emitter.emit("e", 7);
  assertEqual(got, 7);
  assertEqual(crypto.createHash("sha256").update("abc").digest("hex"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  assertEqual(crypto.createHmac("sha1", "key").update("data").digest("base64"), "EEFSxb/coHvGM+69RhmfAlXJ9J0=");
  assert(crypto.timingSafeEqual(Buffer.from("ab"), Buffer.from("ab")));
});

test("a watched file is counted for the scenario, and each watcher can be closed", () => {
  seedWorld({});
  const watcher = fs.watch("/workspace", () => {});
  fs.watchFile("/workspace/package.json", () => {});
  assertEqual(worldSnapshot().filesWatched, 2);
  assertEqual(watcher.on("change", () => {}), watcher);
  watcher.close();
  fs.unwatchFile("/workspace/package.json");
  seedWorld({});
  assertEqual(worldSnapshot().filesWatched, 0);
});
