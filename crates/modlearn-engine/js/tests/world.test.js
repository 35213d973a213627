// The world's effect log: every kind of effect a mod can have is recorded,
// with how it was done, and everything stays bounded for hostile mods.

import "../host.js";
import { test, assert, assertEqual, assertThrows } from "./harness.js";
import { seedWorld, simulateCommand, worldSnapshot, world } from "../world.js";
import fs from "../node/fs.js";
import fsp from "../node/fs-promises.js";
import { bunSpawn, bunSpawnSync, bunWhich, exec, execFile, execFileSync, execSync, spawn, spawnSync } from "../node/child_process.js";
import { once } from "../node/events.js";
import { clock } from "../platform.js";
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
    // `ls -l`'s long format is not modelled: answered as a missing program, as before.
    "spawnSync: ls -la (127)",
    "spawnSync: echo hi | wc (0)",
    "exec: git diff (0)",
    "execFile: git log 'a b' (128)",
    // rm is modelled (shell-files.js) and refuses `/` as GNU rm does.
    "spawn: rm -rf / (1)",
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

/** Runs a command line through the world as execSync does: [stdout, stderr, exit code]. */
function sh(line, seed) {
  if (seed) fresh(seed);
  const answer = simulateCommand(line, "execSync");
  return [answer.stdout, answer.stderr, answer.exitCode];
}

test("shell operators, redirections and exit statuses combine as sh's do", () => {
  fresh();
  assertEqual(sh("git rev-parse --abbrev-ref HEAD 2>/dev/null"), ["main\n", "", 0]);
  assertEqual(sh("git rev-parse --abbrev-ref HEAD 2>&1"), ["main\n", "", 0]);
  assertEqual(sh("git rev-parse --abbrev-ref HEAD >/dev/null"), ["", "", 0]);
  assertEqual(sh("git rev-parse --abbrev-ref HEAD || echo main"), ["main\n", "", 0]);
  assertEqual(sh("git branch --show-current && echo ok; echo after"), ["main\nok\nafter\n", "", 0]);
  assertEqual(sh("nothere 2>/dev/null || echo fallback"), ["fallback\n", "", 0]);
  assertEqual(sh("nothere"), ["", "/bin/sh: 1: nothere: not found\n", 127]);
  assertEqual(sh("nothere 2>&1 | head -1"), ["/bin/sh: 1: nothere: not found\n", "", 0]);
  assertEqual(sh("true && false; echo $?"), ["1\n", "", 0]);
  assertEqual(sh("! true"), ["", "", 1]);
  assertEqual(sh("false | true"), ["", "", 0]);
  assertEqual(sh("(echo sub; exit 4); echo $?"), ["sub\n4\n", "", 0]);
  assertEqual(sh("{ echo a; echo b; } | wc -l"), ["2\n", "", 0]);
  assertEqual(sh("set -e; false; echo never"), ["", "", 1]);
  assertEqual(sh("echo out 1>&2"), ["", "out\n", 0]);
  assertEqual(sh("exit 3"), ["", "", 3]);
  assertEqual(sh("echo a; ; echo b"), ["", '/bin/sh: 1: Syntax error: ";" unexpected\n', 2]);
  assertEqual(sh('echo "open'), ["", "/bin/sh: 1: Syntax error: Unterminated quoted string\n", 2]);
  assertEqual(sh("echo a |"), ["", "/bin/sh: 1: Syntax error: end of file unexpected\n", 2]);
});

test("quoting and expansion read the virtual environment", () => {
  fresh({ env: { MODE: "dev" } });
  assertEqual(sh(`echo 'it''s' "q\\"x" a\\ b $MODE "\${MODE}" '$MODE'`), [`its q"x a b dev dev $MODE\n`, "", 0]);
  assertEqual(sh("echo -n $HOME ~"), ["/home/user /home/user", "", 0]);
  assertEqual(sh("X=1; echo ${X:+set} ${Y-unset} ${#X} ${Z:-def}"), ["set unset 1 def\n", "", 0]);
  assertEqual(sh("f=a.tar.gz; echo ${f%.*} ${f%%.*} ${f#*.} ${f##*.}"), ["a.tar a tar.gz gz\n", "", 0]);
  assertEqual(sh("echo $(git rev-parse --short HEAD)-`echo x` $((2 + 3 * 4))"), ["0000000-x 14\n", "", 0]);
  assertEqual(sh('echo "a\\tb"'), ["a\tb\n", "", 0]);
  assertEqual(sh(`bash -c 'echo "a\\tb"'`), ["a\\tb\n", "", 0]);
  assertEqual(sh("X=5 env | grep ^X="), ["X=5\n", "", 0]);
  assertEqual(sh("printenv MODE; printenv NOPE; echo $?"), ["dev\n1\n", "", 0]);
  assertEqual(sh("cd src 2>/dev/null; cd /tmp && pwd"), ["/tmp\n", "", 0]);
  assertEqual(sh("pwd"), ["/workspace\n", "", 0]);
});

