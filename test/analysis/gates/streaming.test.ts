import {describe, expect, it} from "vitest";

import {clientExplained} from "../../../src/analysis/gates/streaming.ts";
import type {Manifest} from "../../../src/analysis/schema/index.ts";
import {mulberry32} from "../../../src/analysis/stats/prng.ts";
import {
  analyzeSpec,
  cleanRun,
  ev,
  failedRequest,
  gateOf,
  lane,
  loopSamples,
  metricOf,
  MS,
  request,
  tokenEvents,
  type BundleSpec
} from "../../support/bundle.ts";

/** 20 back-to-back requests with request `i` replaced. */
function replace(i: number, make: (schedMs: number) => ReturnType<typeof request>, over: Partial<BundleSpec> = {}) {
  const requests = lane("r", 20);
  requests[i] = {...make(i * 100), index: i};
  return cleanRun(requests, over);
}

const IMPORTED: Partial<Manifest> = {
  provenance: {
    kind: "imported",
    tool: "vllm",
    toolVersion: null,
    files: [{name: "bench.json", sha256: "a".repeat(64), bytes: 10}]
  }
};

const mean = (v: unknown) => (v as {mean: number | null}).mean;

describe("G9 reasoning channel recognised", () => {
  it("passes when no reasoning channel is seen", async () => {
    const r = await analyzeSpec(cleanRun(lane("r", 20)));
    expect(gateOf(r, "G9").status).toBe("pass");
    expect(gateOf(r, "G9").reason).toBe("no reasoning channel seen");
  });

  it("no successful stream is not a pass: G9 and G16 are not evaluable (nothing was inspected)", async () => {
    const r = await analyzeSpec(
      cleanRun(Array.from({length: 20}, (_, i) => failedRequest(`f${i}`, i * 100, {index: i})))
    );
    for (const id of ["G9", "G16"])
      expect(gateOf(r, id), id).toMatchObject({
        status: "not_evaluable",
        reason: "no successful streamed request to inspect"
      });
  });

  it("reports a recognised reasoning channel as info: ttft_ms counts it, ttft_content_ms does not", async () => {
    // r6: 5 reasoning deltas from 5 ms, then 10 content deltas from 25 ms (4 ms apart); the others: content from 5 ms
    const events = [
      ...tokenEvents(5, 605, 4, {kind: "reasoning"}),
      ...tokenEvents(10, 625, 4),
      ev(662, "finish"),
      ev(663, "done")
    ];
    const r = await analyzeSpec(replace(6, (s) => request("r6", s, events, {out: 15, endMs: s + 100})));
    expect(gateOf(r, "G9").status).toBe("info");
    expect(gateOf(r, "G9").reason).toBe(
      "1 requests streamed a reasoning channel (ttft_ms counts it; ttft_content_ms does not)"
    );
    // ttft_ms: 5 ms for all 20; ttft_content_ms: (19 × 5 + 25) / 20 = 6 ms
    expect(mean(metricOf(r, "ttft_ms"))).toBeCloseTo(5, 9);
    expect(mean(metricOf(r, "ttft_content_ms"))).toBeCloseTo(6, 9);
    expect(r.verdict, r.verdict_reasons.join("\n")).toBe("VALID");
  });

  it("warns on inline <think> tags inside content, making the run INCONCLUSIVE", async () => {
    const requests = lane("r", 20);
    requests[4] = {...requests[4]!, responseText: "<think>the user wants a number</think>42"};
    const r = await analyzeSpec(cleanRun(requests));
    expect(gateOf(r, "G9").status).toBe("warn");
    expect(gateOf(r, "G9").reason).toBe("1 responses contain inline <think> tags inside content");
    expect(r.verdict).toBe("INCONCLUSIVE");
  });
});

