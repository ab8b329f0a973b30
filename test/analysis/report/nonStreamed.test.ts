import {describe, expect, it} from "vitest";

import {GATES} from "../../../src/analysis/gates/registry.ts";
import {judgeSlo} from "../../../src/analysis/metrics/goodput.ts";
import {isNonStreamed, NOT_STREAMED} from "../../../src/analysis/metrics/streams.ts";
import {deriveRequest} from "../../../src/analysis/derive/request.ts";
import {SloSpec, type RequestRecord} from "../../../src/analysis/schema/index.ts";
import {analyzeSpec, cleanRun, request} from "../../support/bundle.ts";

/**
 * A load point of embeddings requests, built by hand: 20 answers back to back at concurrency 1, each 8 ms
 * long, of 12 prompt tokens. Expected values are worked out here: window 0 → 160 ms; 20 / 0.16 s = 125
 * req/s and 240 / 0.16 s = 1,500 input tok/s; E2E 8 ms each.
 */
const MS = 1e6;
type NoSeq = Omit<RequestRecord, "seq">;
const embedding = (i: number, over: Partial<NoSeq> = {}): NoSeq =>
  request(`e${i}`, i * 8, [], {
    endMs: i * 8 + 8,
    finishReason: null,
    usage: {promptTokens: 12, completionTokens: null, reasoningTokens: null, cachedTokens: null},
    usageSource: "server_final",
    maxTokens: null,
    body: {bytes: 700, json: true, inputs: 1, vectors: [64], nonFinite: 0, head: ""},
    ...over
  });
const run = (n: number, over: (i: number) => Partial<NoSeq> = () => ({})) =>
  analyzeSpec(cleanRun(Array.from({length: n}, (_, i) => embedding(i, over(i)))));

describe("a load point of non-streamed requests (embeddings)", () => {
  it("is VALID; its rates and E2E are the hand-computed ones", async () => {
    const r = await run(20);
    expect(r.verdict, r.verdict_reasons.join("\n")).toBe("VALID");
    const m = r.load_points[0]!.metrics as Record<string, {value?: number | null; p50?: number | null; n?: number}>;
    expect(m.request_throughput_rps!.value).toBeCloseTo(125, 9);
    expect(m.input_throughput_tok_s!.value).toBeCloseTo(1500, 9);
    expect(m.e2e_ms!.p50).toBe(8);
    expect(m.e2e_ms!.n).toBe(20);
  });

  it("a stream's metrics and gates say why they do not apply; the others are judged as always", async () => {
    const r = await run(20);
    const m = r.load_points[0]!.metrics as Record<string, {value?: number | null; reason?: string; note?: string}>;
    expect(NOT_STREAMED).toMatch(/^not applicable: embeddings answer once/);
    expect(m.output_throughput_tok_s).toEqual({value: null, reason: NOT_STREAMED});
    expect(m.ttft_ms!.note).toBe(NOT_STREAMED);
    expect(m.e2e_ms!.note).toBeUndefined();
    const streamGates = GATES.filter((g) => g.scope === "point" && g.streamsOnly).map((g) => g.id);
    expect(streamGates.sort()).toEqual(["G10", "G11", "G13", "G16", "G19", "G29", "G31", "G8", "G9"]);
    for (const g of r.gates)
      if (streamGates.includes(g.id))
        expect([g.id, g.status, g.reason]).toEqual([g.id, "not_applicable", NOT_STREAMED]);
      else expect(g.reason, g.id).not.toBe(NOT_STREAMED);
  });

  it("a point that mixes a stream in is judged as a stream", async () => {
    const r = await analyzeSpec(
      cleanRun([
        ...Array.from({length: 19}, (_, i) => embedding(i)),
        request("s", 152, [
          [153 * MS, 40, "content", null],
          [154 * MS, 40, "content", null],
          [155 * MS, 40, "finish", null]
        ])
      ])
    );
    expect(r.gates.find((g) => g.id === "G8")!.status).not.toBe("not_applicable");
    expect(isNonStreamed({measured: 20, nonStreamed: 19})).toBe(false);
    expect(isNonStreamed({measured: 0, nonStreamed: 0})).toBe(false);
    expect(isNonStreamed({measured: 3, nonStreamed: 3})).toBe(true);
  });

  it("judges the E2E clause at its bound: equal meets it, unknown misses it", () => {
    const slo = SloSpec.parse({e2e_ms: 8});
    expect(judgeSlo(deriveRequest({seq: 0, ...embedding(0)}), slo).good).toBe(true); // 8 ms = 8 ms
    const noEnd = judgeSlo(deriveRequest({seq: 0, ...embedding(0, {tEndNs: null})}), slo);
    expect(noEnd).toEqual({good: false, missed: ["e2e unknown"], shortOutput: false});
  });
});
