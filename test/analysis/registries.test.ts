import {describe, expect, it} from "vitest";

import {FAILURE_CLASSES, FAILURE_LABELS} from "../../src/analysis/derive/outcome.ts";
import {gateById, GATES} from "../../src/analysis/gates/registry.ts";
import {FALLBACK_CONFIG} from "../../src/analysis/ingest/config.ts";
import {HEADLINE_METRICS, METRICS, metricById} from "../../src/analysis/metrics/registry.ts";
import {GATE_IDS, GateId, METRIC_IDS, MetricId, RunConfigSpec} from "../../src/analysis/schema/index.ts";

/**
 * The registries are the one place each gate and metric is defined; the methodology page, tables and
 * JSON are generated from them. These tables are the contract, written by hand: a gate's scope, verdict
 * effect and whether missing evidence makes a run inconclusive follow ../shared/reference/validity-and-faults.md
 * §2 (outcome I = INVALID, N = INCONCLUSIVE, W = disclosed), with InferScope's own gates G28–G30 and G32 and its
 * deliberate departures noted; units and directions follow metric-definitions.md.
 */
type GateRow = [
  slug: string,
  scope: "bundle" | "point",
  outcome: "I" | "N" | "W",
  required: boolean,
  threshold: string | null
];

const GATE_TABLE: Record<string, GateRow> = {
  G1: ["evidence_integrity", "bundle", "I", true, "0 errors"],
  G28: ["run_completion", "bundle", "N", true, "status = complete"],
  G30: ["request_accounting", "bundle", "I", true, "0 lost, 0 duplicated, 0 unplanned"],
  // issue 17: a shard alone, or shards that did not start together, cannot stand for the experiment
  G32: ["shard_merge", "bundle", "N", false, "measured phases start within 100 ms of each other"],
  G2: ["success_classification", "point", "W", false, null], // "feeds G3": disclosed, G3 judges
  G3: ["error_rate", "point", "I", true, "≤ 1.0 %"], // max_error_rate 0.01
  G4: ["sample_size", "point", "N", true, "≥ 20 successful requests (min_samples 20, P95 floor 20)"],
  G5: ["achieved_load", "point", "I", true, "≥ 95 % of target; schedule at the declared rate"],
  G6: [
    "client_health",
    "point",
    "N",
    true,
    "loop delay p99 ≤ 5 ms, late > 5 ms ≤ 1.0 % of the time, dispatch lag p99 ≤ 5 ms"
  ],
  G7: ["schedule_view", "point", "I", true, "every open-loop request has a scheduled time"],
  G8: ["token_accounting", "point", "N", true, "server count = stream count ± 5 %"],
  G9: ["ttft_rule", "point", "N", false, null],
  G31: ["reasoning_cutoff", "point", "N", false, "no request stops at max_tokens before its first answer token"],
  G10: ["multi_token_chunks", "point", "W", false, null],
  G11: ["output_length", "point", "N", false, "±10 % of max_tokens"],
  G12: ["input_length", "point", "N", false, "±25 % (+ 32 template tokens above)"],
  G13: [
    "prefix_cache",
    "point",
    "N",
    false,
    "cached ≤ bound + max(32, 10 % of prompt) per request; designed workloads ≥ 50 % of the room bound"
  ],
  G14: ["warmup_excluded", "bundle", "I", false, "no overlap"],
  G16: ["fake_streaming", "point", "N", false, "0 buffered responses the client does not explain"], // W/N: N
  G19: ["short_outputs", "point", "W", false, null],
  // the reference says W; InferScope makes late dispatches inconclusive (issue 10 item 6: 10 of 30 sends 400 ms late passed)
  G21: ["arrival_fidelity", "point", "N", false, "≤ 1 % of dispatches > 5 ms late; KS p ≥ 0.01"],
  G24: ["telemetry_completeness", "bundle", "N", false, "≤ 10 % failed samples"],
  G29: ["stream_close", "point", "N", false, "closed within 10000 ms of the terminal marker"]
};

type MetricRow = [
  kind: "request" | "sample" | "run",
  family: string,
  unit: string,
  direction: "lower" | "higher" | "none"
];