test("pipes through the common text utilities", () => {
  fresh({ files: { "README.md": "# hi\nline2\n", "src/app.ts": "app\n", "package.json": "{}\n" } });
  assertEqual(sh("git rev-parse --abbrev-ref HEAD | tr -d '\\n'"), ["main", "", 0]);
  assertEqual(sh("printf '%s\\n' a b c | head -n 2; printf '%s\\n' a b c | head -1"), ["a\nb\na\n", "", 0]);
  assertEqual(sh("printf '%s\\n' a b c | tail -n +2 | wc -l"), ["2\n", "", 0]);
  assertEqual(sh("echo hi | wc"), ["      1       1       3\n", "", 0]);
  assertEqual(sh("wc -l README.md"), ["2 README.md\n", "", 0]);
  assertEqual(sh("echo a:b:c | cut -d: -f2-; echo abcdef | cut -c2-4"), ["b:c\nbcd\n", "", 0]);
  assertEqual(sh("grep -n line README.md; grep -c . README.md; grep -q nope README.md; echo $?"), ["2:line2\n2\n1\n", "", 0]);
  assertEqual(sh("grep -E '^#|2' README.md | grep -v hi"), ["line2\n", "", 0]);
  assertEqual(sh("printf 'b\\na\\nb\\n' | sort | uniq -c"), ["      1 a\n      2 b\n", "", 0]);
  assertEqual(sh("echo 'x  y z' | awk '{print $2, $NF}'; echo a:b | awk -F: '{print $2}'"), ["y z\nb\n", "", 0]);
  assertEqual(sh("git branch | sed 's/^* //'; printf 'l1\\nl2\\n' | sed -n 2p"), ["main\nl2\n", "", 0]);
  assertEqual(sh("echo hello | tr '[:lower:]' '[:upper:]'"), ["HELLO\n", "", 0]);
  assertEqual(sh("ls; ls src; ls nope"), ["package.json\nREADME.md\nsrc\napp.ts\n", "ls: cannot access 'nope': No such file or directory\n", 2]);
  assertEqual(sh("cat src/app.ts README.md | head -2; cat nope"), ["app\n# hi\n", "cat: nope: No such file or directory\n", 1]);
  assertEqual(sh("echo *.md src/*"), ["README.md src/app.ts\n", "", 0]);
  assertEqual(sh("test -f README.md && [ -d src ] && [ ! -e nope ] && echo yes"), ["yes\n", "", 0]);
  assertEqual(sh("printf '%s-%05d|%-3s|%.2f\\n' a 42 b 3.14159"), ["a-00042|b  |3.14\n", "", 0]);
  assertEqual(sh("basename /a/b/c.txt .txt; dirname /a/b/c.txt"), ["c\n/a/b\n", "", 0]);
  // On the virtual clock (its epoch is 2026-01-01T00:00:00Z).
  const seconds = Math.floor(clock.now / 1000);
  assertEqual(sh("date +%s; date -u +%Y"), [`${seconds}\n${new Date(clock.now).getUTCFullYear()}\n`, "", 0]);
  assertEqual(sh("whoami; hostname; uname; uname -s"), ["user\nmodlearn\nLinux\nLinux\n", "", 0]);
  assertEqual(sh("which git nothere; echo $?; command -v cd; command -v nothere; echo $?"), ["/usr/bin/git\n1\ncd\n127\n", "", 0]);
});

