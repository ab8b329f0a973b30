/**
 * Writes the hand-specified fixture bundles under test/fixtures/bundles/ (deterministic).
 * Each fixture isolates one behaviour the analyzer must get right; test/output/analysis/ holds the
 * analyzer's golden output for each.   npm run fixtures
 */
import {readFileSync, rmSync, truncateSync, writeFileSync} from "node:fs";
import {join} from "node:path";

import {
  closedLoop,
  loadPoint,
  loopSamples,
  synthRequest,
  writeSynthBundle,
  type SynthBundle,
  type SynthShape
} from "./lib/synth.ts";
import type {ClientRecord, RequestRecord, ScheduleRecord, ServerScrape} from "../src/analysis/schema/index.ts";
import {max} from "d3-array";

const ROOT = join(import.meta.dirname, "..", "test", "fixtures", "bundles");
const POINT = "concurrency-2";

const baseConfig: SynthBundle["config"] = {
  name: "fixture",
  target: {base_url: "http://127.0.0.1:8000/v1", model: "fixture-model", engine: "synthetic"},
  workload: {prompt_tokens: 128, max_tokens: 32, ignore_eos: true},
  load: {mode: "concurrency", values: [2], requests: 24, warmup: 2}
};

const healthy = (i: number): SynthShape => ({
  ttftMs: 40 + (i % 5) * 3,
  tokens: 32,
  intervalMs: 8 + (i % 3),
  dispatchLagMs: 0.2
});

/** Warmup of 2 requests, then `count` measured ones, all closed loop at concurrency 2 (`warmLikeMeasured`: the warmups answered like the measured ones). */
function sweep(count: number, shape: (i: number) => SynthShape = healthy, warmLikeMeasured = false): RequestRecord[] {
  const warm = closedLoop(POINT, 2, 2, warmLikeMeasured ? shape : healthy, {phase: "warmup"});
  const start = max(warm, (r) => r.tEndNs!)! / 1e6;
  return closedLoop(POINT, count, 2, shape, {startMs: start, firstSeq: warm.length, previous: warm});
}

function scrapes(n: number, failAt: number): ServerScrape[] {
  return Array.from({length: n}, (_, i) => ({
    seq: i,
    tNs: (i + 1) * 200_000_000,
    durationMs: 2,
    ok: i !== failAt,
    error: i === failAt ? "connect ECONNREFUSED 127.0.0.1:8000" : null,
    samples:
      i === failAt
        ? []
        : [
            ["vllm:num_requests_running", {model_name: "fixture-model"}, 2],
            ["vllm:num_requests_waiting", {model_name: "fixture-model"}, 0],
            ["vllm:generation_tokens_total", {model_name: "fixture-model"}, i * 48]
          ]
  }));
}

interface Fixture {
  note: string;
  requests: () => RequestRecord[];
  /** The planned sends of an open-loop point, from its requests (as the collector writes them before sending). */
  schedule?: (requests: RequestRecord[]) => ScheduleRecord[];
  client?: () => ClientRecord[];
  server?: () => ServerScrape[];
  config?: Partial<SynthBundle["config"]>;
  points?: SynthBundle["points"];
  status?: SynthBundle["status"];
  statusReason?: string;
  beforeSeal?: (dir: string) => void;
  afterSeal?: (dir: string) => void;
}

