/**
 * npm run test:mutation -- <folder> [--incremental] [--timeout-factor F] [--skip FILE,…] [--static]
 * Mutation testing (StrykerJS with its vitest runner) of one folder of src/analysis, e.g. `gates` mutates
 * src/analysis/gates/**\/*.ts. Only the fast in-process unit tests listed in vitest.mutation.config.ts run
 * against the mutants, each mutant only against the tests that cover it. Not part of `npm test` or CI.
 *
 * Writes reports/mutation/<folder>/{mutation.html,mutation.json,survivors.txt,summary.json} and prints the
 * score last. --incremental reuses reports/mutation/<folder>/incremental.json from the previous run.
 * --timeout-factor (Stryker's timeoutFactor, default 1.5): raise it on a loaded machine, where a slow
 * test run is otherwise counted as a detected mutant (a timeout).
 * --static also tests the static mutants (code run when a module loads, outside any test: zod schemas and their
 * descriptions, bilingual labels, constant tables). Without it they are ignored and counted apart: Stryker
 * cannot tell which tests cover such a mutant, so each one runs the whole mutation suite (about 2 minutes here),
 * and 52 of specBlock.ts's 196 mutants alone would take most of an hour.
 * Exit codes: 0 done (whatever the score), 1 Stryker failed, 2 usage.
 */
import {existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync} from "node:fs";
import {join, relative, resolve} from "node:path";
import {parseArgs} from "node:util";

import {Stryker} from "@stryker-mutator/core";
import {globSync} from "glob";

const ROOT = resolve(import.meta.dirname, "..");
const ANALYSIS = join(ROOT, "src", "analysis");
const USAGE =
  "usage: npm run test:mutation -- <folder> [--incremental] [--timeout-factor F] [--skip FILE,…] [--static]   (folder: a subfolder of src/analysis; --skip: files of it not mutated, e.g. schema.ts: zod declarations every test loads; --static: test the static mutants too)";

const folders = readdirSync(ANALYSIS).filter((name) => statSync(join(ANALYSIS, name)).isDirectory());
const {values: flags, positionals} = parseArgs({
  options: {
    incremental: {type: "boolean", default: false},
    "timeout-factor": {type: "string", default: "1.5"},
    skip: {type: "string", default: ""},
    static: {type: "boolean", default: false}
  },
  allowPositionals: true
});
const folder = positionals[0];
if (folder === undefined || positionals.length > 1) {
  console.error(USAGE);
  process.exit(2);
}
if (!folders.includes(folder)) {
  console.error(`unknown src/analysis folder: ${folder} (one of: ${folders.sort().join(", ")})`);
  process.exit(2);
}

const timeoutFactor = Number(flags["timeout-factor"]);
const skipped = (flags.skip ?? "").split(",").filter((f) => f !== "");
if (!Number.isFinite(timeoutFactor) || timeoutFactor < 1) {
  console.error(`--timeout-factor must be a number ≥ 1, got ${flags["timeout-factor"]}`);
  process.exit(2);
}

const out = join("reports", "mutation", folder);
const tempDirName = join(out, ".stryker-tmp");
mkdirSync(join(ROOT, tempDirName), {recursive: true});
// The peer tests read ../shared/fixtures/peers relative to the working directory, which is the sandbox
// (<tempDirName>/sandbox-…) during a run: point <tempDirName>/shared at the same folder so they run there too.
const shared = resolve(ROOT, "..", "shared");
const sharedLink = join(ROOT, tempDirName, "shared");
if (existsSync(shared) && !existsSync(sharedLink)) symlinkSync(shared, sharedLink);

