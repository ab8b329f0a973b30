/**
 * Writes configs/traces/inferscope-mini-trace.jsonl: a small Mooncake-format trace made for this project
 * (deterministic: mulberry32, seed 16).   npx node scripts/makeMiniTrace.ts
 *
 * 80 requests over ~30 s: 50 spread at random over the 30 s and three bursts of 10 within 300 ms each. 85% of
 * the requests open with one of four system-prompt families (2, 4, 1 and 3 shared 512-token blocks); a fifth of
 * those continue an earlier request of their family (its whole hash_ids, then new blocks), the rest add 1–8
 * blocks of their own; the other 15% share nothing. input_length fills its last block partly, so
 * ceil(input_length / 512) == hash_ids.length on every line; output_length is 16–400.
 */
import {writeFileSync} from "node:fs";
import {join} from "node:path";

import {parseTrace} from "../collector/workload/trace.ts";
import {mulberry32} from "../src/analysis/stats/prng.ts";

const SEED = 16;
const BLOCK = 512;
const SPAN_MS = 30_000;
const BACKGROUND = 50;
const BURSTS = [6_000, 15_000, 24_000];
const BURST_SIZE = 10;
const BURST_MS = 300;
/** Shared prefix blocks of each family, and how often a request picks it (the rest: no family). */
const FAMILIES = [
  {blocks: 2, weight: 0.35},
  {blocks: 4, weight: 0.25},
  {blocks: 1, weight: 0.15},
  {blocks: 3, weight: 0.1}
];
const CONTINUE = 0.2;

const u = mulberry32(SEED);
const int = (lo: number, hi: number): number => lo + Math.floor(u() * (hi - lo + 1));

/** Arrival times (ms, integers, sorted, the first at 0). */
function arrivals(): number[] {
  const t: number[] = [];
  for (let i = 0; i < BACKGROUND; i++) t.push(u() * SPAN_MS);
  for (const b of BURSTS) for (let i = 0; i < BURST_SIZE; i++) t.push(b + u() * BURST_MS);
  t.sort((a, b) => a - b);
  const first = t[0]!;
  return t.map((x) => Math.round(x - first));
}

let nextId = 0;
const prefixes = FAMILIES.map((f) => Array.from({length: f.blocks}, () => nextId++));
const byFamily: number[][][] = FAMILIES.map(() => []);

/** The hash_ids of one request: a family's prefix (or an earlier request of it), then fresh blocks. */
function hashIds(): number[] {
  let r = u();
  const family = FAMILIES.findIndex((f) => (r -= f.weight) < 0);
  const fresh = (n: number) => Array.from({length: n}, () => nextId++);
  if (family < 0) return fresh(int(1, 6));
  const earlier = byFamily[family]!;
  const ids =
    earlier.length > 0 && u() < CONTINUE
      ? [...earlier[int(0, earlier.length - 1)]!, ...fresh(int(1, 3))]
      : [...prefixes[family]!, ...fresh(int(1, 8))];
  earlier.push(ids);
  return ids;
}

const lines = arrivals().map((timestamp) => {
  const ids = hashIds();
  const input = (ids.length - 1) * BLOCK + int(1, BLOCK);
  return `{"timestamp": ${timestamp}, "input_length": ${input}, "output_length": ${int(16, 400)}, "hash_ids": [${ids.join(", ")}]}`;
});
const text = `${lines.join("\n")}\n`;
parseTrace(text, "inferscope-mini-trace.jsonl"); // the file must read back
const out = join(import.meta.dirname, "..", "configs", "traces", "inferscope-mini-trace.jsonl");
writeFileSync(out, text);
console.log(`wrote ${lines.length} lines to ${out}`);