const FIXTURES: Record<string, Fixture> = {
  clean: {
    note: "hand-built fixture: a healthy closed-loop run (concurrency 2, 24 measured requests, 2 warmup)",
    requests: () => sweep(24),
    client: () => loopSamples(3500, 1.2),
    server: () => scrapes(20, 7)
  },
  "torn-tail": {
    note: "hand-built fixture: sealed as partial after a crash; the final requests.jsonl line is torn",
    status: "partial",
    statusReason: "collector killed; sealed by --resume",
    requests: () => sweep(25),
    client: () => loopSamples(3500, 1.2),
    beforeSeal: (dir) => {
      const path = join(dir, "requests.jsonl");
      truncateSync(path, Buffer.byteLength(readFileSync(path, "utf8")) - 400);
    }
  },
  "clock-regression": {
    note: "hand-built fixture: one request's events go backwards in time (a clock that is not monotonic)",
    requests: () => {
      const rs = sweep(24);
      const ev = rs[5]!.events[4]!;
      rs[5]!.events[4] = [ev[0] - 50_000_000, ev[1], ev[2], ev[3]];
      return rs;
    },
    client: () => loopSamples(3500, 1.2)
  },
  "all-failed": {
    note: "hand-built fixture: every measured request answered HTTP 503",
    requests: () => sweep(24, () => ({ttftMs: 2, tokens: 0, intervalMs: 0, httpStatus: 503}), true),
    client: () => loopSamples(500, 1.0)
  },
  "no-usage": {
    note: "hand-built fixture: the server sends no usage in the stream, so output token counts are unknown",
    requests: () => sweep(24, (i) => ({...healthy(i), usage: "none"})),
    client: () => loopSamples(3500, 1.2)
  },
  "warmup-only": {
    note: "hand-built fixture: interrupted during warmup; no measured request",
    status: "interrupted",
    statusReason: "SIGINT during warmup",
    requests: () => closedLoop(POINT, 2, 2, healthy, {phase: "warmup"}),
    client: () => loopSamples(500, 1.0)
  },
  "multi-token": {
    note: "hand-built fixture: 4 tokens per SSE event with continuous usage (speculative-decoding-like chunks)",
    config: {workload: {prompt_tokens: 128, max_tokens: 64, ignore_eos: true}},
    requests: () => sweep(24, (i) => ({...healthy(i), tokens: 64, tokensPerEvent: 4, usage: "continuous"})),
    client: () => loopSamples(4000, 1.2)
  },
  "inband-error": {
    note: "hand-built fixture: 3 of 24 responses carry an error event inside an HTTP 200 stream",
    requests: () => sweep(24, (i) => (i % 8 === 3 ? {...healthy(i), inbandErrorAfter: 5} : healthy(i))),
    client: () => loopSamples(3500, 1.2)
  },
  "digest-mismatch": {
    note: "hand-built fixture: one byte of requests.jsonl changed after the manifest was written",
    requests: () => sweep(24),
    client: () => loopSamples(3500, 1.2),
    afterSeal: (dir) => {
      const path = join(dir, "requests.jsonl");
      writeFileSync(path, readFileSync(path, "utf8").replace('"maxTokens":32', '"maxTokens":33'));
    }
  },
  "open-loop-backlog": {
    note: "hand-built fixture: Poisson 20 req/s where the client fell behind mid-run (dispatch lag up to 300 ms)",
    config: {load: {mode: "poisson", values: [20], requests: 40, warmup: 0}},
    points: [loadPoint("poisson", 20, 40)],
    requests: () => {
      let t = 0;
      let state = 7;
      const out: RequestRecord[] = [];
      for (let i = 0; i < 40; i++) {
        state = (state * 1103515245 + 12345) % 2147483648;
        t += (-Math.log(1 - (state + 0.5) / 2147483648) / 20) * 1000;
        const lag = i >= 15 && i < 25 ? 30 * (i - 14) : 0.3;
        out.push(
          synthRequest(i, {id: `m${i}`, point: "poisson-20", index: i, schedMs: t, ...healthy(i), dispatchLagMs: lag})
        );
      }
      return out;
    },
    schedule: (requests) =>
      requests.map((r, i) => ({
        seq: i,
        point: r.point,
        repeat: r.repeat,
        index: r.index,
        phase: r.phase,
        offsetNs: r.tSchedNs!, // the phase started at 0
        requestId: r.id
      })),
    client: () =>
      [...loopSamples(900, 1.1), ...loopSamples(600, 180).map((r) => ({...r, tNs: r.tNs + 900_000_000}))].map(
        (r, i) => ({...r, seq: i})
      )
  }
};

for (const [name, f] of Object.entries(FIXTURES)) {
  const dir = join(ROOT, name);
  const requests = f.requests();
  rmSync(dir, {recursive: true, force: true});
  await writeSynthBundle({
    dir,
    id: `fixture-${name}`,
    config: {...baseConfig, ...f.config},
    points: f.points ?? [loadPoint("concurrency", 2, 24, 2)],
    requests,
    schedule: f.schedule?.(requests),
    client: f.client?.(),
    server: f.server?.(),
    status: f.status,
    statusReason: f.statusReason ?? null,
    note: f.note,
    beforeSeal: f.beforeSeal,
    afterSeal: f.afterSeal
  });
  console.log(`wrote ${dir}`);
}
