import {join} from "node:path";

import {z} from "zod";

import {MemoryBandwidthProbe} from "../../src/analysis/schema/manifest.ts";
import {IsoTime, NonNegInt} from "../../src/analysis/schema/primitives.ts";
import type {Clock, Effects, Files} from "../effects.ts";
import {cacheDir} from "./cacheDir.ts";

/** Set to `off` to measure the host's memory bandwidth in every run instead of once per boot. */
export const BANDWIDTH_CACHE_ENV = "INFERSCOPE_BANDWIDTH_CACHE";
export const BOOT_ID_PATH = "/proc/sys/kernel/random/boot_id";
const FILE = "host-bandwidth.json";

/** What the probe runs: a cached probe is reused only for the same plan. */
export interface ProbePlan {
  threads: number;
  bufferBytes: number;
  passes: number;
}

const Entry = z.strictObject({
  version: z.literal(1),
  bootId: z.string().min(1),
  plan: z.strictObject({threads: NonNegInt, bufferBytes: NonNegInt, passes: NonNegInt}),
  measuredAt: IsoTime,
  probe: MemoryBandwidthProbe
});

/**
 * The host bandwidth probe, once per boot (issue 17: it was ~0.65 CPU-s of every run's fixed cost on 2
 * cores, more on a big host). A successful probe is kept in the cache folder with the Linux boot id and
 * the plan it ran; a later run on the same boot with the same plan reuses its raw trials and says so
 * (`reusedFrom`). No boot id (not Linux), no cache folder, an unreadable or foreign entry: measured now.
 * Writing the cache is best effort: a read-only home still gets its measurement.
 */
export async function bandwidthOncePerBoot(
  fx: {files: Files; clock: Clock; env: Effects["env"]},
  plan: ProbePlan,
  measure: () => Promise<MemoryBandwidthProbe>
): Promise<MemoryBandwidthProbe> {
  const dir = cacheDir(fx.env);
  const bootId = dir === null ? null : await readBootId(fx.files);
  if (dir === null || bootId === null) return measure();
  const path = join(dir, FILE);
  const cached = await readEntry(fx.files, path);
  if (cached !== null && cached.bootId === bootId && samePlan(cached.plan, plan))
    return {...cached.probe, reusedFrom: {measuredAt: cached.measuredAt, bootId}};
  const measuredAt = new Date(fx.clock.wallMs()).toISOString();
  const probe = await measure();
  if (probe.error === null && probe.trials.length > 0) {
    const entry: z.infer<typeof Entry> = {version: 1, bootId, plan, measuredAt, probe};
    try {
      await fx.files.mkdirp(dir);
      await fx.files.writeAtomic(path, JSON.stringify(entry) + "\n");
    } catch {
      // best effort: the probe stands without its cache
    }
  }
  return probe;
}

async function readBootId(files: Files): Promise<string | null> {
  try {
    const id = (await files.readFile(BOOT_ID_PATH)).toString("utf8").trim();
    return id === "" ? null : id;
  } catch {
    return null;
  }
}

async function readEntry(files: Files, path: string): Promise<z.infer<typeof Entry> | null> {
  try {
    const parsed = Entry.safeParse(JSON.parse((await files.readFile(path)).toString("utf8")));
    return parsed.success && parsed.data.probe.reusedFrom == null ? parsed.data : null;
  } catch {
    return null;
  }
}

const samePlan = (a: ProbePlan, b: ProbePlan) =>
  a.threads === b.threads && a.bufferBytes === b.bufferBytes && a.passes === b.passes;