describe("G16 real streaming", () => {
  /** A request whose output arrives in events carrying `deltas` tokens each, 5 ms apart (continuous usage). */
  const chunked = (id: string, deltas: number[]) => (s: number) =>
    request(
      id,
      s,
      [
        ...deltas.map((d, k) => ev(s + 5 + 5 * k, "content", d)),
        ev(s + 5 + 5 * deltas.length, "finish"),
        ev(s + 6 + 5 * deltas.length, "done")
      ],
      {out: deltas.reduce((a, b) => a + b, 0), usageSource: "server_continuous", endMs: s + 100}
    );

  it("passes tokens spread over events", async () => {
    const r = await analyzeSpec(cleanRun(lane("r", 20)));
    expect(gateOf(r, "G16").status).toBe("pass");
    expect(gateOf(r, "G16").reason).toBe("tokens arrived spread over events");
  });

  it("warns on 10 tokens delivered in 2 events, making the run INCONCLUSIVE", async () => {
    const r = await analyzeSpec(replace(5, chunked("r5", [5, 5])));
    expect(gateOf(r, "G16").status).toBe("warn");
    expect(gateOf(r, "G16").reason).toBe("1 responses delivered ≥ 10 tokens in ≤ 2 events or in one burst");
    expect(r.verdict).toBe("INCONCLUSIVE");
  });

  it("passes 9 tokens in 2 events (below 10 tokens)", async () => {
    const r = await analyzeSpec(replace(5, chunked("r5", [5, 4])));
    expect(gateOf(r, "G16").status).toBe("pass");
  });

  it("passes 10 tokens in 3 events spread over 10 ms", async () => {
    const r = await analyzeSpec(replace(5, chunked("r5", [4, 3, 3])));
    expect(gateOf(r, "G16").status).toBe("pass");
  });

  it("warns on 10 one-token events 40 µs apart (faster than 50 µs per token: one burst)", async () => {
    // (9 × 40 µs) / (10 − 1) = 40 µs < 50 µs
    const burst = (s: number) =>
      request("r5", s, [...tokenEvents(10, s + 5, 0.04), ev(s + 6, "finish"), ev(s + 7, "done")], {endMs: s + 100});
    const r = await analyzeSpec(replace(5, burst));
    expect(gateOf(r, "G16").status).toBe("warn");
  });

  it("passes 10 one-token events 50 µs apart (not faster than 50 µs per token)", async () => {
    const spread = (s: number) =>
      request("r5", s, [...tokenEvents(10, s + 5, 0.05), ev(s + 6, "finish"), ev(s + 7, "done")], {endMs: s + 100});
    const r = await analyzeSpec(replace(5, spread));
    expect(gateOf(r, "G16").status).toBe("pass");
  });

  it("is not evaluable when a record holds only its first and last token (imports)", async () => {
    const requests = lane("r", 20);
    requests[2] = {
      ...requests[2]!,
      events: [requests[2]!.events[0]!, requests[2]!.events[9]!],
      eventCoverage: "first_last"
    };
    const r = await analyzeSpec(cleanRun(requests, {manifest: IMPORTED}));
    expect(gateOf(r, "G16").status).toBe("not_evaluable");
    expect(gateOf(r, "G16").reason).toBe("imported: the source records only the first and last token times");
  });
});

describe("G16 bursts the client explains", () => {
  /** r`i`: 10 one-token events 40 µs apart from 5 ms after its send (one burst; last token at +5.36 ms). */
  const burst = (id: string) => (s: number) =>
    request(id, s, [...tokenEvents(10, s + 5, 0.04), ev(s + 6, "finish"), ev(s + 7, "done")], {endMs: s + 100});
  /** Event-loop samples 0 … 2.1 s with stalls [end ms, length ms]. */
  const loop = (stalls: [number, number][]) => loopSamples(0, 2100, {stalls});

  it("a burst that came as the event loop resumed from a ≥ 5 ms stall is the client's: info, not a warning", async () => {
    // r5 is sent at 500 ms; its burst ends at 505.36 ms; a 6 ms stall ended at 506 ms (0.64 ms later, ≤ 2 ms)
    const r = await analyzeSpec(replace(5, burst("r5"), {client: loop([[506, 6]])}));
    expect(gateOf(r, "G16").status).toBe("info");
    expect(gateOf(r, "G16").reason).toBe(
      "1 responses delivered ≥ 10 tokens in ≤ 2 events or in one burst, each as the client's event loop resumed from a stall: the client's, see G6"
    );
  });

  it("a stall shorter than 5 ms, or one that ended more than 2 ms from the burst, explains nothing", async () => {
    const short = await analyzeSpec(replace(5, burst("r5"), {client: loop([[506, 4]])}));
    expect(gateOf(short, "G16").status).toBe("warn");
    const far = await analyzeSpec(replace(5, burst("r5"), {client: loop([[508, 6]])}));
    expect(gateOf(far, "G16").status).toBe("warn");
  });

  it("of two bursts one explained: the server's warns, the count of explained ones said", async () => {
    const requests = lane("r", 20);
    requests[5] = {...burst("r5")(500), index: 5};
    requests[9] = {...burst("r9")(900), index: 9};
    const r = await analyzeSpec(cleanRun(requests, {client: loop([[906, 6]])}));
    expect(gateOf(r, "G16").status).toBe("warn");
    expect(gateOf(r, "G16").reason).toBe(
      "2 responses delivered ≥ 10 tokens in ≤ 2 events or in one burst (1 of them as the client resumed from a stall)"
    );
  });
});

