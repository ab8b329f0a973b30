import {closeSync, mkdtempSync, openSync, rmSync, writeFileSync, ftruncateSync} from "node:fs";
import {totalmem, tmpdir} from "node:os";
import {join} from "node:path";
import {getHeapStatistics} from "node:v8";

import {afterAll, describe, expect, it} from "vitest";

import {heapForArgs} from "../../collector/heap.ts";

const dir = mkdtempSync(join(tmpdir(), "inferscope-heap-"));
afterAll(() => rmSync(dir, {recursive: true, force: true}));

/** A sparse file of `bytes` (no disk used): only its size matters to the check. */
function sparse(name: string, bytes: number): string {
  const p = join(dir, name);
  const fd = openSync(p, "w");
  ftruncateSync(fd, bytes);
  closeSync(fd);
  return p;
}

describe("heapForArgs: large inputs of memory-bound commands re-run with 75 % of the machine's memory", () => {
  const big = sparse("big.json", 80 << 20);
  const small = join(dir, "small.json");
  writeFileSync(small, "{}");
  const want = Math.floor((totalmem() * 0.75) / 2 ** 20);
  const roomy = getHeapStatistics().heap_size_limit / 2 ** 20 >= want;

  it("a large input to import gets 75 % of memory, unless the default heap is already as large", () => {
    expect(heapForArgs(["import", "auto", big, "--out", dir], {}, [])).toBe(roomy ? null : want);
    // a folder counts by the files inside it
    expect(heapForArgs(["analyze", dir], {}, [])).toBe(roomy ? null : want);
  });
  it("small inputs, other commands, an explicit heap size and the re-run itself are left alone", () => {
    expect(heapForArgs(["import", "auto", small, "--out", dir], {}, [])).toBeNull();
    expect(heapForArgs(["collect", big], {}, [])).toBeNull();
    expect(heapForArgs(["import", "auto", big], {}, ["--max-old-space-size=2048"])).toBeNull();
    expect(heapForArgs(["import", "auto", big], {NODE_OPTIONS: "--max-old-space-size=2048"}, [])).toBeNull();
    expect(heapForArgs(["import", "auto", big], {INFERSCOPE_HEAP_SET: "1"}, [])).toBeNull();
    expect(heapForArgs(["import", "auto", join(dir, "missing.json")], {}, [])).toBeNull();
  });
});
