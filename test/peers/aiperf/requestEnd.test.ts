import {readFileSync} from "node:fs";

import {describe, expect, it} from "vitest";

import {importPeer} from "../../../src/analysis/index.ts";
import {f} from "../synthetic.ts";

/**
 * AIPerf's MetricRecordMetadata.request_end_ns: "the wall clock timestamp of the request end time … If the request
 * failed, this will be the time of the error" (ai-dynamo/aiperf, record_models.py). It is the request's end: on a
 * real file (databloom/aiperf-lab-tests, llama-3.2-3b concurrency 1) it lies ~21 ms after the last response of
 * each success and ~20.4 s after the start of each TimeoutError. Without it, the 10 timeouts of that run counted
 * as taking no time and G5 read a mean of 0.03 requests in flight for a concurrency-1 run that was busy 99.9 %.
 */
const text = readFileSync(f("aiperf/later/profile_export.jsonl"), "utf8");
const lines = text.trim().split("\n");
const importLines = (ls: readonly string[]) =>
  importPeer("aiperf", [{name: "profile_export.jsonl", text: ls.join("\n") + "\n"}]);

describe("AIPerf request_end_ns is the request's end", () => {
  it("every record ends at its request_end_ns, a cancelled one at the time it was cancelled", () => {
    const r = importLines(lines);
    expect(r.ok).toBe(true);
    // request_end_ns − the earliest request_start_ns, worked from the fixture's metadata
    const ends = r.ok ? r.value.requests.map((q) => [q.id, q.tEndNs]) : [];
    expect(ends).toEqual([
      ["req-0", 138_000_000],
      ["req-1", 154_000_000],
      ["req-2", 172_000_000],
      ["req-3", 187_000_000],
      ["req-4", 204_000_000],
      ["req-5", 5_100_000]
    ]);
  });

  it("a generation without request_end_ns leaves the end unknown, with the reason", () => {
    const r = importPeer("aiperf", [
      {name: "profile_export.jsonl", text: readFileSync(f("aiperf/2025-10/profile_export.jsonl"), "utf8")}
    ]);
    const q = r.ok ? r.value.requests[0]! : null;
    expect(q?.tEndNs).toBeNull();
    expect(q?.nullReasons?.tEndNs).toMatch(/records no request end \(request_end_ns\)/);
  });

  it("an end before the request's start or before its last response is refused, naming the line", () => {
    const edit = (i: number, end: (md: Record<string, number>) => number) =>
      lines.map((l, k) => {
        if (k !== i) return l;
        const rec = JSON.parse(l) as {metadata: Record<string, number>};
        rec.metadata.request_end_ns = end(rec.metadata);
        return JSON.stringify(rec);
      });
    const before = importLines(edit(5, (md) => md.request_start_ns! - 1_000_000));
    expect(before.ok).toBe(false);
    expect(!before.ok && before.errors[0]!.path).toBe("line 6 $.metadata.request_end_ns");
    expect(!before.ok && before.errors[0]!.expected).toMatch(/^a request end no earlier than a request start/);
    // req-0 starts at 0 and its last chunk comes ~130 ms later: an end 1 ms after its start is before it
    const early = importLines(edit(0, (md) => md.request_start_ns! + 1_000_000));
    expect(early.ok).toBe(false);
    expect(!early.ok && early.errors[0]!.path).toBe("line 1 $.metadata.request_end_ns");
  });
});
