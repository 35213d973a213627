// Judges one candidate with Letta Code's own learning harness, for the differential test
// (tests/cli/letta_diff.rs). Letta's code is imported from the checkout named by LETTA_CODE_DIR,
// never copied here.
//
//   LETTA_CODE_DIR=/path/to/letta-code bun tests/letta-diff/run-letta.ts SPEC CANDIDATE
//   LETTA_CODE_DIR=/path/to/letta-code bun tests/letta-diff/run-letta.ts --reload N CANDIDATE
//
// The first prints {"passed", "score", "checks": [{"label", "passed", "message"}]} on stdout:
// one entry per assertion check, labelled `<scenario>: <n>. <type>[ <tool>]` as Letta labels
// them (Letta judges only its own four assertion types and skips the others). The second
// prints {"cycles": [{"loaded", "events", "tools", "commands"}]}: what Letta's engine has
// registered after each of N reloads of the unchanged file.
import { copyFile, mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

const argv = process.argv.slice(2);
const lettaDir = process.env.LETTA_CODE_DIR;
const usage = "usage: LETTA_CODE_DIR=DIR bun run-letta.ts SPEC CANDIDATE | --reload N CANDIDATE";
if (!lettaDir || argv.length !== (argv[0] === "--reload" ? 3 : 2)) {
  console.error(usage);
  process.exit(2);
}
const lettaModule = (file: string) => import(path.join(path.resolve(lettaDir), file));

const scratch = await mkdtemp(path.join(os.tmpdir(), "letta-diff-"));
try {
  const result = argv[0] === "--reload"
    ? await reloads(Number(argv[1]), argv[2])
    : await judge(argv[0], argv[1]);
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  await rm(scratch, { recursive: true, force: true });
}
// A mod's leaked interval would keep Bun alive: Letta's dispose does not clear it.
process.exit(0);

// The spec's assertion checks, judged by Letta's runModLearning.
async function judge(specPath: string, candidatePath: string) {
  const { runModLearning } = await lettaModule("src/mods/learning-harness.ts");
  const spec = JSON.parse(await readFile(specPath, "utf8"));
  const report = await runModLearning({
    spec,
    repoRoot: scratch,
    runDir: path.join(scratch, "run"),
    // As Letta runs it: the candidate is copied to `mods/<slug>.ts` (no candidateFileName), so a
    // .js file is TypeScript to it.
    candidateSourcePath: path.resolve(candidatePath),
    // Prompt scenarios would start a Letta agent; the corpus has none, and a spec that has one
    // must fail loudly rather than be judged differently.
    commandRunner: async () => {
      throw new Error("run-letta.ts: prompt scenarios are not supported");
    },
  });
  const checks = report.evaluation.assertionChecks.map(
    (check: { label: string; passed: boolean; message: string }) => ({
      label: check.label,
      passed: check.passed,
      message: check.message,
    }),
  );
  return { passed: report.passed, score: report.score, checks };
}

// What Letta's engine registers on each of `count` reloads of the unchanged candidate (`/reload`
// in one engine), as modlearn's reload_idempotent cycles report it: loaded, event handler counts
// (events with none left out), tool and command names.
async function reloads(count: number, candidatePath: string) {
  const { createModEngine } = await lettaModule("src/mods/mod-engine.ts");
  const modsDir = path.join(scratch, "mods");
  await mkdir(modsDir, { recursive: true });
  await copyFile(path.resolve(candidatePath), path.join(modsDir, path.basename(candidatePath)));
  const engine = createModEngine({
    cacheDirectory: path.join(scratch, "mod-cache"),
    getClient: async () => ({}),
    globalModsDirectory: modsDir,
  });
  const cycles = [];
  try {
    for (let cycle = 0; cycle < count; cycle += 1) {
      await engine.reload();
      const snapshot = engine.getSnapshot();
      const events = Object.fromEntries(
        Object.entries(snapshot.events as Record<string, unknown[]>)
          .filter(([, handlers]) => (handlers?.length ?? 0) > 0)
          .map(([name, handlers]) => [name, handlers.length]),
      );
      cycles.push({
        loaded: snapshot.loadedPaths.length > 0,
        events,
        tools: Object.keys(snapshot.tools).sort(),
        commands: Object.keys(snapshot.commands).sort(),
      });
    }
  } finally {
    engine.dispose();
  }
  return { cycles };
}