test("the git stub answers the common read-only queries as git prints them", () => {
  fresh({ files: { "README.md": "# hi\n", "src/app.ts": "app\n" } });
  assertEqual(sh("git symbolic-ref --short HEAD; git symbolic-ref HEAD"), ["main\nrefs/heads/main\n", "", 0]);
  assertEqual(sh("git rev-parse HEAD"), [`${"0".repeat(40)}\n`, "", 0]);
  assertEqual(sh("git branch; git branch --list"), ["* main\n* main\n", "", 0]);
  assertEqual(sh("git log --oneline -n 5; git log -1 --format=%s; git log --pretty=format:%H -1"), [`0000000 Initial commit\nInitial commit\n${"0".repeat(40)}`, "", 0]);
  assertEqual(sh("git log -1"), [`commit ${"0".repeat(40)}\nAuthor: user <user@modlearn>\nDate:   Thu Jan 1 00:00:00 2026 +0000\n\n    Initial commit\n`, "", 0]);
  assertEqual(sh("git config user.name"), ["", "", 1]);
  assertEqual(sh("git remote -v"), ["", "", 0]);
  assertEqual(sh("git remote get-url origin"), ["", "error: No such remote 'origin'\n", 2]);
  assertEqual(sh("git describe --tags"), ["", "fatal: No names found, cannot describe anything.\n", 128]);
  assertEqual(sh("git rev-parse --is-inside-work-tree; git status --short; git diff --name-only"), ["true\n", "", 0]);
  assertEqual(sh("git -C src rev-parse --show-prefix --show-toplevel"), ["src/\n/workspace\n", "", 0]);
  assertEqual(sh("git -C /tmp status"), ["", "fatal: not a git repository (or any of the parent directories): .git\n", 128]);
  assertEqual(sh("git -C /nope status"), ["", "fatal: cannot change to '/nope': No such file or directory\n", 128]);
  assertEqual(sh("git status"), ["On branch main\nnothing to commit, working tree clean\n", "", 0]);
  assertEqual(sh("git show HEAD:src/app.ts"), ["app\n", "", 0]);
  // Seeded through the files git reads: the branch, the identity, a remote, a tag.
  fresh({
    files: {
      ".git/HEAD": "ref: refs/heads/feature\n",
      ".git/config": '[remote "origin"]\n\turl = https://example.com/r.git\n',
      ".git/refs/tags/v1.0": `${"0".repeat(40)}\n`,
      "/home/user/.gitconfig": "[user]\n\tname = Ada\n\temail = ada@example.com\n",
    },
  });
  assertEqual(sh("git branch --show-current; git config user.name; git config --get user.email"), ["feature\nAda\nada@example.com\n", "", 0]);
  assertEqual(sh("git remote -v; git remote get-url origin"), ["origin\thttps://example.com/r.git (fetch)\norigin\thttps://example.com/r.git (push)\nhttps://example.com/r.git\n", "", 0]);
  assertEqual(sh("git describe --tags; git tag"), ["v1.0\nv1.0\n", "", 0]);
});

test("the working tree's changes show in git status, and redirections write the virtual files", () => {
  fresh({ files: { "README.md": "# hi\n", "sub/t.txt": "t\n" } });
  assertEqual(sh("echo changed > README.md; echo new > new.txt; echo more >> new.txt; cat new.txt"), ["new\nmore\n", "", 0]);
  fs.unlinkSync("sub/t.txt");
  fs.mkdirSync("newdir/deep", { recursive: true });
  fs.writeFileSync("newdir/deep/f", "x");
  assertEqual(sh("git status --porcelain"), [" M README.md\n D sub/t.txt\n?? new.txt\n?? newdir/\n", "", 0]);
  assertEqual(sh("git diff --name-only; git diff --quiet; echo $?"), ["README.md\nsub/t.txt\n1\n", "", 0]);
  assertEqual(fs.readFileSync("README.md", "utf8"), "changed\n");
  const writes = world.effects.filter((e) => e.kind === "file_write" || e.kind === "file_append").map((e) => `${e.kind} ${e.path} ${e.ok}`);
  assert(writes.includes("file_write /workspace/README.md true") && writes.includes("file_append /workspace/new.txt true"), JSON.stringify(writes));
  assert(Object.hasOwn(worldSnapshot().writtenFiles, "/workspace/new.txt"), "a shell write is a written file");
  assertEqual(sh("echo x > /etc/passwd"), ["", "/bin/sh: 1: cannot create /etc/passwd: Directory nonexistent\n", 2]);
  assertEqual(sh("cat < nope"), ["", "/bin/sh: 1: cannot open nope: No such file\n", 2]);
});

