import {describe, expect, it} from "vitest";

import {analyzeBundle} from "../../src/analysis/index.ts";
import {fsBundle} from "../../src/io/fsBundle.ts";
import {fixtureDir, fixtureNames} from "../support/fixtures.ts";
import {expectGolden, stableJson} from "../support/golden.ts";

describe("analyzer golden output per fixture bundle", () => {
  for (const name of fixtureNames())
    it(`analyzes ${name}`, async () => {
      const report = await analyzeBundle(fsBundle(fixtureDir(name)));
      expectGolden(`analysis/${name}.json`, stableJson(report));
    });

  it("is deterministic: two analyses of one bundle are byte-identical", async () => {
    const a = stableJson(await analyzeBundle(fsBundle(fixtureDir("clean"))));
    const b = stableJson(await analyzeBundle(fsBundle(fixtureDir("clean"))));
    expect(a).toBe(b);
  });
});
