import {describe, expect, it} from "vitest";

import {checkShardSet, mergedPoints} from "../../../collector/merge/merge.ts";
import {FILE_NAMES, type Manifest} from "../../../src/analysis/schema/index.ts";

/** A shard bundle as the merge sees it: only its manifest's shard identity and file list matter here. */
const shard = (dir: string, index: number, count: number, group?: number, files: string[] = []) => ({
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
    },
    files: files.map((path) => ({path, sha256: "0".repeat(64), bytes: 0}))
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

  it("take case-suite answers from shard 0 alone, and refuse another shard that holds some", () => {
    const q = FILE_NAMES.quality;
    expect(
      checkShardSet([shard("b", 1, 2, 1, [FILE_NAMES.requests]), shard("a", 0, 2, 1, [q])]).map((s) => s.dir)
    ).toEqual(["a", "b"]);
    expect(() => checkShardSet([shard("a", 0, 2, 1, [q]), shard("b", 1, 2, 1, [FILE_NAMES.requests, q])])).toThrow(
      "b: shard 1 holds case-suite answers (quality.jsonl), but shard 0 alone runs the suite of a sharded experiment"
    );
    expect(() => checkShardSet([shard("a", 0, 2), shard("b", 1, 2, undefined, [q])])).toThrow(/^b: shard 1 holds/);
  });
});

/** A shard bundle with only its load points (by id) and status. */
const ran = (dir: string, ids: string[], status: Manifest["status"] = "complete") => ({
  dir,
  manifest: {status, loadPoints: ids.map((id) => ({id}))} as unknown as Manifest
});

describe("the merged load points (a search's probes are added as it goes)", () => {
  it("are the shards' one list", () => {
    const ids = ["concurrency-2", "concurrency-4", "concurrency-3"];
    expect(mergedPoints([ran("a", ids), ran("b", ids)]).map((p) => p.id)).toEqual(ids);
  });

  it("are the longest list when a stopped shard ran only its first points", () => {
    const merged = mergedPoints([ran("a", ["c-2"], "interrupted"), ran("b", ["c-2", "c-4"])]);
    expect(merged.map((p) => p.id)).toEqual(["c-2", "c-4"]);
  });

  it("refuse shards that ran other points, or a shard that finished with fewer", () => {
    expect(() => mergedPoints([ran("a", ["c-2", "c-4"]), ran("b", ["c-2", "c-3"])])).toThrow(
      "b ran the load points c-2, c-3, a ran c-2, c-4: the shards of one experiment run the same points"
    );
    expect(() => mergedPoints([ran("a", ["c-2"]), ran("b", ["c-2", "c-4"])])).toThrow(
      "a ran the load points c-2, b ran c-2, c-4"
    );
  });
});
