import {mkdtempSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";

import {afterAll, describe, expect, it} from "vitest";

import {HardwareDataError} from "../../src/analysis/index.ts";
import {readHardwareData} from "../../src/io/hardware.ts";

const dir = mkdtempSync(join(tmpdir(), "inferscope-hw-"));
afterAll(() => rmSync(dir, {recursive: true, force: true}));

describe("readHardwareData: the shipped files and a build's own prices", () => {
  it("reads and validates the shipped catalogue, engine matrix and price table", () => {
    const d = readHardwareData();
    expect(d.catalogue.gpus.length).toBeGreaterThanOrEqual(18);
    expect(d.engines.features.length).toBeGreaterThan(0);
    expect(d.prices.prices.length).toBeGreaterThan(0);
    expect(d.overrides).toEqual([]);
  });

  it("adds the build's price file as overrides", () => {
    const f = join(dir, "mine.yaml");
    writeFileSync(f, "prices:\n  - {gpu: cpu-host, usd_per_gpu_hour: 0.12}\n");
    expect(readHardwareData(undefined, f).overrides).toEqual([
      {gpu: "cpu-host", kind: "owned", usd_per_gpu_hour: 0.12}
    ]);
  });

  it("names the file and line of a bad price, never a stack trace", () => {
    const f = join(dir, "bad.yaml");
    writeFileSync(f, "prices:\n  - {gpu: h100-sxm, usd_per_gpu_hour: -1}\n");
    expect(() => readHardwareData(undefined, f)).toThrow(HardwareDataError);
    expect(() => readHardwareData(undefined, f)).toThrow(/bad\.yaml:2:\d+: prices\[0\]\.usd_per_gpu_hour/);
  });
});