const METRIC_TABLE: Record<string, MetricRow> = {
  ttft_ms: ["request", "latency", "ms", "lower"],
  ttft_content_ms: ["request", "latency", "ms", "lower"],
  ttft_first_event_ms: ["request", "diagnostic", "ms", "lower"],
  ttft_first_byte_ms: ["request", "diagnostic", "ms", "lower"],
  ttft_dispatch_ms: ["request", "diagnostic", "ms", "lower"],
  e2e_ms: ["request", "latency", "ms", "lower"],
  e2e_dispatch_ms: ["request", "diagnostic", "ms", "lower"],
  request_time_ms: ["request", "diagnostic", "ms", "lower"],
  dispatch_lag_ms: ["request", "load", "ms", "lower"],
  connection_setup_ms: ["request", "diagnostic", "ms", "lower"],
  connect_ms: ["request", "diagnostic", "ms", "lower"],
  tls_ms: ["request", "diagnostic", "ms", "lower"],
  tpot_ms: ["request", "speed", "ms/token", "lower"],
  itl_ms: ["request", "speed", "ms/token", "lower"],
  decode_tok_s: ["request", "speed", "tok/s", "higher"],
  prefill_tok_s: ["request", "speed", "tok/s", "higher"],
  server_prefill_tok_s: ["request", "speed", "tok/s", "higher"],
  server_decode_tok_s: ["request", "speed", "tok/s", "higher"],
  interactivity_tok_s: ["request", "speed", "tok/s/user", "higher"],
  e2e_output_tok_s: ["request", "diagnostic", "tok/s", "higher"],
  output_tokens: ["request", "diagnostic", "tokens", "none"],
  input_tokens: ["request", "diagnostic", "tokens", "none"],
  ttft_reasoning_ms: ["request", "latency", "ms", "lower"],
  reasoning_tokens: ["request", "diagnostic", "tokens", "none"],
  answer_tokens: ["request", "diagnostic", "tokens", "none"],
  answer_decode_tok_s: ["request", "speed", "tok/s", "higher"],
  tokens_per_event: ["request", "diagnostic", "tokens/event", "none"],
  inter_chunk_ms: ["sample", "speed", "ms", "lower"],
  itl_token_ms: ["sample", "speed", "ms/token", "lower"],
  request_throughput_rps: ["run", "throughput", "req/s", "higher"],
  output_throughput_tok_s: ["run", "throughput", "tok/s", "higher"],
  input_output_throughput_tok_s: ["run", "throughput", "tok/s", "higher"],
  input_throughput_tok_s: ["run", "throughput", "tok/s", "higher"],
  success_rate_pct: ["run", "quality_of_service", "%", "higher"],
  goodput_pct: ["run", "quality_of_service", "%", "higher"],
  goodput_rps: ["run", "quality_of_service", "req/s", "higher"],
  achieved_concurrency: ["run", "load", "requests", "none"],
  achieved_rate_rps: ["run", "load", "req/s", "none"],
  interactivity_share_tok_s: ["run", "speed", "tok/s/user", "higher"],
  tokens_per_chunk: ["run", "diagnostic", "tokens/event", "none"],
  window_s: ["run", "load", "s", "none"]
};

/** The headline metrics of index tables and summaries: TTFT, E2E, TPOT, ITL, decode, throughput, success and goodput. */
const HEADLINES = [
  "ttft_ms",
  "e2e_ms",
  "tpot_ms",
  "itl_ms",
  "decode_tok_s",
  "request_throughput_rps",
  "output_throughput_tok_s",
  "success_rate_pct",
  "goodput_pct"
];

const bilingual = (b: {en: string; zh: string}, what: string) => {
  expect(b.en.trim().length, `${what} (en)`).toBeGreaterThan(0);
  expect(b.zh.trim().length, `${what} (zh)`).toBeGreaterThan(0);
  expect(/[\u4e00-\u9fff]/.test(b.zh), `${what} (zh) is Chinese`).toBe(true);
  expect(b.zh, `${what}: zh is not the English text`).not.toBe(b.en);
};

describe("gate registry", () => {
  it("holds exactly the gates of the contract, in report order", () => {
    expect(GATES.map((g) => g.id)).toEqual(Object.keys(GATE_TABLE));
  });

  it("gives each gate its slug, scope, verdict effect, evidence requirement and default threshold", () => {
    const defaults = RunConfigSpec.parse({
      target: {base_url: "http://127.0.0.1:1/v1", model: "m"},
      load: {mode: "concurrency", values: [1]}
    });
    for (const g of GATES) {
      const [slug, scope, outcome, required, threshold] = GATE_TABLE[g.id]!;
      expect({id: g.id, slug: g.slug, scope: g.scope, outcome: g.outcome, required: g.required}).toEqual({
        id: g.id,
        slug,
        scope,
        outcome,
        required
      });
      expect(g.threshold(defaults), g.id).toBe(threshold);
      expect(g.threshold(FALLBACK_CONFIG), `${g.id} on the fallback config`).toBe(threshold);
      expect(g.scope === "bundle" ? typeof g.evaluate : typeof g.evaluatePoint, g.id).toBe("function");
    }
  });

  it("follows a changed threshold: max_error_rate 0.05 reads ≤ 5.0 %, min_samples 50 with a P99 SLO needs 100", () => {
    const c = RunConfigSpec.parse({
      target: {base_url: "http://127.0.0.1:1/v1", model: "m"},
      load: {mode: "concurrency", values: [1]},
      gates: {max_error_rate: 0.05, min_samples: 50},
      slo: {percentile: "p99"}
    });
    expect(gateById("G3").threshold(c)).toBe("≤ 5.0 %");
    expect(gateById("G4").threshold(c)).toBe("≥ 100 successful requests (min_samples 50, P99 floor 100)");
  });

  it("titles and describes every gate in English and Chinese, with a public anchor", () => {
    for (const g of GATES) {
      bilingual(g.title, `${g.id} title`);
      bilingual(g.description, `${g.id} description`);
      expect(g.description.en.length, `${g.id} description says what is checked`).toBeGreaterThan(60);
      expect(g.anchor.trim().length, `${g.id} anchor`).toBeGreaterThan(0);
    }
  });

  it("finds a gate by id, and names an unknown id", () => {
    expect(gateById("G30").slug).toBe("request_accounting");
    expect(() => gateById("G99")).toThrow("unknown gate id: G99");
  });
});

