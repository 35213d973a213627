// The same-run baseline of `modlearn bench --letta-baseline DIR`: Letta Code's own learning
// harness (`runModLearning` from the letta-code checkout in LETTA_CODE_DIR, imported, never
// copied) judging each candidate file of a plan in turn, as `learn-mod.ts --candidate` would,
// the whole list `rounds` times. Prints {"evaluations", "roundsMs"} (evaluations per round, the
// time of each round); the first evaluation warms Bun up and is not counted.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

const [planPath] = process.argv.slice(2);
const lettaDir = process.env.LETTA_CODE_DIR;
if (!lettaDir || !planPath) {
  console.error("usage: LETTA_CODE_DIR=DIR bun letta-harness-baseline.ts PLAN");
  process.exit(2);
}
const { runModLearning } = await import(path.join(path.resolve(lettaDir), "src/mods/learning-harness.ts"));
const plan: { spec: string; candidates: string[]; rounds: number } = JSON.parse(await readFile(planPath, "utf8"));
const spec = JSON.parse(await readFile(plan.spec, "utf8"));
const scratch = await mkdtemp(path.join(os.tmpdir(), "letta-bench-"));

async function judge(candidate: string, index: number) {
  await runModLearning({
    spec,
    repoRoot: scratch,
    runDir: path.join(scratch, `run-${index}`),
    candidateSourcePath: path.resolve(candidate),
    candidateFileName: path.basename(candidate),
    commandRunner: async () => {
      throw new Error("letta-harness-baseline.ts: prompt scenarios are not timed");
    },
  });
}

try {
  await judge(plan.candidates[0], -1);
  const roundsMs: number[] = [];
  for (let round = 0; round < plan.rounds; round++) {
    const started = performance.now();
    for (const [index, candidate] of plan.candidates.entries()) await judge(candidate, round * plan.candidates.length + index);
    roundsMs.push(performance.now() - started);
  }
  process.stdout.write(`${JSON.stringify({ evaluations: plan.candidates.length, roundsMs })}\n`);
} finally {
  await rm(scratch, { recursive: true, force: true });
}
