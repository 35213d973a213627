// The git stub behind the virtual shell (shell.js): a repository at the seeded working
// directory with one commit of the seeded files, on branch `main` unless the seed says
// otherwise through the files git itself reads (`.git/HEAD`, `.git/config`, `.git/refs/...`,
// `~/.gitconfig`). Read-only queries answer as git 2.47 prints them when its output is not a
// terminal; the working tree's state (modified, deleted, untracked files) is the virtual file
// system's against the seed. Anything that would change the repository, and options this
// does not know, come back `unsupported` (the caller answers them as before).

import { strftime, Unsupported } from "./shell.js";

const done = (out = "", err = "", status = 0) => ({ out, err, status });
const fatal = (message, status = 128) => done("", `fatal: ${message}\n`, status);
const NOT_A_REPO = "not a git repository (or any of the parent directories): .git";

/** A relative path from `from` to `to` (both absolute), as git prints it. */
function relative(from, to) {
  const a = from === "/" ? [] : from.slice(1).split("/");
  const b = to === "/" ? [] : to.slice(1).split("/");
  let k = 0;
  while (k < a.length && k < b.length && a[k] === b[k]) k++;
  return [...a.slice(k).map(() => ".."), ...b.slice(k)].join("/");
}

/** Parses git's ini-style config: [{key, value}] with `section[.subsection].name` keys. */
function parseConfig(text) {
  const entries = [];
  let section = null;
  for (const raw of (text ?? "").split("\n")) {
    const line = raw.replace(/^\s+/, "");
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line);
    if (header) {
      const [name, ...dotted] = header[1].split(".");
      section = header[2] !== undefined ? `${name.toLowerCase()}.${header[2].replace(/\\(.)/g, "$1")}` : [name.toLowerCase(), ...dotted].join(".");
      continue;
    }
    if (section === null) continue;
    const m = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (!m) continue;
    let value = m[2] === undefined ? "true" : m[2].replace(/\s+[#;].*$/, "").trim();
    if (/^".*"$/.test(value)) value = value.slice(1, -1).replace(/\\(.)/g, (_, c) => ({ n: "\n", t: "\t" })[c] ?? c);
    entries.push({ key: `${section}.${m[1].toLowerCase()}`, value });
  }
  return entries;
}

/** A config key as git compares it: section and name lowercased, the subsection kept. */
function normalizeKey(key) {
  const parts = key.split(".");
  if (parts.length < 2) return null;
  const section = parts[0].toLowerCase();
  const name = parts[parts.length - 1].toLowerCase();
  return [section, ...parts.slice(1, -1), name].join(".");
}

const DEFAULT_LOCAL_CONFIG = "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n";

/** What the repository stub holds, read from the world each time (files may change). */
function repository(host, overrides) {
  const facts = host.repo();
  const root = facts.root;
  const text = (path) => {
    const node = host.node(path);
    return node?.kind === "file" ? host.read(path) : null;
  };
  const head = (text(`${root}/.git/HEAD`) ?? "ref: refs/heads/main\n").trim();
  const symbolic = /^ref:\s*refs\/heads\/(.+)$/.exec(head);
  const branch = symbolic ? symbolic[1] : null;
  const refSha = branch ? text(`${root}/.git/refs/heads/${branch}`)?.trim() : head;
  const sha = /^[0-9a-f]{40}$/.test(refSha ?? "") ? refSha : "0000000000000000000000000000000000000000";
  const refs = (dir) => {
    const names = [];
    const walk = (path, prefix, depth) => {
      if (depth > 8) return;
      for (const name of host.list(path) ?? []) {
        const child = `${path}/${name}`;
        const node = host.node(child);
        if (node?.kind === "dir") walk(child, `${prefix}${name}/`, depth + 1);
        else if (node?.kind === "file") names.push(`${prefix}${name}`);
      }
    };
    walk(`${root}/.git/refs/${dir}`, "", 0);
    return names;
  };
  const heads = [...new Set([...(branch ? [branch] : []), ...refs("heads")])].sort(byteOrder);
  const tags = refs("tags").sort(byteOrder);
  const local = parseConfig(text(`${root}/.git/config`) ?? DEFAULT_LOCAL_CONFIG);
  const home = host.machine.home;
  const global = [...parseConfig(text(`${home}/.config/git/config`)), ...parseConfig(text(`${home}/.gitconfig`))];
  const command = overrides.map(([key, value]) => ({ key, value }));
  const all = [...global, ...local, ...command];
  const get = (key) => all.filter((entry) => entry.key === key).map((entry) => entry.value);
  const name = get("user.name").at(-1) ?? host.machine.user;
  const email = get("user.email").at(-1) ?? `${host.machine.user}@${host.machine.hostname}`;
  return {
    root, branch, sha, heads, tags, local, global, command, all, get,
    commit: { subject: "Initial commit", body: "", name, email, time: facts.time },
    tracked: facts.tracked,
  };
}

const byteOrder = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/** The working tree against the seeded commit: [{path (from the root), state: "M"|"D"|"?"}]. */
function changes(repo, host) {
  const found = [];
  const prefix = repo.root === "/" ? "/" : `${repo.root}/`;
  const inside = (path) => path.startsWith(prefix) && !path.slice(prefix.length).split("/").includes(".git");
  for (const [path, data] of repo.tracked) {
    const node = host.node(path);
    if (!node || node.kind !== "file") found.push({ path: path.slice(prefix.length), state: "D" });
    else if (!sameBytes(node.data, data)) found.push({ path: path.slice(prefix.length), state: "M" });
  }
  // Untracked files, shown by their topmost directory that holds nothing tracked.
  const trackedDirs = new Set();
  for (const path of repo.tracked.keys()) {
    for (let dir = path.slice(0, path.lastIndexOf("/")); dir.length >= prefix.length - 1 && dir !== ""; dir = dir.slice(0, dir.lastIndexOf("/"))) {
      trackedDirs.add(dir);
    }
  }
  const ignored = ignoreRules(repo, host);
  const untracked = new Set();
  for (const path of host.files()) {
    if (!inside(path) || repo.tracked.has(path)) continue;
    const rel = path.slice(prefix.length);
    if (ignored(rel)) continue;
    const parts = rel.split("/");
    let shown = rel;
    for (let k = 1; k < parts.length; k++) {
      const dir = `${prefix}${parts.slice(0, k).join("/")}`;
      if (!trackedDirs.has(dir)) {
        shown = `${parts.slice(0, k).join("/")}/`;
        break;
      }
    }
    untracked.add(shown);
  }
  found.sort((a, b) => byteOrder(a.path, b.path));
  // Changes to tracked files first, then the untracked ones, each in path order (as git lists them).
  return [...found, ...[...untracked].sort(byteOrder).map((path) => ({ path, state: "?" }))];
}

function sameBytes(a, b) {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}

/** The root .gitignore's simple patterns (names, `dir/`, `*.ext`, anchored `/x`). */
function ignoreRules(repo, host) {
  const path = `${repo.root === "/" ? "" : repo.root}/.gitignore`;
  const node = host.node(path);
  if (node?.kind !== "file") return () => false;
  const rules = [];
  for (const raw of host.read(path).split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith("!")) continue;
    const dirOnly = line.endsWith("/");
    let pattern = dirOnly ? line.slice(0, -1) : line;
    const anchored = pattern.startsWith("/") || pattern.includes("/");
    pattern = pattern.replace(/^\//, "");
    const source = pattern.split("").map((c) => (c === "*" ? "[^/]*" : c === "?" ? "[^/]" : c.replace(/[\\^$.+()[\]{}|]/g, "\\$&"))).join("").replace(/\[\^\/\]\*\[\^\/\]\*/g, ".*");
    try {
      rules.push({ regex: new RegExp(`^${source}$`), anchored, dirOnly });
    } catch {
      // A pattern this cannot read ignores nothing.
    }
  }
  return (rel) => {
    const parts = rel.split("/");
    for (const rule of rules) {
      for (let k = 0; k < parts.length; k++) {
        const isDir = k < parts.length - 1;
        if (rule.dirOnly && !isDir) continue;
        const candidate = rule.anchored ? parts.slice(0, k + 1).join("/") : parts[k];
        if (rule.regex.test(candidate)) return true;
      }
    }
    return false;
  };
}

// ───────────────────────── dates and formats ─────────────────────────

function gitDate(ms, style) {
  switch (style ?? "default") {
    case "default": case "local": return strftime("%a %b %-d %H:%M:%S %Y +0000", ms);
    case "short": return strftime("%Y-%m-%d", ms);
    case "iso": case "iso8601": return strftime("%Y-%m-%d %H:%M:%S +0000", ms);
    case "iso-strict": case "iso8601-strict": return strftime("%Y-%m-%dT%H:%M:%SZ", ms);
    case "rfc": case "rfc2822": return strftime("%a, %-d %b %Y %H:%M:%S +0000", ms);
    case "unix": case "raw": return `${Math.floor(ms / 1000)}${style === "raw" ? " +0000" : ""}`;
    default: throw new Unsupported(`date style ${style}`);
  }
}

function relativeDate(ms, now) {
  const seconds = Math.max(0, Math.round((now - ms) / 1000));
  const unit = (n, word) => `${n} ${word}${n === 1 ? "" : "s"} ago`;
  if (seconds < 90) return unit(seconds, "second");
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return unit(minutes, "minute");
  const hours = Math.round(minutes / 60);
  if (hours < 36) return unit(hours, "hour");
  const days = Math.round(hours / 24);
  if (days < 14) return unit(days, "day");
  if (days < 70) return unit(Math.round(days / 7), "week");
  if (days < 365) return unit(Math.round(days / 30), "month");
  return unit(Math.round(days / 365), "year");
}

function decorations(repo) {
  const names = [];
  if (repo.branch) names.push(`HEAD -> ${repo.branch}`);
  else names.push("HEAD");
  for (const tag of repo.tags) names.push(`tag: ${tag}`);
  for (const head of repo.heads) if (head !== repo.branch) names.push(head);
  return names.join(", ");
}

function formatCommit(format, repo, host, dateStyle) {
  const c = repo.commit;
  const when = (style) => (style === "relative" ? relativeDate(c.time, host.now()) : gitDate(c.time, style));
  const table = {
    H: repo.sha, h: repo.sha.slice(0, 7), T: "4b825dc642cb6eb9a060e54bf8d69288fbee4904", t: "4b825dc", P: "", p: "",
    an: c.name, aN: c.name, ae: c.email, aE: c.email, al: c.email.split("@")[0], cn: c.name, cN: c.name, ce: c.email, cE: c.email, cl: c.email.split("@")[0],
    ad: when(dateStyle), cd: when(dateStyle), at: when("unix"), ct: when("unix"), ai: when("iso"), ci: when("iso"), aI: when("iso-strict"), cI: when("iso-strict"),
    as: when("short"), cs: when("short"), ar: when("relative"), cr: when("relative"), aD: when("rfc"), cD: when("rfc"),
    s: c.subject, f: c.subject.replace(/[^A-Za-z0-9.]+/g, "-").replace(/^-|-$/g, ""), b: c.body, B: `${c.subject}\n${c.body ? `\n${c.body}` : ""}`,
    n: "\n", "%": "%", d: ` (${decorations(repo)})`, D: decorations(repo), e: "", N: "", GG: "", G: "N", GS: "", GK: "",
  };
  return format.replace(/%(?:C\([^)]*\)|C(?:red|green|blue|reset)|x([0-9a-fA-F]{2})|(a[nNeElLdDrtiIsh]|c[nNeElLdDrtiIsh]|G[GSK?]|[HhTtPpsfbBnNdDeG%]))/g, (whole, hex, key) => {
    if (hex) return String.fromCharCode(Number.parseInt(hex, 16));
    if (key === undefined) return "";
    if (!Object.hasOwn(table, key)) throw new Unsupported(`format %${key}`);
    return table[key];
  });
}