process.chdir(ROOT);
// read by vitest.mutation.config.ts in Stryker's test runner processes, which inherit this environment
process.env.INFERSCOPE_MUTATION_ISOLATE = flags.static ? "1" : "0";
// The code as mutated, read before the run: survivors.txt quotes it even if the tree changes during a run.
const sources = new Map<string, string[]>(
  globSync(`src/analysis/${folder}/**/*.ts`, {cwd: ROOT, absolute: true}).map((f) => [
    f,
    readFileSync(f, "utf8").split("\n")
  ])
);
const t0 = process.hrtime.bigint();
let results: Awaited<ReturnType<Stryker["runMutationTest"]>> | undefined;
try {
  results = await new Stryker({
    testRunner: "vitest",
    vitest: {configFile: "vitest.mutation.config.ts", related: true},
    mutate: [
      `src/analysis/${folder}/**/*.ts`,
      ...skipped.map((f) => `!src/analysis/${folder}/${f}`) // Stryker's negated patterns
    ],
    coverageAnalysis: "perTest",
    ignoreStatic: !flags.static,
    concurrency: 2,
    timeoutFactor,
    incremental: flags.incremental,
    incrementalFile: join(out, "incremental.json"),
    tempDirName,
    ignorePatterns: ["dist", ".astro", ".demo", "tmp", "docs/screenshots", "reports"],
    reporters: ["progress-append-only", "clear-text", "html", "json"],
    clearTextReporter: {reportMutants: false, reportTests: false},
    htmlReporter: {fileName: join(out, "mutation.html")},
    jsonReporter: {fileName: join(out, "mutation.json")}
  }).runMutationTest();
} catch (error) {
  console.error(`stryker failed on src/analysis/${folder}: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  rmSync(sharedLink, {force: true});
  if (existsSync(join(ROOT, tempDirName)) && readdirSync(join(ROOT, tempDirName)).length === 0)
    rmSync(join(ROOT, tempDirName), {recursive: true});
}

if (results) {
  const minutes = Number(process.hrtime.bigint() - t0) / 6e10;
  const count = (status: string) => results.filter((m) => m.status === status).length;
  const [killed, survived, timeout, noCoverage] = ["Killed", "Survived", "Timeout", "NoCoverage"].map(count);
  const detected = killed! + timeout!;
  const valid = detected + survived! + noCoverage!;
  // Stryker's mutation score: detected / valid; compile and runtime errors and ignored mutants are not valid.
  const score = valid > 0 ? (100 * detected) / valid : undefined;
  /** The mutated code (locations are 1-based); a multi-line one as its first line and "…". */
  const original = ({fileName, location: {start, end}}: (typeof results)[number]) => {
    const lines = sources.get(resolve(fileName)) ?? [];
    const first = lines[start.line - 1] ?? "";
    return start.line === end.line ? first.slice(start.column - 1, end.column - 1) : `${first.trim()} …`;
  };
  const survivors = results
    .filter((m) => m.status === "Survived" || m.status === "NoCoverage")
    .map((m) => {
      const at = `${relative(ROOT, m.fileName)}:${m.location.start.line}:${m.location.start.column}`;
      const change = `${JSON.stringify(original(m))} → ${JSON.stringify(m.replacement ?? "")}`;
      return `${at} ${m.status} ${m.mutatorName}: ${change.replace(/\s+/g, " ")}`;
    })
    .sort((a, b) => a.localeCompare(b, "en", {numeric: true}));
  writeFileSync(join(out, "survivors.txt"), survivors.map((line) => `${line}\n`).join(""));
  const other = Object.fromEntries(
    ["CompileError", "RuntimeError", "Ignored"].map((s) => [s, count(s)]).filter(([, n]) => n !== 0)
  );
  const summary = {folder, score, killed, survived, timeout, noCoverage, other, total: results.length, minutes};
  writeFileSync(join(out, "summary.json"), `${JSON.stringify(summary, null, 2)}\n`);
  console.log(`reports: ${out}/ (mutation.html, survivors.txt); wall time ${minutes.toFixed(1)} min`);
  if (Object.keys(other).length > 0) console.log(`not counted: ${JSON.stringify(other)}`);
  console.log(
    `mutation score ${folder}: ${score === undefined ? "—" : score.toFixed(2)} % ` +
      `(killed ${killed}, survived ${survived}, timeout ${timeout}, no coverage ${noCoverage})`
  );
}