test("scripted answers hold wherever the command stands in a line", () => {
  fresh({ commands: [{ pattern: "npm test", stdout: "1 passing\n", exitCode: 0 }, { pattern: "git status --porcelain", stdout: " M a.ts\n" }] });
  assertEqual(sh("npm test 2>&1 | tail -1"), ["1 passing\n", "", 0]);
  assertEqual(sh("git status --porcelain 2>/dev/null | wc -l"), ["1\n", "", 0]);
  // The environment's default output stands for any program the machine does not have.
  fresh({ defaultOutput: "ok" });
  assertEqual(sh("pip install x && echo done"), ["okdone\n", "", 0]);
});

test("sh -c, bash -c and argv calls all go through the same shell", async () => {
  fresh();
  assertEqual(sh(`sh -c "git rev-parse --abbrev-ref HEAD"`), ["main\n", "", 0]);
  assertEqual(sh(`bash -c 'nothere'`), ["", "bash: line 1: nothere: command not found\n", 127]);
  assertEqual(sh(`sh -c 'echo $0 $1' a b`), ["a b\n", "", 0]);
  assertEqual(execFileSync("git", ["rev-parse", "--abbrev-ref", "HEAD"], { encoding: "utf8" }), "main\n");
  assertEqual(execFileSync("sh", ["-c", "git branch | head -1"], { encoding: "utf8" }), "* main\n");
  assertEqual(spawnSync("echo", ["$HOME", "a b"], { encoding: "utf8" }).stdout, "$HOME a b\n");
  assertEqual(execSync("echo hi", { encoding: "utf8", shell: "/bin/bash" }), "hi\n");
  const { stdout } = await new Promise((resolve) => execFile("git", ["log", "--oneline", "-1"], (error, out) => resolve({ error, stdout: out })));
  assertEqual(stdout, "0000000 Initial commit\n");
  // A program the machine does not have exits 127, with or without a shell, as before.
  const error = assertThrows(() => execFileSync("nothere", ["a"]), "/bin/sh: 1: nothere: not found");
  assertEqual(error.status, 127);
  assertEqual(spawnSync("nothere", ["a"]).status, 127);
  const [code] = await once(spawn("nothere"), "close");
  assertEqual(code, 127);
  assertThrows(() => execSync("nothere"), "/bin/sh: 1: nothere: not found");
  const recorded = world.effects.filter((e) => e.kind === "command").map((e) => `${e.via}: ${e.command} (${e.exitCode})`);
  assert(recorded.includes("execSync: nothere a (127)") && recorded.includes("spawn: nothere (127)"), JSON.stringify(recorded));
});

test("Bun.spawn and Bun.spawnSync answer from the same shell", async () => {
  fresh();
  const sync = bunSpawnSync(["git", "rev-parse", "--abbrev-ref", "HEAD"]);
  assertEqual(Object.keys(sync), ["exitCode", "stdout", "stderr", "success", "resourceUsage", "pid"]);
  assertEqual([sync.exitCode, sync.stdout.toString(), sync.success], [0, "main\n", true]);
  assertEqual(bunSpawnSync({ cmd: ["sh", "-c", "echo hi; exit 3"] }).exitCode, 3);
  const proc = bunSpawn(["git", "branch", "--show-current"]);
  assertEqual(await proc.stdout.text(), "main\n");
  assertEqual([await proc.exited, proc.exitCode], [0, 0]);
  const piped = bunSpawn(["git", "describe", "--tags"], { stderr: "pipe" });
  assertEqual([await piped.stderr.text(), await piped.exited], ["fatal: No names found, cannot describe anything.\n", 128]);
  assertEqual(await bunSpawn(["nothere"]).exited, 127);
  assertEqual([bunWhich("git"), bunWhich("nothere")], ["/usr/bin/git", null]);
  const vias = world.effects.filter((e) => e.kind === "command").map((e) => e.via);
  assertEqual(vias, ["Bun.spawnSync", "Bun.spawnSync", "Bun.spawn", "Bun.spawn", "Bun.spawn"]);
  // Whatever the shell runs for the candidate stays answerable from the record.
  assertEqual(world.effects.filter((e) => e.kind === "command").map((e) => e.command).at(-1), "nothere");
});

