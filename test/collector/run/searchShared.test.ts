import {describe, expect, it} from "vitest";

import {RunControl} from "../../../collector/load/control.ts";
import {planSearches} from "../../../collector/load/plan.ts";
import type {ProbeJudgement, RunContext} from "../../../collector/run/context.ts";
import {runSearch} from "../../../collector/run/search.ts";
import type {SearchExchange, SharedVerdict} from "../../../collector/run/searchExchange.ts";
import type {BundleWriter} from "../../../collector/writer/bundleWriter.ts";
import {testConfig} from "../helpers.ts";

/**
 * A shard's search goes on from the shared verdict, never from its own judgement of its slice, and ends
 * when the shards cannot judge a probe together (issue 17).
 */
const config = testConfig("http://127.0.0.1:9/v1", {
  load: [{mode: "search", over: "concurrency", range: [2, 8], requests: 20}]
});
const OWN: ProbeJudgement = {status: "fail", margin: 2, reason: "own slice", summary: null};
const RECORDS = [{index: 0}] as never[];
const SHARED: ProbeJudgement = {status: "pass", margin: 0.5, reason: "every shard's", summary: null};

async function search(answers: SharedVerdict[]) {
  const notes: {event: string; detail: Record<string, unknown>}[] = [];
  const c = {
    control: new RunControl(),
    rel: () => 0,
    judgeProbe: () => OWN
  } as unknown as RunContext;
  const writer = {
    note: (_t: number, event: string, detail: Record<string, unknown>) => void notes.push({event, detail})
  } as unknown as BundleWriter;
  const shared: number[] = [];
  const exchange: SearchExchange = {
    share: async ({n, point, records}, judge) => {
      shared.push(n);
      // what shard 0 would judge: this shard's records of this probe (and every other shard's)
      expect(point).toBe(`concurrency-${[2, 4, 3][n]}`);
      expect(records).toEqual(RECORDS);
      expect(judge([])).toEqual(OWN);
      return answers[n]!;
    }
  };
  await runSearch(c, writer, planSearches(config)[0]!, async () => RECORDS, exchange);
  return {notes, shared};
}

describe("runSearch with a shard's exchange", () => {
  it("takes each probe's verdict from the exchange", async () => {
    const fail: SharedVerdict = {kind: "verdict", judgement: {...SHARED, status: "fail"}};
    // 2 passes (shared; the shard's own slice said fail), 4 fails, 3 fails: the answer is 2
    const {notes, shared} = await search([{kind: "verdict", judgement: SHARED}, fail, fail]);
    expect(shared).toEqual([0, 1, 2]);
    const verdicts = notes.filter((n) => n.event === "search_verdict").map((n) => [n.detail.value, n.detail.status]);
    expect(verdicts).toEqual([
      [2, "pass"],
      [4, "fail"],
      [3, "fail"]
    ]);
    expect(notes.at(-1)).toMatchObject({event: "search_end", detail: {answer: 2}});
  });

  it("ends the search when the shards could not judge a probe together", async () => {
    const {notes} = await search([{kind: "abort", reason: "shard 1: no records after 600 s"}]);
    expect(notes.map((n) => n.event)).toEqual(["search_start", "search_probe", "search_exchange", "search_end"]);
    expect(notes[3]!.detail).toMatchObject({
      answer: null,
      probes: 0,
      reason: "the shards could not judge probe concurrency-2 together: shard 1: no records after 600 s"
    });
  });
});
