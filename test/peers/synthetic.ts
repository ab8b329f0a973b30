import {readFileSync} from "node:fs";
import {join} from "node:path";

import {SYNTH} from "./helpers.ts";

/**
 * Synthetic files of every format (test/fixtures/peers-synthetic, written by make.py whose aggregates are
 * computed with numpy under each tool's definitions), so the importers are tested on every machine.
 * Each tool's `<tool>/synthetic.test.ts` reads them through these.
 */
export const f = (p: string) => join(SYNTH, p);
export const json = (p: string) => JSON.parse(readFileSync(f(p), "utf8")) as Record<string, unknown>;
export const lines = (p: string) =>
  readFileSync(f(p), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
export const V1 = "inferscope-v1/results/raw/20250801T100000000000Z-abcdef12-concurrency-2-r0";