describe("clientExplained", () => {
  it("counts a burst within 2 ms after a stall of at least 5 ms ended, exactly as a scan of every stall does", () => {
    const rand = mulberry32(12);
    for (let trial = 0; trial < 200; trial++) {
      const loop = Array.from({length: 1 + Math.floor(rand() * 4)}, () => ({
        stalls:
          rand() < 0.2
            ? null
            : Array.from({length: Math.floor(rand() * 20)}, (): [number, number] => [rand() * 1e8, rand() * 10])
      }));
      const bursts = Array.from({length: Math.floor(rand() * 30)}, (_, i) => ({id: `r${i}`, tNs: rand() * 1e8}));
      const ends = loop.flatMap((w) => (w.stalls ?? []).filter(([, ms]) => ms >= 5).map(([t]) => t));
      const scan = bursts.filter((b) => ends.some((t) => t >= b.tNs - 2e6 && t <= b.tNs + 2e6)).length;
      expect(clientExplained(bursts, loop)).toBe(scan);
    }
    expect(
      clientExplained(
        [{id: "a", tNs: 10e6}],
        [
          {
            stalls: [
              [8e6, 5],
              [13e6, 9]
            ]
          }
        ]
      )
    ).toBe(1);
    expect(
      clientExplained(
        [{id: "a", tNs: 10e6}],
        [
          {
            stalls: [
              [7.9e6, 50],
              [10e6, 4.9]
            ]
          }
        ]
      )
    ).toBe(0);
  });
});

