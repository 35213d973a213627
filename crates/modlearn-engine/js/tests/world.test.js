// The world's effect log: every kind of effect a mod can have is recorded,
// with how it was done, and everything stays bounded for hostile mods.

import "../host.js";
import { test, assert, assertEqual, assertThrows } from "./harness.js";
import { seedWorld, worldSnapshot, world } from "../world.js";
import fs from "../node/fs.js";
import fsp from "../node/fs-promises.js";
import { exec, execFile, execFileSync, execSync, spawn, spawnSync } from "../node/child_process.js";
import { once } from "../node/events.js";
import http from "../node/http.js";
import https from "../node/https.js";
import net from "../node/net.js";

function fresh(seed = {}) {
  seedWorld({ cwd: "/workspace", ...seed });
}

function brief(effect) {
  const { at: _at, ...rest } = effect;
  return rest;
}

test("every file effect is recorded with its outcome and, for writes, its bytes", async () => {
  fresh({ files: { "seed.txt": "seeded" } });
  fs.readFileSync("seed.txt", "utf8");
  fs.mkdirSync("/home/user/.letta", { recursive: true });
  assertThrows(() => fs.writeFileSync("~/x", "é"), "ENOENT");
  fs.writeFileSync("/home/user/.letta/state.json", "{}");
  fs.appendFileSync("/tmp/log", "ab");
  fs.readdirSync("/home/user/.letta");
  fs.copyFileSync("seed.txt", "copy.txt");
  fs.renameSync("copy.txt", "moved.txt");
  fs.unlinkSync("moved.txt");
  await fsp.rm("/tmp/log");
  assertThrows(() => fs.readFileSync("/nope"), "ENOENT");
  assertEqual(world.effects.map(brief), [
    { kind: "file_read", path: "/workspace/seed.txt", ok: true },
    { kind: "mkdir", path: "/home/user/.letta", ok: true },
    // `~` is not expanded by Node either: a file named `~` under the working directory.
    { kind: "file_write", path: "/workspace/~/x", ok: false, error: "ENOENT" },
    { kind: "file_write", path: "/home/user/.letta/state.json", ok: true, bytes: 2 },
    { kind: "file_append", path: "/tmp/log", ok: true, bytes: 2 },
    { kind: "readdir", path: "/home/user/.letta", ok: true },
    { kind: "file_read", path: "/workspace/seed.txt", ok: true },
    { kind: "file_write", path: "/workspace/copy.txt", ok: true, bytes: 6 },
    { kind: "rename", path: "/workspace/copy.txt -> /workspace/moved.txt", ok: true },
    { kind: "file_delete", path: "/workspace/moved.txt", ok: true },
    { kind: "file_delete", path: "/tmp/log", ok: true },
    { kind: "file_read", path: "/nope", ok: false, error: "ENOENT" },
  ]);
  const snapshot = worldSnapshot();
  assertEqual(snapshot.writtenFiles, { "/home/user/.letta/state.json": { bytes: 2, text: "{}", truncated: false } });
  assertEqual(snapshot.writtenFilesDropped, 0);
});

test("rename replaces what rename(2) replaces and refuses the rest", () => {
  fresh({ files: { "NOTES.md": "notes", "src/app.ts": "app", "a.txt": "a", "b.txt": "b" } });
  fs.mkdirSync("empty");
  fs.mkdirSync("moving");
  assertThrows(() => fs.renameSync("moving", "src"), "ENOTEMPTY: directory not empty, rename 'moving' -> 'src'");
  assertThrows(() => fs.renameSync("a.txt", "src"), "EISDIR");
  assertThrows(() => fs.renameSync("moving", "a.txt"), "ENOTDIR");
  assertThrows(() => fs.renameSync("src", "src/inner"), "EINVAL");
  assertEqual(fs.readFileSync("src/app.ts", "utf8"), "app");
  fs.renameSync("moving", "empty");
  fs.renameSync("a.txt", "b.txt");
  assertEqual(fs.readFileSync("b.txt", "utf8"), "a");
  fs.renameSync("b.txt", "b.txt");
  assertEqual(fs.readdirSync(".").sort(), ["NOTES.md", "b.txt", "empty", "src"]);
});