describe("metric registry", () => {
  it("holds exactly the metrics of the contract, each with its kind, family, unit and better direction", () => {
    expect(METRICS.map((m) => m.id)).toEqual(Object.keys(METRIC_TABLE));
    for (const m of METRICS) {
      const [kind, family, unit, direction] = METRIC_TABLE[m.id]!;
      expect({id: m.id, kind: m.kind, family: m.family, unit: m.unit, direction: m.direction}).toEqual({
        id: m.id,
        kind,
        family,
        unit,
        direction
      });
    }
  });

  it("summarises per-request values by nearest rank, weighted per request; gaps per chunk or per token", () => {
    // nearest-rank with floors is the one percentile rule (metric-definitions.md); the client's own timings
    // (lateness, connect, TLS) are facts of every measured request, failed ones included
    const everyMeasured = ["dispatch_lag_ms", "connection_setup_ms", "connect_ms", "tls_ms"];
    for (const m of METRICS) {
      if (m.kind === "run") continue;
      expect(m.method, m.id).toBe("nearest-rank");
      if (m.kind === "request") {
        expect(m.weighting, m.id).toBe("request");
        expect(m.allMeasured === true, `${m.id} over every measured request`).toBe(everyMeasured.includes(m.id));
      }
    }
    expect(METRICS.filter((m) => m.kind === "sample").map((m) => [m.id, m.weighting])).toEqual([
      ["inter_chunk_ms", "chunk"],
      ["itl_token_ms", "token"]
    ]);
  });

  it("marks the headline metrics and no others", () => {
    expect(HEADLINE_METRICS.map((m) => m.id)).toEqual(HEADLINES);
  });

  it("labels and defines every metric in English and Chinese, with its formula and population", () => {
    for (const m of METRICS) {
      bilingual(m.label, `${m.id} label`);
      bilingual(m.definition, `${m.id} definition`);
      expect(m.formula.trim().length, `${m.id} formula`).toBeGreaterThan(0);
      expect(m.population.trim().length, `${m.id} population`).toBeGreaterThan(0);
    }
  });

  it("finds a metric by id, and names an unknown id", () => {
    expect(metricById("goodput_pct").unit).toBe("%");
    expect(() => metricById("ttft_seconds")).toThrow("unknown metric id: ttft_seconds");
  });
});

describe("failure classes", () => {
  it("label every class in English and Chinese, each label distinct", () => {
    expect(Object.keys(FAILURE_LABELS).sort()).toEqual([...FAILURE_CLASSES].sort());
    for (const c of FAILURE_CLASSES) bilingual(FAILURE_LABELS[c], c);
    expect(new Set(FAILURE_CLASSES.map((c) => FAILURE_LABELS[c].en)).size).toBe(FAILURE_CLASSES.length);
    expect(new Set(FAILURE_CLASSES.map((c) => FAILURE_LABELS[c].zh)).size).toBe(FAILURE_CLASSES.length);
  });
});

describe("typed ids (schema/ids.ts)", () => {
  it("METRIC_IDS names every registry metric once, and nothing the registry lacks", () => {
    expect(new Set(METRIC_IDS).size).toBe(METRIC_IDS.length);
    expect([...METRIC_IDS].sort()).toEqual(METRICS.map((m) => m.id).sort());
  });

  it("GATE_IDS names every registry gate once; MetricId and GateId refuse an unknown id", () => {
    expect([...GATE_IDS].sort()).toEqual(GATES.map((g) => g.id).sort());
    expect(MetricId.safeParse("ttft_ms").success).toBe(true);
    expect(MetricId.safeParse("ttft_s").success).toBe(false);
    expect(GateId.safeParse("G15").success).toBe(false);
  });
});