describe("G24 telemetry completeness", () => {
  /** `n` server scrapes every 100 ms, those with `failed(i)` failing with HTTP 503. */
  const scrapes = (n: number, failed: (i: number) => boolean): BundleSpec["server"] =>
    Array.from({length: n}, (_, i) => ({
      tNs: i * 100 * MS,
      durationMs: 2,
      ok: !failed(i),
      error: failed(i) ? "HTTP 503" : null,
      samples: []
    }));
  const withServer = (server: BundleSpec["server"], over: Partial<BundleSpec> = {}) =>
    cleanRun(lane("r", 20), {server, ...over});

  it("does not apply when no telemetry was captured", async () => {
    const r = await analyzeSpec(cleanRun(lane("r", 20)));
    expect(gateOf(r, "G24").status).toBe("not_applicable");
    expect(gateOf(r, "G24").reason).toBe("server /metrics: not captured; GPU: not captured");
  });

  it("passes 2 failed scrapes of 20 (10 % ≤ 10 %)", async () => {
    const r = await analyzeSpec(withServer(scrapes(20, (i) => i === 3 || i === 11)));
    expect(gateOf(r, "G24").status).toBe("pass");
    expect(gateOf(r, "G24").reason).toBe("server /metrics: 18/20 ok (first error: HTTP 503); GPU: not captured");
    expect(r.verdict, r.verdict_reasons.join("\n")).toBe("VALID");
  });

  it("warns on 3 failed scrapes of 20 (15 % > 10 %), making the run INCONCLUSIVE", async () => {
    const r = await analyzeSpec(withServer(scrapes(20, (i) => i === 3 || i === 11 || i === 12)));
    expect(gateOf(r, "G24").status).toBe("warn");
    expect(gateOf(r, "G24").reason).toBe("server /metrics: 17/20 ok (first error: HTTP 503); GPU: not captured");
    expect(r.verdict).toBe("INCONCLUSIVE");
  });

  it("warns, never passes, when 0 of 20 scrapes succeeded", async () => {
    const r = await analyzeSpec(withServer(scrapes(20, () => true)));
    expect(gateOf(r, "G24").status).toBe("warn");
    expect(gateOf(r, "G24").reason).toBe(
      "server /metrics: 0/20 ok — no telemetry evidence (first error: HTTP 503); GPU: not captured"
    );
    expect(r.verdict).toBe("INCONCLUSIVE");
  });

  it("warns when 19 of 20 scrapes failed", async () => {
    const r = await analyzeSpec(withServer(scrapes(20, (i) => i !== 0)));
    expect(gateOf(r, "G24").status).toBe("warn");
    expect(gateOf(r, "G24").reason).toBe("server /metrics: 1/20 ok (first error: HTTP 503); GPU: not captured");
  });

  it("warns just above the allowance: 3 failed scrapes of 29 (10.3 % > 10 %)", async () => {
    const r = await analyzeSpec(withServer(scrapes(29, (i) => i === 3 || i === 11 || i === 12)));
    expect(gateOf(r, "G24").status).toBe("warn");
    expect(gateOf(r, "G24").reason).toBe("server /metrics: 26/29 ok (first error: HTTP 503); GPU: not captured");
  });

  it("uses gates.max_telemetry_missing: 3 of 20 failed (15 %) passes a 20 % allowance", async () => {
    const r = await analyzeSpec(
      withServer(
        scrapes(20, (i) => i < 3),
        {config: {gates: {max_telemetry_missing: 0.2}}}
      )
    );
    expect(gateOf(r, "G24").status).toBe("pass");
  });

  it("judges GPU samples too: 10 of 10 ok passes", async () => {
    const gpu = Array.from({length: 10}, (_, i) => ({tNs: i * 200 * MS, ok: true, error: null, gpus: []}));
    const r = await analyzeSpec(cleanRun(lane("r", 20), {gpu}));
    expect(gateOf(r, "G24").status).toBe("pass");
    expect(gateOf(r, "G24").reason).toBe("server /metrics: not captured; GPU: 10/10 ok");
  });

  it("counts failed scrapes whose error body says Not Found as gaps: 10 of 20 failed with HTTP 404 warns", async () => {
    // scrapes 10…19 answered 404 (a FastAPI body, as vLLM and SGLang send): 10 / 20 = 50 % missing > 10 %
    const server = scrapes(20, () => false)!.map((x, i) =>
      i >= 10 ? {...x, ok: false, error: 'http 404: {"detail":"Not Found"}'} : x
    );
    const r = await analyzeSpec(withServer(server));
    expect(gateOf(r, "G24").status).toBe("warn");
    expect(gateOf(r, "G24").reason).toMatch(/^server \/metrics: 10\/20 ok/);
    expect(r.verdict).toBe("INCONCLUSIVE");
  });

  it("warns when every one of 20 scrapes failed with HTTP 404 (scraped and failed, not 'not captured')", async () => {
    const server = scrapes(20, () => true)!.map((x) => ({...x, error: 'http 404: {"detail":"Not Found"}'}));
    const r = await analyzeSpec(withServer(server));
    expect(gateOf(r, "G24").status).toBe("warn");
    expect(gateOf(r, "G24").reason).toMatch(/^server \/metrics: 0\/20 ok — no telemetry evidence/);
  });

  it("treats an absent nvidia-smi as 'not captured', not as failed samples", async () => {
    const gpu = [{tNs: 0, ok: false, error: "nvidia-smi not found", gpus: []}];
    const r = await analyzeSpec(cleanRun(lane("r", 20), {gpu}));
    expect(gateOf(r, "G24").status).toBe("not_applicable");
    expect(gateOf(r, "G24").reason).toBe("server /metrics: not captured; GPU: not captured (nvidia-smi not found)");
  });
});