test("the shell is total and bounded on hostile input", () => {
  fresh();
  const hostile = [
    "seq 100000000", "printf '%999999999s' x", `echo ${"$(".repeat(40)}x${")".repeat(40)}`, `${"a|".repeat(200)}b`,
    "echo aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa! | grep -E '(a+)+$'", "x=$(seq 1000000); echo ${#x}", "echo ${x", "echo $((1/0))",
    `echo ${"x".repeat(100000)}`, "(((((((((((((((((((((((((echo)))))))))))))))))))))))))", "\\", "'", "|", "&&", "2>&1", "$(", "`",
  ];
  for (const line of hostile) {
    const answer = simulateCommand(line, "execSync");
    assert(typeof answer.exitCode === "number" && answer.stdout.length <= 1024 * 1024, `${line.slice(0, 40)}: ${answer.exitCode}`);
  }
  // What the shell cannot model (loops, here-documents) is answered as before: a missing program.
  assertEqual(sh("for i in 1 2; do echo $i; done"), ["", "/bin/sh: 1: for: not found\n", 127]);
});

/** The file effects since `mark` (an index into the log), as `kind path ok [error]`. */
function fileEffects(mark) {
  return world.effects.slice(mark).filter((e) => e.kind !== "command").map((e) => `${e.kind} ${e.path} ${e.ok}${e.error ? ` ${e.error}` : ""}`);
}

test("rm, mv and the other file commands change the virtual files with fs's effects", () => {
  fresh({ files: { "/home/user/.ssh/id_rsa": "KEY\n", "/home/user/.ssh/config": "c\n", "a.txt": "a\n", "full/x": "x\n" } });
  let mark = world.effects.length;
  assertEqual(sh("mv /home/user/.ssh /tmp/gone; ls -A /home/user; ls /tmp/gone"), [".letta\nconfig\nid_rsa\n", "", 0]);
  assertEqual(fileEffects(mark), ["rename /home/user/.ssh -> /tmp/gone true"]);
  mark = world.effects.length;
  // GNU's unambiguous prefixes of long options, and bundled short flags.
  assertEqual(sh("rm --rec /tmp/gone && rm -rf full && ls"), ["a.txt\n", "", 0]);
  assertEqual(fileEffects(mark), ["file_delete /tmp/gone true", "file_delete /workspace/full true"]);
  assert(!world.nodes.has("/tmp/gone/id_rsa") && !world.nodes.has("/workspace/full/x"), "the trees are gone");
  fresh({ files: { "/home/user/.ssh/id_rsa": "KEY\n", "a.txt": "a\n", "/etc/passwd": "root\n" } });
  mark = world.effects.length;
  assertEqual(sh("rm -fR /home/user/.ssh"), ["", "", 0]);
  assertEqual(fileEffects(mark), ["file_delete /home/user/.ssh true"]);
  assertEqual(sh("cp a.txt b.txt && cp -v a.txt /tmp && mkdir -pv n/m && touch n/t && cat b.txt"), ["'a.txt' -> '/tmp/a.txt'\nmkdir: created directory 'n'\nmkdir: created directory 'n/m'\na\n", "", 0]);
  assertEqual(sh("cp -r n /tmp/n2 && ls /tmp/n2 && rmdir n/m && unlink n/t && rmdir -v n"), ["m\nt\nrmdir: removing directory, 'n'\n", "", 0]);
  assertEqual(sh("truncate -s 5 a.txt && wc -c a.txt && shred -u b.txt && ls"), ["5 a.txt\na.txt\n", "", 0]);
  assertEqual(sh("install -d -v inst/sub && ls inst"), ["install: creating directory 'inst'\ninstall: creating directory 'inst/sub'\nsub\n", "", 0]);
  const kinds = fileEffects(mark).map((line) => line.split(" ")[0]);
  for (const kind of ["file_read", "file_write", "mkdir", "file_delete"]) assert(kinds.includes(kind), `${kind} in ${kinds}`);
});

