import {readFileSync} from "node:fs";

import {describe, expect, it} from "vitest";

import {importPeer} from "../../../src/analysis/index.ts";
import {latencyOrderContradictions} from "../../../src/analysis/peers/shared/latencyOrder.ts";
import {f} from "../synthetic.ts";

/**
 * An aggregate file whose statistics contradict the order of a request's times: a first token, or a gap between
 * tokens, is part of the request, so its mean and its maximum over the same requests cannot exceed the request
 * latency's. A wrong unit on one metric breaks both (the audit's hostile AIPerf file: time_to_first_token avg
 * 82.85 with unit "s" beside request_latency avg 5,172 ms). Aggregates alone cannot say which number is wrong.
 */
const PAIRS = [["ttft", "latency"]] as const;

describe("latencyOrderContradictions", () => {
  it("names a pair whose mean and maximum both break the order, each in its own unit", () => {
    const agg = {
      ttft: {unit: "s", avg: 82.85, max: 102.3, min: 76.3},
      latency: {unit: "ms", avg: 5172, max: 7378, min: 3091}
    };
    // 82.85 s = 82,850 ms > 5,172 ms; 102.3 s > 7,378 ms
    expect(latencyOrderContradictions(agg, PAIRS)).toEqual([
      "ttft avg 82.85 s > latency avg 5172 ms and ttft max 102.3 s > latency max 7378 ms (a part of a request cannot last longer than the request: is the unit of ttft or latency wrong?)"
    ]);
  });

  it("the same numbers in consistent units are no contradiction: 82.85 ms < 5,172 ms", () => {
    const agg = {ttft: {unit: "ms", avg: 82.85, max: 102.3}, latency: {unit: "s", avg: 5.172, max: 7.378}};
    expect(latencyOrderContradictions(agg, PAIRS)).toEqual([]);
  });

  it("one statistic alone out of order is not enough (different populations can do that)", () => {
    const meanOnly = {ttft: {unit: "ms", avg: 90, max: 100}, latency: {unit: "ms", avg: 80, max: 500}};
    expect(latencyOrderContradictions(meanOnly, PAIRS)).toEqual([]);
    const maxOnly = {ttft: {unit: "ms", avg: 50, max: 600}, latency: {unit: "ms", avg: 80, max: 500}};
    expect(latencyOrderContradictions(maxOnly, PAIRS)).toEqual([]);
  });

  it("equal values, a missing metric, an unknown unit or a missing statistic say nothing", () => {
    const equal = {ttft: {unit: "ms", avg: 80, max: 500}, latency: {unit: "ms", avg: 80, max: 500}};
    expect(latencyOrderContradictions(equal, PAIRS)).toEqual([]);
    expect(latencyOrderContradictions({ttft: {unit: "s", avg: 9, max: 9}}, PAIRS)).toEqual([]);
    const unknownUnit = {ttft: {unit: "fortnights", avg: 9, max: 9}, latency: {unit: "ms", avg: 1, max: 1}};
    expect(latencyOrderContradictions(unknownUnit, PAIRS)).toEqual([]);
    const noMax = {ttft: {unit: "s", avg: 9}, latency: {unit: "ms", avg: 1, max: 1}};
    expect(latencyOrderContradictions(noMax, PAIRS)).toEqual([]);
  });
});

describe("importers warn on an aggregate that contradicts itself, and keep its numbers", () => {
  const withUnit = (path: string, metric: string, unit: string) => {
    const v = JSON.parse(readFileSync(f(path), "utf8")) as Record<string, Record<string, unknown>>;
    const block = (v.records ?? v) as Record<string, Record<string, unknown>>;
    block[metric] = {...block[metric], unit};
    return JSON.stringify(v);
  };

  it("AIPerf: time_to_first_token in seconds beside request_latency in ms", () => {
    const name = "profile_export_aiperf.json";
    const text = withUnit("aiperf/later/profile_export_aiperf.json", "time_to_first_token", "s");
    const r = importPeer("aiperf", [{name, text}]);
    expect(r.ok).toBe(true);
    const w = (r.ok && r.value.warnings) || [];
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(
      /^profile_export_aiperf\.json: the file contradicts itself: time_to_first_token avg .* s > request_latency avg .* ms/
    );
    const plain = importPeer("aiperf", [
      {name, text: readFileSync(f("aiperf/later/profile_export_aiperf.json"), "utf8")}
    ]);
    expect(plain.ok && (plain.value.warnings ?? [])).toEqual([]);
  });

  it("GenAI-Perf: inter_token_latency in seconds beside request_latency in ms", () => {
    const name = "profile_export_genai_perf.json";
    const text = withUnit("genai-perf/profile_export_genai_perf.json", "inter_token_latency", "s");
    const r = importPeer("genai-perf", [{name, text}]);
    expect(r.ok).toBe(true);
    expect((r.ok && r.value.warnings) || []).toEqual([
      expect.stringMatching(/^profile_export_genai_perf\.json: the file contradicts itself: inter_token_latency avg/)
    ]);
  });
});
