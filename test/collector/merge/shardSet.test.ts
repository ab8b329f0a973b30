import {describe, expect, it} from "vitest";

import {checkShardSet} from "../../../collector/merge/merge.ts";
import type {Manifest} from "../../../src/analysis/schema/index.ts";

/** A shard bundle as the merge sees it: only its manifest's shard identity matters here. */
const shard = (dir: string, index: number, count: number, group?: number) => ({
  dir,
  manifestSha256: "0".repeat(64),
  manifest: {
    shard: {
      index,
      count,
      ...(group === undefined ? {} : {group}),
      planSha256: "a".repeat(64),
      startAt: null,
      startLateNs: 0,
      timeSync: {source: null, synchronized: null, offsetMs: null, raw: null, reason: "test"}
    }
  } as unknown as Manifest
});

describe("the shards of one experiment (issue 17)", () => {
  it("are put in index order when complete", () => {
    expect(checkShardSet([shard("b", 1, 2, 3), shard("a", 0, 2, 3)]).map((s) => s.dir)).toEqual(["a", "b"]);
  });

  it("refuses shards dealt in other units (whole conversations on one, single requests on the other)", () => {
    expect(() => checkShardSet([shard("a", 0, 2, 3), shard("b", 1, 2)])).toThrow(
      "b deals its plan in units of 1 ordinal(s), a in units of 3: not shards of one experiment"
    );
  });

  it("reads a shard that names no unit as one ordinal at a time (bundles before units)", () => {
    expect(checkShardSet([shard("a", 0, 2), shard("b", 1, 2, 1)])).toHaveLength(2);
  });
});