describe("G29 streams closed", () => {
  /** The last request (r19, [DONE] at 1951.5 ms) ends `afterMs` after its last event. */
  const hanging = (afterMs: number, over: Partial<ReturnType<typeof request>> = {}, spec: Partial<BundleSpec> = {}) => {
    const requests = lane("r", 20);
    // the terminal marker (finish_reason) is at 1951 ms; close_ms counts from it
    requests[19] = {...requests[19]!, tEndNs: Math.round((1951 + afterMs) * MS), ...over};
    return cleanRun(requests, spec);
  };

  it("passes when every successful stream closed after its terminal marker", async () => {
    const r = await analyzeSpec(cleanRun(lane("r", 20)));
    expect(gateOf(r, "G29").status).toBe("pass");
    expect(gateOf(r, "G29").reason).toBe("all 20 successful streams closed after their terminal marker");
  });

  it("warns on a stream the client had to close after close_ms, making the run INCONCLUSIVE", async () => {
    // finish at 1951 ms, [DONE] at 1951.5 ms, closed by the client 10 s after the finish
    const r = await analyzeSpec(hanging(10_000, {transportError: "close_timeout"}));
    expect(gateOf(r, "G29").status).toBe("warn");
    expect(gateOf(r, "G29").reason).toBe(
      "1/20 successful streams stayed open after their terminal marker until the client closed them (longest 10.0 s, e.g. r19); they count as successes ending at their last event"
    );
    expect(r.load_points[0]!.n_success).toBe(20);
    expect(r.verdict).toBe("INCONCLUSIVE");
  });

  it("states the longest of several hangs and the first hung stream, whichever order they come in", async () => {
    // r18's terminal marker is at 1851 ms, r19's at 1951 ms; both closed by the client
    for (const [a, b] of [
      [12_000, 11_000],
      [11_000, 12_000]
    ] as const) {
      const requests = lane("r", 20);
      requests[18] = {...requests[18]!, tEndNs: Math.round((1851 + a) * MS), transportError: "close_timeout"};
      requests[19] = {...requests[19]!, tEndNs: Math.round((1951 + b) * MS), transportError: "close_timeout"};
      const r = await analyzeSpec(cleanRun(requests));
      expect(gateOf(r, "G29").reason).toBe(
        "2/20 successful streams stayed open after their terminal marker until the client closed them (longest 12.0 s, e.g. r18); they count as successes ending at their last event"
      );
    }
  });

  it("passes a stream that ended exactly close_ms (10 s) after its terminal marker", async () => {
    const r = await analyzeSpec(hanging(10_000));
    expect(gateOf(r, "G29").status).toBe("pass");
  });

  it("warns on a stream that ended 10.001 s after its terminal marker (> close_ms)", async () => {
    const r = await analyzeSpec(hanging(10_001));
    expect(gateOf(r, "G29").status).toBe("warn");
  });

  it("measures the close from the terminal marker: open 12 s after finish_reason warns though the last event came 4 s before the end", async () => {
    // r19: finish_reason at 1951 ms (no [DONE]), a usage event 8 s later, the stream ends 12 s after the finish:
    // 12 s > close_ms 10 s after the terminal marker
    const requests = lane("r", 19);
    const events = [...tokenEvents(10, 1905, 5), ev(1951, "finish"), ev(9951, "usage")];
    requests.push(request("r19", 1900, events, {endMs: 13_951, index: 19}));
    const r = await analyzeSpec(cleanRun(requests));
    expect(gateOf(r, "G29").status).toBe("warn");
  });

  it("uses target.timeouts.close_ms: 2.001 s warns at close_ms 2000", async () => {
    const target = {base_url: "http://127.0.0.1:8000/v1", model: "m", timeouts: {close_ms: 2000}};
    const at = await analyzeSpec(hanging(2000, {}, {config: {target}}));
    expect(gateOf(at, "G29").status).toBe("pass");
    expect(gateOf(at, "G29").threshold).toBe("closed within 2000 ms of the terminal marker");
    const over = await analyzeSpec(hanging(2001, {}, {config: {target}}));
    expect(gateOf(over, "G29").status).toBe("warn");
  });

  it("is not evaluable without successful requests", async () => {
    const requests = lane("r", 20).map((x) => ({...x, httpStatus: 500}));
    const r = await analyzeSpec(cleanRun(requests));
    expect(gateOf(r, "G29").status).toBe("not_evaluable");
    expect(gateOf(r, "G29").reason).toBe("no successful requests");
  });

  it("is not evaluable when no success recorded its terminal marker (vLLM, SGLang, GuideLLM, AIPerf imports)", async () => {
    // an import keeps each token's time but not the [DONE] or finish_reason event: nothing says when the stream
    // ended relative to it, so 'all closed' would be a pass without evidence (the real-file audit)
    const strip = (x: ReturnType<typeof lane>[number]) => ({
      ...x,
      finishReason: null,
      events: x.events.filter((e) => e[2] === "content"),
      eventCoverage: "token_chunks" as const
    });
    const none = await analyzeSpec(cleanRun(lane("r", 20).map(strip), {manifest: IMPORTED}));
    expect(gateOf(none, "G29")).toMatchObject({
      status: "not_evaluable",
      reason:
        "no successful stream recorded its terminal marker (an import keeps the source's verdict, not the stream's end)"
    });
    // 5 of 20 with their markers: the pass says how many it covers
    const some = await analyzeSpec(
      cleanRun(
        lane("r", 20).map((x, i) => (i < 15 ? strip(x) : x)),
        {manifest: IMPORTED}
      )
    );
    expect(gateOf(some, "G29")).toMatchObject({
      status: "pass",
      reason: "all 5 of 20 successful streams that recorded a terminal marker closed after it"
    });
  });
});
