import {join, resolve} from "node:path";

import type {Command} from "commander";

import {analyzeBundle} from "../../src/analysis/analyze.ts";
import {fsBundle} from "../../src/io/fsBundle.ts";
import {CliError, EXIT} from "../cliError.ts";
import {defaultEffects, type Effects} from "../effects.ts";
import {MergeError, mergeShards} from "../merge/merge.ts";
import {defaultIo, type Io} from "./io.ts";

/**
 * A shard must be intact by the analyzer's own integrity gate (G1: schema, seq order, time order, record counts),
 * not only by its digests: a merge renumbers records, which would hide a shard's broken ones.
 */
async function shardIntegrity(d: string): Promise<string | null> {
  const shard = await analyzeBundle(fsBundle(d));
  if (shard.gates.find((g) => g.id === "G1")?.status !== "fail") return null;
  const errors = shard.issues.filter((i) => i.severity === "error");
  const shown = errors
    .slice(0, 5)
    .map(
      (i) => `  ${join(d, i.file)}${i.line === null ? "" : `:${i.line}`}: ${i.path ? `${i.path}: ` : ""}${i.message}`
    );
  const more = errors.length > 5 ? [`  … ${errors.length - 5} more (inferscope verify ${d})`] : [];
  return `${d}: the shard is not intact (G1):\n${[...shown, ...more].join("\n")}`;
}

/**
 * `merge`: the shard bundles of one experiment become one bundle (printed last on stdout), analysed from
 * its raw records. Exit 0 VALID, 2 the shards cannot be merged (named), 4 merged but not VALID, 5 not written.
 */
export async function mergeCommand(
  dirs: readonly string[],
  o: {out?: string},
  io: Io,
  fx: Effects = defaultEffects()
): Promise<string> {
  // an input that is not a folder is a usage error, found before the merge reads into it (ENOTDIR read as exit 5)
  for (const d of dirs) {
    const kind = await fx.files.entryKind(d).catch(() => null);
    if (kind === "file" || kind === "other")
      throw new CliError(`merge: ${d} is a ${kind}, not a sealed shard bundle folder`, {exitCode: EXIT.usage});
  }
  let merged: Awaited<ReturnType<typeof mergeShards>>;
  try {
    merged = await mergeShards(fx, dirs, o.out ?? "evidence", shardIntegrity);
  } catch (e) {
    if (e instanceof MergeError) throw new CliError(`merge: ${e.message}`, {exitCode: EXIT.usage});
    throw new CliError(`merge: cannot write the merged bundle: ${(e as Error).message}`, {
      exitCode: EXIT.writeFailed,
      cause: e
    });
  }
  const dir = resolve(merged.dir);
  const report = await analyzeBundle(fsBundle(merged.dir));
  io.err.info(`merged ${dirs.length} shards into ${merged.manifest.bundleId}: verdict ${report.verdict}`);
  for (const r of report.verdict_reasons.slice(0, 10)) io.err.info(`  ${r}`);
  io.out(dir);
  if (report.verdict !== "VALID")
    throw new CliError(`verdict ${report.verdict}: see \`inferscope analyze ${dir}\``, {exitCode: EXIT.notValid});
  return dir;
}

export function register(program: Command): void {
  program
    .command("merge")
    .description("merge the shard bundles of one sharded experiment into one bundle, recomputed from raw records")
    .argument("<bundles...>", "every shard's bundle folder")
    .option("--out <dir>", "parent folder of the merged bundle (default: evidence/)")
    .action(async (dirs: string[], o: {out?: string}) => {
      await mergeCommand(dirs, o, defaultIo());
    });
}