test("every child_process form is a command effect naming its call", async () => {
  fresh();
  execSync("git rev-parse --abbrev-ref HEAD");
  execFileSync("git", ["status", "--porcelain"]);
  spawnSync("ls", ["-la"]);
  spawnSync("echo hi | wc", [], { shell: true });
  await new Promise((resolve) => exec("git diff", () => resolve()));
  await new Promise((resolve) => execFile("git", ["log", "a b"], () => resolve()));
  await once(spawn("rm", ["-rf", "/"]), "close");
  const commands = world.effects.filter((e) => e.kind === "command").map((e) => `${e.via}: ${e.command} (${e.exitCode})`);
  assertEqual(commands, [
    "execSync: git rev-parse --abbrev-ref HEAD (0)",
    "execSync: git status --porcelain (0)",
    "spawnSync: ls -la (127)",
    "spawnSync: echo hi | wc (127)",
    "exec: git diff (0)",
    "execFile: git log 'a b' (127)",
    "spawn: rm -rf / (127)",
  ]);
});

test("env reads, lookups and enumerations are recorded", () => {
  fresh({ env: { MODE: "x" } });
  void process.env.MODE;
  void ("TOKEN" in process.env);
  void Object.keys(process.env);
  const reads = world.effects.filter((e) => e.kind === "env_read").map((e) => `${e.name}:${e.found}`);
  assertEqual(reads, ["MODE:true", "TOKEN:false", "*:true"]);
});

test("network attempts through fetch, http, https and net are recorded", async () => {
  fresh();
  await fetch("https://api.example.com/v1").catch(() => {});
  await once(http.get("http://example.com/a"), "error");
  await once(https.request({ hostname: "secure.example.com" }), "error");
  await once(net.connect(5432, "db.local"), "error");
  const server = http.createServer();
  server.listen(8080);
  await once(server, "error");
  const network = world.effects.filter((e) => e.kind === "network").map((e) => `${e.via} ${e.target}`);
  assertEqual(network, [
    "fetch https://api.example.com/v1",
    "http.request http://example.com/a",
    "https.request https://secure.example.com/",
    "net.connect db.local:5432",
    "http.createServer listen 8080",
  ]);
});

test("effects stay bounded: long strings are cut, the log is capped, the count of the rest kept", () => {
  fresh();
  spawnSync("echo", ["x".repeat(10000)]);
  const command = world.effects[0].command;
  assert(command.length < 2100, `kept ${command.length} characters`);
  assert(command.endsWith("… [7957 more characters cut]"), command.slice(-40));
  for (let i = 0; i < 1500; i++) void process.env.X;
  const snapshot = worldSnapshot();
  assertEqual([snapshot.effects.length, snapshot.effectsDropped], [1000, 501]);
});

test("paths past Linux's limits fail with ENAMETOOLONG and never reach the log", () => {
  fresh();
  const error = assertThrows(() => fs.writeFileSync(`/tmp/${"a".repeat(300)}`, "x"), "ENAMETOOLONG: name too long, open");
  assertEqual([error.code, error.errno], ["ENAMETOOLONG", -36]);
  assertThrows(() => fs.readFileSync(`/tmp/${"a/".repeat(2100)}x`), "ENAMETOOLONG");
  assertEqual(world.effects, []);
});

test("the snapshot's written files are capped per file, in all and in number", () => {
  fresh();
  fs.writeFileSync("/tmp/big", "y".repeat(70 * 1024));
  for (let i = 0; i < 250; i++) fs.writeFileSync(`/tmp/f${String(i).padStart(3, "0")}`, "z".repeat(4096));
  const snapshot = worldSnapshot();
  const big = snapshot.writtenFiles["/tmp/big"];
  assertEqual([big.bytes, big.text.length, big.truncated], [70 * 1024, 64 * 1024, true]);
  const kept = Object.keys(snapshot.writtenFiles).length;
  const text = Object.values(snapshot.writtenFiles).reduce((sum, file) => sum + file.text.length, 0);
  assert(kept <= 200 && text <= 512 * 1024, `${kept} files, ${text} characters`);
  assertEqual(kept + snapshot.writtenFilesDropped, 251);
});