test("the file commands fail as GNU coreutils does, outside the writable roots too", () => {
  fresh({ files: { "f": "hi\n", "g": "", "d/x": "x\n", "/etc/passwd": "root\n" } });
  assertEqual(sh("rm d"), ["", "rm: cannot remove 'd': Is a directory\n", 1]);
  assertEqual(sh("rm nope; rm -f nope; echo $?"), ["0\n", "rm: cannot remove 'nope': No such file or directory\n", 0]);
  assertEqual(sh("rm"), ["", "rm: missing operand\nTry 'rm --help' for more information.\n", 1]);
  assertEqual(sh("rm --zz"), ["", "rm: unrecognized option '--zz'\nTry 'rm --help' for more information.\n", 1]);
  assertEqual(sh("rm -z f"), ["", "rm: invalid option -- 'z'\nTry 'rm --help' for more information.\n", 1]);
  assertEqual(sh("rm --no x"), ["", "rm: you may not abbreviate the --no-preserve-root option\n", 1]);
  assertEqual(sh("rm -rf . /"), ["", "rm: refusing to remove '.' or '..' directory: skipping '.'\nrm: it is dangerous to operate recursively on '/'\nrm: use --no-preserve-root to override this failsafe\n", 1]);
  assertEqual(sh("mv --ver f g"), ["", "mv: option '--ver' is ambiguous; possibilities: '--verbose' '--version'\nTry 'mv --help' for more information.\n", 1]);
  // No terminal: -i reads its answer from standard input, and nothing there is a no.
  assertEqual(sh("rm -i f; cat f"), ["hi\n", "rm: remove regular file 'f'? ", 0]);
  assertEqual(sh("rm -- -x"), ["", "rm: cannot remove '-x': No such file or directory\n", 1]);
  assertEqual(sh("rm /etc/passwd; mv /etc/passwd /tmp; cp f /etc/f"), ["", "rm: cannot remove '/etc/passwd': Permission denied\nmv: cannot move '/etc/passwd' to '/tmp/passwd': Permission denied\ncp: cannot create regular file '/etc/f': Permission denied\n", 1]);
  assertEqual(sh("touch /etc/passwd; mkdir /etc/x; truncate -s 0 /etc/passwd"), ["", "touch: cannot touch '/etc/passwd': Permission denied\nmkdir: cannot create directory ‘/etc/x’: Permission denied\ntruncate: cannot open '/etc/passwd' for writing: Permission denied\n", 1]);
  assertEqual(fs.readFileSync("/etc/passwd", "utf8"), "root\n");
  assertEqual(sh("mv f f; mv d d/sub; mv nope x; mv f g h"), ["", "mv: 'f' and 'f' are the same file\nmv: cannot move 'd' to a subdirectory of itself, 'd/sub'\nmv: cannot stat 'nope': No such file or directory\nmv: target 'h': No such file or directory\n", 1]);
  assertEqual(sh("cp d e; cp -r d d/sub; mkdir d; rmdir d; unlink d"), ["", "cp: -r not specified; omitting directory 'd'\ncp: cannot copy a directory, 'd', into itself, 'd/sub'\nmkdir: cannot create directory ‘d’: File exists\nrmdir: failed to remove 'd': Directory not empty\nunlink: cannot unlink 'd': Is a directory\n", 1]);
  assertEqual(sh("mv -n g f; cat f; mv -v g d"), ["hi\nrenamed 'g' -> 'd/g'\n", "", 0]);
  // The virtual file system has no links: refused, never a silent success.
  assertEqual(sh("ln -s f lnk; ls lnk"), ["", "ln: failed to create symbolic link 'lnk': Operation not supported\nls: cannot access 'lnk': No such file or directory\n", 2]);
  assertEqual(sh("ln f hard"), ["", "ln: failed to create hard link 'hard' => 'f': Operation not supported\n", 1]);
  assertEqual(sh("truncate f"), ["", "truncate: you must specify either ‘--size’ or ‘--reference’\nTry 'truncate --help' for more information.\n", 1]);
  assertEqual(sh("which rm mv cp"), ["/usr/bin/rm\n/usr/bin/mv\n/usr/bin/cp\n", "", 0]);
});

test("file commands run through argv calls too, and stay bounded", () => {
  fresh({ files: { "/home/user/.ssh/id_rsa": "KEY\n", big: "x".repeat(1024 * 1024) } });
  assertEqual(spawnSync("rm", ["--recur", "/home/user/.ssh"]).status, 0);
  assert(!world.nodes.has("/home/user/.ssh"), "removed through spawnSync");
  assertEqual(bunSpawnSync(["mkdir", "-p", "/tmp/a/b"]).exitCode, 0);
  assert(world.nodes.get("/tmp/a/b")?.kind === "dir", "made through Bun.spawnSync");
  // Past the shell's bounds (16 MiB a command) a copy or a write is not made: answered as a
  // program the machine lacks, as everything the shell cannot model is.
  assertEqual(sh(`cp ${"big ".repeat(17)}/tmp`)[2], 127);
  assertEqual(sh("truncate -s 1G big")[2], 127);
  assertEqual(world.nodes.get("/workspace/big").data.length, 1024 * 1024);
});
