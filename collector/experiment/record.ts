import {join} from "node:path";

import {ExperimentRecord, type ExperimentSeal} from "../../src/analysis/schema/experiment.ts";
import {sha256Hex} from "../../src/io/hash.ts";
import type {Effects} from "../effects.ts";

export const RECORD_FILE = "experiment.json";
export const SEAL_FILE = "experiment.seal.json";

/** Reads an earlier run's record (for --resume); a record that does not validate is an error naming the file. */
export async function readRecord(fx: Pick<Effects, "files">, dir: string): Promise<ExperimentRecord | null> {
  const path = join(dir, RECORD_FILE);
  if (!(await fx.files.exists(path))) return null;
  let value: unknown;
  try {
    value = JSON.parse((await fx.files.readFile(path)).toString("utf8"));
  } catch (e) {
    throw new Error(`${path}: not JSON (${(e as Error).message})`, {cause: e});
  }
  const parsed = ExperimentRecord.safeParse(value);
  if (!parsed.success)
    throw new Error(
      `${path}: not an experiment record: ${parsed.error.issues
        .map((i) => `${i.path.join(".")}: ${i.message}`)
        .slice(0, 5)
        .join("; ")}`
    );
  return parsed.data;
}

/** Writes the record as it stands (atomically; after every variant, so a kill loses at most the current one). */
export async function writeRecord(fx: Pick<Effects, "files">, dir: string, record: ExperimentRecord): Promise<void> {
  await fx.files.writeAtomic(join(dir, RECORD_FILE), `${JSON.stringify(ExperimentRecord.parse(record), null, 2)}\n`);
}

/** Seals the record: the sha256 and size of experiment.json and every log file it names, written last. */
export async function sealRecord(
  fx: Pick<Effects, "files">,
  dir: string,
  record: ExperimentRecord
): Promise<ExperimentSeal> {
  await writeRecord(fx, dir, record);
  const paths = [RECORD_FILE, ...record.variants.flatMap((v) => (v.logFile === null ? [] : [v.logFile]))];
  const files: ExperimentSeal["files"] = [];
  for (const path of [...new Set(paths)].sort()) {
    if (!(await fx.files.exists(join(dir, path)))) continue;
    const bytes = await fx.files.readFile(join(dir, path));
    files.push({path, bytes: bytes.length, sha256: sha256Hex(bytes)});
  }
  const seal = {files};
  await fx.files.writeAtomic(join(dir, SEAL_FILE), `${JSON.stringify(seal, null, 2)}\n`);
  return seal;
}