// ───────────────────────── subcommands ─────────────────────────

/** Parses a `-n N`, `-N`, `--max-count=N` style count out of a log's arguments. */
function takeCount(args, k) {
  const arg = args[k];
  let m = /^-(\d+)$/.exec(arg) ?? /^-n(\d+)$/.exec(arg) ?? /^--max-count=(\d+)$/.exec(arg);
  if (m) return { count: Number(m[1]), next: k + 1 };
  if ((arg === "-n" || arg === "--max-count") && /^\d+$/.test(args[k + 1] ?? "")) return { count: Number(args[k + 1]), next: k + 2 };
  return null;
}

/** Resolves a revision to the one commit, or null. */
function resolveRev(rev, repo) {
  if (["HEAD", "@", repo.sha, "HEAD~0", "HEAD^0", "@~0"].includes(rev)) return repo.sha;
  if (/^[0-9a-f]{4,40}$/.test(rev) && repo.sha.startsWith(rev)) return repo.sha;
  const name = rev.replace(/^refs\/(heads|tags)\//, "");
  if (repo.heads.includes(name) || repo.tags.includes(name)) return repo.sha;
  return null;
}

function log(args, repo, host, show) {
  let count = show ? 1 : Infinity;
  let format = null;
  let separator = false;
  let oneline = false;
  let decorate = false;
  let abbrev = false;
  let dateStyle = null;
  let noPatch = !show;
  for (let k = 0; k < args.length;) {
    const counted = takeCount(args, k);
    if (counted) { count = counted.count; k = counted.next; continue; }
    const arg = args[k++];
    if (arg === "--oneline") oneline = true;
    else if (arg.startsWith("--format=") || arg.startsWith("--pretty=")) {
      const value = arg.slice(arg.indexOf("=") + 1);
      if (value === "oneline") format = "%H %s";
      else if (value === "medium") format = null;
      else if (value.startsWith("format:")) { format = value.slice(7); separator = true; }
      else if (value.startsWith("tformat:")) format = value.slice(8);
      else if (["short", "full", "fuller", "raw", "email", "reference"].includes(value)) throw new Unsupported(`pretty ${value}`);
      else format = value;
    } else if (arg === "--decorate" || arg === "--decorate=short") decorate = true;
    else if (arg === "--abbrev-commit") abbrev = true;
    else if (arg.startsWith("--date=")) dateStyle = arg.slice(7);
    else if (["--no-decorate", "--no-merges", "--first-parent", "--reverse", "--all", "--no-color", "--color=never", "--no-abbrev-commit", "--topo-order", "--date-order"].includes(arg)) continue;
    else if ((arg === "-s" || arg === "--no-patch" || arg === "--quiet") && show) noPatch = true;
    else if (arg.startsWith("-")) throw new Unsupported(`log option ${arg}`);
    else if (resolveRev(arg, repo) === null) {
      return fatal(`ambiguous argument '${arg}': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'`);
    }
  }
  if (!noPatch) throw new Unsupported("show with a patch");
  if (count === 0) return done();
  const c = repo.commit;
  if (oneline && format === null) return done(`${repo.sha.slice(0, 7)} ${decorate ? `(${decorations(repo)}) ` : ""}${c.subject}\n`);
  if (format !== null) {
    const text = formatCommit(format, repo, host, dateStyle);
    return done(separator ? text + (show ? "\n" : "") : `${text}\n`);
  }
  const id = abbrev || oneline ? repo.sha.slice(0, 7) : repo.sha;
  return done(`commit ${id}${decorate ? ` (${decorations(repo)})` : ""}\nAuthor: ${c.name} <${c.email}>\nDate:   ${gitDate(c.time, dateStyle)}\n\n    ${c.subject}\n`);
}

function revParse(args, repo, cwd) {
  let out = "";
  let abbrevRef = false;
  let short = null;
  let full = false;
  let verify = false;
  let quiet = false;
  const revs = [];
  for (const arg of args) {
    if (arg === "--abbrev-ref" || arg === "--abbrev-ref=strict" || arg === "--abbrev-ref=loose") abbrevRef = true;
    else if (arg === "--short") short = 7;
    else if (arg.startsWith("--short=")) short = Math.max(4, Math.min(40, Number(arg.slice(8)) || 7));
    else if (arg === "--symbolic-full-name") full = true;
    else if (arg === "--verify") verify = true;
    else if (arg === "-q" || arg === "--quiet") quiet = true;
    else if (arg === "--show-toplevel") out += `${repo.root}\n`;
    else if (arg === "--is-inside-work-tree") out += "true\n";
    else if (arg === "--is-inside-git-dir" || arg === "--is-bare-repository" || arg === "--is-shallow-repository") out += "false\n";
    else if (arg === "--git-dir") out += `${cwd === repo.root ? ".git" : `${repo.root === "/" ? "" : repo.root}/.git`}\n`;
    else if (arg === "--absolute-git-dir") out += `${repo.root === "/" ? "" : repo.root}/.git\n`;
    else if (arg === "--git-common-dir") out += `${cwd === repo.root ? ".git" : relative(cwd, `${repo.root}/.git`)}\n`;
    else if (arg === "--show-prefix") out += `${cwd === repo.root ? "" : `${relative(repo.root, cwd)}/`}\n`;
    else if (arg === "--show-cdup") out += `${cwd === repo.root ? "" : `${relative(cwd, repo.root)}/`}\n`;
    else if (arg === "--show-superproject-working-tree") continue;
    else if (arg === "--") break;
    else if (arg.startsWith("-")) throw new Unsupported(`rev-parse ${arg}`);
    else revs.push(arg);
  }
  if (verify && revs.length !== 1) return quiet ? done(out, "", 1) : done(out, "fatal: Needed a single revision\n", 128);
  for (const rev of revs) {
    const upstream = /^(.*?)@\{(u|upstream|push)\}$/i.exec(rev);
    if (upstream) {
      const branch = upstream[1] === "" || upstream[1] === "HEAD" ? repo.branch : upstream[1];
      if (branch === null) return fatal("HEAD does not point to a branch");
      return done(out, `fatal: no upstream configured for branch '${branch}'\n`, 128);
    }
    const sha = resolveRev(rev, repo);
    if (sha === null) {
      if (verify) return quiet ? done(out, "", 1) : done(out, "fatal: Needed a single revision\n", 128);
      return done(`${out}${rev}\n`, `fatal: ambiguous argument '${rev}': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'\n`, 128);
    }
    if (abbrevRef || full) {
      const isHead = ["HEAD", "@"].includes(rev);
      const name = isHead ? repo.branch : rev.replace(/^refs\/(heads|tags)\//, "");
      if (name === null) out += "HEAD\n";
      else if (full) out += `${repo.tags.includes(name) && !repo.heads.includes(name) ? "refs/tags/" : "refs/heads/"}${name}\n`;
      else out += `${name}\n`;
      continue;
    }
    out += `${short ? sha.slice(0, short) : sha}\n`;
  }
  return done(out);
}

function branchCommand(args, repo) {
  let verbose = false;
  let format = null;
  let remotes = false;
  let all = false;
  let list = false;
  const patterns = [];
  for (const arg of args) {
    if (arg === "--show-current") return done(repo.branch ? `${repo.branch}\n` : "");
    if (arg === "-v" || arg === "-vv" || arg === "--verbose") verbose = true;
    else if (arg === "-a" || arg === "--all") all = true;
    else if (arg === "-r" || arg === "--remotes") remotes = true;
    else if (arg === "-l" || arg === "--list") list = true;
    else if (arg.startsWith("--format=")) format = arg.slice(9);
    else if (["--no-color", "--color=never", "--no-column", "--column=never", "--omit-empty"].includes(arg) || arg.startsWith("--sort=")) continue;
    else if (arg.startsWith("-")) throw new Unsupported(`branch ${arg}`);
    else patterns.push(arg);
  }
  if (patterns.length > 0 && !list) throw new Unsupported("branch creation");
  if (remotes && !all) return done();
  const matches = (name) => patterns.length === 0 || patterns.some((p) => new RegExp(`^${p.replace(/[\\^$.+()[\]{}|]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".")}$`).test(name));
  const names = repo.heads.filter(matches);
  const lines = [];
  if (repo.branch === null && format === null && patterns.length === 0) lines.push(`* (HEAD detached at ${repo.sha.slice(0, 7)})${verbose ? ` ${repo.sha.slice(0, 7)} ${repo.commit.subject}` : ""}`);
  const width = Math.max(0, ...names.map((n) => n.length));
  for (const name of names) {
    const current = name === repo.branch;
    if (format !== null) {
      lines.push(format.replace(/%\((refname(?::short)?|HEAD|objectname(?::short)?|subject|upstream(?::short)?)\)/g, (_, key) => ({
        refname: `refs/heads/${name}`, "refname:short": name, HEAD: current ? "*" : " ", objectname: repo.sha, "objectname:short": repo.sha.slice(0, 7),
        subject: repo.commit.subject, upstream: "", "upstream:short": "",
      })[key]));
      continue;
    }
    const mark = current ? "* " : "  ";
    lines.push(verbose ? `${mark}${name.padEnd(width)} ${repo.sha.slice(0, 7)} ${repo.commit.subject}` : `${mark}${name}`);
  }
  return done(lines.map((line) => `${line}\n`).join(""));
}

function status(args, repo, host, cwd) {
  let mode = "long";
  let branchLine = false;
  let untrackedMode = "normal";
  let nul = false;
  for (const arg of args) {
    if (arg === "--porcelain" || arg === "--porcelain=v1") mode = "porcelain";
    else if (arg === "-s" || arg === "--short") mode = mode === "porcelain" ? mode : "short";
    else if (arg === "-b" || arg === "--branch") branchLine = true;
    else if (arg === "-sb" || arg === "-bs") { mode = "short"; branchLine = true; }
    else if (arg === "-z") nul = true;
    else if (arg === "-uno" || arg === "--untracked-files=no") untrackedMode = "no";
    else if (arg === "-u" || arg === "-uall" || arg === "--untracked-files" || arg === "--untracked-files=all") untrackedMode = "all";
    else if (arg === "-unormal" || arg === "--untracked-files=normal") untrackedMode = "normal";
    else if (["--no-color", "--color=never", "--ignore-submodules", "--no-renames", "--no-ahead-behind", "--long"].includes(arg)) continue;
    else throw new Unsupported(`status ${arg}`);
  }
  if (nul || untrackedMode === "all") throw new Unsupported("status -z / -uall");
  let list = changes(repo, host);
  if (untrackedMode === "no") list = list.filter((c) => c.state !== "?");
  const rel = (path) => {
    if (mode === "porcelain") return path;
    const absolute = `${repo.root === "/" ? "" : repo.root}/${path}`;
    const shown = relative(cwd, absolute.replace(/\/$/, "")) || ".";
    return path.endsWith("/") ? `${shown}/` : shown;
  };
  if (mode !== "long") {
    let out = branchLine ? `## ${repo.branch ?? "HEAD (no branch)"}\n` : "";
    for (const c of list) out += `${c.state === "?" ? "??" : ` ${c.state}`} ${rel(c.path)}\n`;
    return done(out);
  }
  let out = repo.branch ? `On branch ${repo.branch}\n` : `HEAD detached at ${repo.sha.slice(0, 7)}\n`;
  const tracked = list.filter((c) => c.state !== "?");
  const untracked = list.filter((c) => c.state === "?");
  if (tracked.length > 0) {
    const rm = tracked.some((c) => c.state === "D");
    out += `Changes not staged for commit:\n  (use "git ${rm ? "add/rm" : "add"} <file>..." to update what will be committed)\n  (use "git restore <file>..." to discard changes in working directory)\n`;
    for (const c of tracked) out += `\t${c.state === "D" ? "deleted: " : "modified:"}   ${rel(c.path)}\n`;
    out += "\n";
  }
  if (untracked.length > 0) {
    out += `Untracked files:\n  (use "git add <file>..." to include in what will be committed)\n`;
    for (const c of untracked) out += `\t${rel(c.path)}\n`;
    out += "\n";
  }
  if (tracked.length > 0) out += `no changes added to commit (use "git add" and/or "git commit -a")\n`;
  else if (untracked.length > 0) out += `nothing added to commit but untracked files present (use "git add" to track)\n`;
  else out += "nothing to commit, working tree clean\n";
  return done(out);
}

function diff(args, repo, host) {
  let mode = "patch";
  let cached = false;
  let quiet = false;
  let exitCode = false;
  for (const arg of args) {
    if (arg === "--name-only") mode = "names";
    else if (arg === "--name-status") mode = "status";
    else if (arg === "--stat" || arg === "--numstat" || arg === "--shortstat") mode = arg.slice(2);
    else if (arg === "--cached" || arg === "--staged") cached = true;
    else if (arg === "--quiet") { quiet = true; exitCode = true; }
    else if (arg === "--exit-code") exitCode = true;
    else if (arg === "HEAD" || arg === "--no-color" || arg === "--color=never" || arg === "--no-ext-diff") continue;
    else throw new Unsupported(`diff ${arg}`);
  }
  const list = cached ? [] : changes(repo, host).filter((c) => c.state !== "?");
  const status = exitCode && list.length > 0 ? 1 : 0;
  if (quiet || list.length === 0) return done("", "", status);
  if (mode === "names") return done(list.map((c) => `${c.path}\n`).join(""), "", status);
  if (mode === "status") return done(list.map((c) => `${c.state}\t${c.path}\n`).join(""), "", status);
  throw new Unsupported("a diff with content");
}

function describe(args, repo) {
  let tags = false;
  let always = false;
  let dirty = null;
  let exact = false;
  let abbrev = 7;
  for (const arg of args) {
    if (arg === "--tags") tags = true;
    else if (arg === "--always") always = true;
    else if (arg === "--exact-match") exact = true;
    else if (arg === "--dirty") dirty = "-dirty";
    else if (arg.startsWith("--dirty=")) dirty = arg.slice(8);
    else if (arg.startsWith("--abbrev=")) abbrev = Number(arg.slice(9));
    else if (arg === "HEAD" || arg === "--long" || arg === "--first-parent") continue;
    else throw new Unsupported(`describe ${arg}`);
  }
  const suffix = dirty !== null && repo.isDirty() ? dirty : "";
  if (tags && repo.tags.length > 0) return done(`${repo.tags[repo.tags.length - 1]}${suffix}\n`);
  if (exact) return fatal(`no tag exactly matches '${repo.sha}'`);
  if (always) return done(`${repo.sha.slice(0, abbrev || 7)}${suffix}\n`);
  if (repo.tags.length > 0) return fatal(`No annotated tags can describe '${repo.sha}'.\nHowever, there were unannotated tags: try --tags.`);
  return fatal("No names found, cannot describe anything.");
}

function config(args, repo, inRepo) {
  let scope = null;
  let action = "get";
  let showNames = false;
  const rest = [];
  for (const arg of args) {
    if (arg === "--global" || arg === "--local" || arg === "--system") scope = arg.slice(2);
    else if (arg === "--get") action = "get";
    else if (arg === "--get-all") action = "get-all";
    else if (arg === "--get-regexp") action = "get-regexp";
    else if (arg === "--list" || arg === "-l") action = "list";
    else if (arg === "--name-only") showNames = true;
    else if (arg === "--includes" || arg === "--no-includes") continue;
    else if (arg.startsWith("-")) throw new Unsupported(`config ${arg}`);
    else rest.push(arg);
  }
  if (rest[0] === "get" && rest.length === 2) rest.shift();
  else if (rest[0] === "list" && rest.length === 1) { rest.shift(); action = "list"; }
  if (scope === "local" && !inRepo) return fatal("--local can only be used inside a git repository");
  const entries = scope === "global" ? repo.global : scope === "local" ? repo.local : scope === "system" ? [] : inRepo ? repo.all : [...repo.global, ...repo.command];
  if (action === "list") {
    if (rest.length > 0) throw new Unsupported("config list arguments");
    return done(entries.map((e) => (showNames ? `${e.key}\n` : `${e.key}=${e.value}\n`)).join(""));
  }
  if (action === "get-regexp") {
    let regex;
    try {
      regex = new RegExp(rest[0] ?? "");
    } catch {
      return done("", `error: invalid key pattern: ${rest[0]}\n`, 6);
    }
    const hits = entries.filter((e) => regex.test(e.key));
    return done(hits.map((e) => (showNames ? `${e.key}\n` : `${e.key} ${e.value}\n`)).join(""), "", hits.length ? 0 : 1);
  }
  if (rest.length !== 1) throw new Unsupported("config write");
  const key = normalizeKey(rest[0]);
  if (key === null) return done("", `error: key does not contain a section: ${rest[0]}\n`, 2);
  const values = entries.filter((e) => e.key === key).map((e) => e.value);
  if (values.length === 0) return done("", "", 1);
  return done(action === "get-all" ? values.map((v) => `${v}\n`).join("") : `${values[values.length - 1]}\n`);
}

function remotes(repo) {
  const names = [];
  for (const entry of repo.all) {
    const m = /^remote\.(.+)\.url$/.exec(entry.key);
    if (m && !names.includes(m[1])) names.push(m[1]);
  }
  return names;
}

function remote(args, repo) {
  const names = remotes(repo);
  const url = (name) => repo.get(`remote.${name}.url`).at(-1);
  if (args.length === 0) return done(names.map((n) => `${n}\n`).join(""));
  if (args.length === 1 && (args[0] === "-v" || args[0] === "--verbose")) {
    return done(names.map((n) => `${n}\t${url(n)} (fetch)\n${n}\t${repo.get(`remote.${n}.pushurl`).at(-1) ?? url(n)} (push)\n`).join(""));
  }
  if (args[0] === "get-url") {
    const rest = args.slice(1).filter((a) => a !== "--push" && a !== "--all");
    if (rest.length !== 1) throw new Unsupported("remote get-url usage");
    if (!names.includes(rest[0])) return done("", `error: No such remote '${rest[0]}'\n`, 2);
    return done(`${url(rest[0])}\n`);
  }
  throw new Unsupported(`remote ${args[0]}`);
}

function lsFiles(args, repo, host, cwd) {
  let which = "cached";
  for (const arg of args) {
    if (arg === "-o" || arg === "--others") which = "others";
    else if (arg === "-m" || arg === "--modified") which = "modified";
    else if (arg === "-d" || arg === "--deleted") which = "deleted";
    else if (arg === "-c" || arg === "--cached" || arg === "--exclude-standard" || arg === "--full-name") continue;
    else throw new Unsupported(`ls-files ${arg}`);
  }
  const prefix = repo.root === "/" ? "/" : `${repo.root}/`;
  let paths;
  if (which === "cached") paths = [...repo.tracked.keys()].map((p) => p.slice(prefix.length));
  else {
    const list = changes(repo, host);
    if (which === "others") {
      const ignored = ignoreRules(repo, host);
      paths = host.files().filter((p) => p.startsWith(prefix) && !repo.tracked.has(p)).map((p) => p.slice(prefix.length)).filter((p) => !p.split("/").includes(".git") && !ignored(p));
    } else paths = list.filter((c) => (which === "deleted" ? c.state === "D" : c.state === "M" || c.state === "D")).map((c) => c.path);
  }
  const base = cwd === repo.root ? "" : `${relative(repo.root, cwd)}/`;
  const shown = paths.filter((p) => p.startsWith(base)).map((p) => p.slice(base.length)).sort(byteOrder);
  return done(shown.map((p) => `${p}\n`).join(""));
}

function showCommand(args, repo, host) {
  const blob = args.length === 1 ? /^(?:HEAD|@|[0-9a-f]{7,40})?:(.+)$/.exec(args[0]) : null;
  if (blob) {
    const path = `${repo.root === "/" ? "" : repo.root}/${blob[1].replace(/^\.\//, "")}`;
    const data = repo.tracked.get(path);
    if (!data) return fatal(`path '${blob[1]}' does not exist in 'HEAD'`);
    return done(host.decode(data));
  }
  return log(args, repo, host, true);
}

/**
 * git's own commands: one the stub does not model still fails as a git command does (so a
 * line's `|| fallback` runs, as it would on a machine where it failed), where a name git does
 * not know is git's "not a git command".
 */
const GIT_COMMANDS = new Set([
  "add", "am", "archive", "bisect", "blame", "branch", "bundle", "cat-file", "checkout", "cherry", "cherry-pick", "clean",
  "clone", "commit", "config", "count-objects", "describe", "diff", "diff-files", "diff-index", "diff-tree", "fetch",
  "for-each-ref", "format-patch", "fsck", "gc", "grep", "hash-object", "init", "log", "ls-files", "ls-remote", "ls-tree",
  "merge", "merge-base", "mv", "name-rev", "notes", "pull", "push", "range-diff", "rebase", "reflog", "remote", "reset",
  "restore", "rev-list", "rev-parse", "revert", "rm", "shortlog", "show", "show-ref", "sparse-checkout", "stash", "status",
  "submodule", "switch", "symbolic-ref", "tag", "update-index", "update-ref", "var", "verify-commit", "version", "whatchanged",
  "worktree", "write-tree",
]);

/** Subcommands that change files or history, which this machine's git does not run. */
const CHANGING = new Set(["rm", "mv", "clean", "checkout", "restore", "reset", "stash", "switch", "apply", "am", "merge", "rebase", "pull", "cherry-pick", "revert", "worktree", "submodule", "filter-branch", "gc", "prune", "update-ref", "commit", "add", "tag", "branch"]);

/**
 * Answers `git ARGS` run in `cwd`: {out, err, status}. What the stub does not model fails as
 * git fails, rather than taking the whole command line with it.
 */
export function runGit(argv, { cwd, host, ran }) {
  try {
    return git(argv, cwd, host);
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
    const sub = argv.find((arg, index) => !arg.startsWith("-") && !["-C", "-c"].includes(argv[index - 1]));
    // A real git would have changed files here; what it changed no record shows.
    if (ran && CHANGING.has(sub)) ran.partial ??= `git ${sub} (${error.message}) does not run on this machine`;
    if (sub !== undefined && !GIT_COMMANDS.has(sub)) return done("", `git: '${sub}' is not a git command. See 'git --help'.\n`, 1);
    return fatal(`${error.message} is not available on this machine`);
  }
}

function git(argv, cwd, host) {
  const args = [...argv];
  const overrides = [];
  while (args.length > 0 && args[0].startsWith("-")) {
    const option = args.shift();
    if (option === "-C") {
      const dir = args.shift();
      if (dir === undefined) return done("", "error: no directory given for '-C' option\n", 129);
      const path = host.resolve(cwd, dir);
      if (host.node(path)?.kind !== "dir") return fatal(`cannot change to '${dir}': ${host.node(path) ? "Not a directory" : "No such file or directory"}`);
      cwd = path;
    } else if (option === "-c") {
      const pair = args.shift() ?? "";
      const index = pair.indexOf("=");
      const key = normalizeKey(index < 0 ? pair : pair.slice(0, index));
      if (key) overrides.push([key, index < 0 ? "true" : pair.slice(index + 1)]);
    } else if (["--no-pager", "--no-optional-locks", "-P", "--literal-pathspecs", "--no-replace-objects"].includes(option)) continue;
    else throw new Unsupported(`git ${option}`);
  }
  const sub = args.shift();
  if (sub === undefined) throw new Unsupported("git usage");
  const repo = repository(host, overrides);
  repo.isDirty = () => changes(repo, host).length > 0;
  const inRepo = repo.root === "/" || cwd === repo.root || cwd.startsWith(`${repo.root}/`);
  if (sub === "config") return config(args, repo, inRepo);
  const handlers = {
    "rev-parse": () => revParse(args, repo, cwd),
    "symbolic-ref": () => {
      const short = args.includes("--short");
      const quiet = args.includes("-q") || args.includes("--quiet");
      const names = args.filter((a) => !a.startsWith("-"));
      if (names.length !== 1 || names[0] !== "HEAD") throw new Unsupported("symbolic-ref usage");
      if (repo.branch === null) return quiet ? done("", "", 1) : fatal("ref HEAD is not a symbolic ref");
      return done(short ? `${repo.branch}\n` : `refs/heads/${repo.branch}\n`);
    },
    branch: () => branchCommand(args, repo),
    log: () => log(args, repo, host, false),
    show: () => showCommand(args, repo, host),
    status: () => status(args, repo, host, cwd),
    diff: () => diff(args, repo, host),
    describe: () => describe(args, repo),
    remote: () => remote(args, repo),
    tag: () => {
      const list = args.filter((a) => !["-l", "--list", "--no-color"].includes(a) && !a.startsWith("--sort="));
      if (list.length > 0 && !(list[0] === "--points-at" && ["HEAD", "@"].includes(list[1]) && list.length === 2)) throw new Unsupported("tag");
      return done(repo.tags.map((t) => `${t}\n`).join(""));
    },
    "rev-list": () => {
      const count = args.includes("--count");
      const revs = args.filter((a) => !a.startsWith("-"));
      if (args.some((a) => a.startsWith("-") && a !== "--count" && a !== "--all") || revs.some((r) => resolveRev(r, repo) === null)) throw new Unsupported("rev-list");
      return done(count ? "1\n" : `${repo.sha}\n`);
    },
    "ls-files": () => lsFiles(args, repo, host, cwd),
    stash: () => {
      if (args[0] === "list" && args.length === 1) return done();
      throw new Unsupported("stash");
    },
  };
  if (!Object.hasOwn(handlers, sub)) throw new Unsupported(`git ${sub}`);
  if (!inRepo) return fatal(NOT_A_REPO);
  return handlers[sub]();
}
