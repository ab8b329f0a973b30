import {greatest} from "d3-array";

import type {Bench} from "./bench.ts";
import {f, table, yes, type Row} from "./common.ts";
import {HTTP_CLIENTS, type SideRatio} from "./external.ts";
import type {HealthResult} from "./health.ts";
import {pipelineCost} from "./pipelineCost.ts";
import type {Accuracy} from "./timing.ts";
import type {CandidateSummary} from "./transports/section.ts";

/** (f) The collector's capture pipeline alone (recorded chunks, no sockets). */
export function captureCost({say}: Bench): void {
  // (f) the capture pipeline alone
  const pc = pipelineCost();
  say("\n### (f) The collector's capture pipeline alone (recorded chunks, no sockets; CPU ns per event)\n");
  say(
    table(
      ["UTF-8 decode + eventsource-parser", "JSON.parse only", "full capture (decode, parse, classify, usage, tuple)"],
      [{cells: [pc.parseNs.toFixed(0), pc.jsonNs.toFixed(0), pc.fullNs.toFixed(0)]}]
    )
  );
}

export interface Measured {
  accuracy: Accuracy;
  collectAcc: Record<string, number | null>;
  perCpu: {paced: number; zero: number};
  maxOk: number;
  health: HealthResult;
  side: SideRatio[];
  transports: CandidateSummary[];
}

/** The goals of issues 3 and 10, each with its target, what was measured and whether it was met. */
export function goals({say}: Bench, m: Measured): void {
  const {accuracy, collectAcc, maxOk} = m;
  const {paced, zero} = m.perCpu;
  const {misses, badRuns, gateFirst, gateAt, errAt} = m.health;
  const goals: Row[] = [
    {
      cells: [
        "TTFT error p50 at 1 stream",
        "≤ 0.5 ms",
        `${f(accuracy[1]!.ttft50, 3)} ms`,
        yes((accuracy[1]!.ttft50 ?? Infinity) <= 0.5)
      ]
    },
    {
      cells: [
        "TTFT error p50 at 100 streams",
        "≤ 1 ms",
        `${f(accuracy[100]!.ttft50, 3)} ms`,
        yes((accuracy[100]!.ttft50 ?? Infinity) <= 1)
      ]
    },
    {
      cells: [
        "per-token error p99 at 100 streams",
        "≤ 2 ms",
        `${f(accuracy[100]!.tok99, 3)} ms`,
        yes((accuracy[100]!.tok99 ?? Infinity) <= 2)
      ]
    },
    {
      cells: [
        "SSE events per CPU-second, full raw capture",
        "≥ 60,000",
        `${Math.round(paced).toLocaleString("en-US")} paced / ${Math.round(zero).toLocaleString("en-US")} zero-latency`,
        paced >= 60_000 ? "yes" : zero >= 60_000 ? "zero-latency only" : "no"
      ]
    },
    {
      cells: [
        "concurrent streams on one core",
        "≥ 1,000",
        `${maxOk.toLocaleString("en-US")} all succeeded`,
        yes(maxOk >= 1000)
      ]
    },
    {
      cells: [
        "client-health gate fires before error > 5 ms",
        "yes",
        `${misses} missed of ${badRuns} runs with error > 5 ms; first warning at ${gateAt}, first error at ${errAt} streams`,
        yes(gateFirst)
      ]
    }
  ];
  for (const g of collectGoals(collectAcc)) goals.push(g);
  goals.push(sideGoal(m.side));
  goals.push(ceilingGoal(m.transports));
  say("\n### Goals (issues 3, 10 and 17)\n");
  say(table(["goal", "target", "measured", "met"], goals));
}

/** Issue 17: the best HTTP client candidate with full capture at 100 streams, one event per read (i). */
function ceilingGoal(transports: readonly CandidateSummary[]): Row {
  const at100 = transports.filter((t) => t.streams === 100 && !t.name.startsWith("floor"));
  const best = greatest(at100, (t) => t.eventsPerCpuS);
  const floor = transports.find((t) => t.streams === 100 && t.name.startsWith("floor"));
  return {
    cells: [
      "events per CPU-second, one event per read, 100 streams, best client candidate (i); per-event p99",
      "≥ 60,000; ≤ 2 ms",
      best === undefined
        ? "not measured"
        : `${Math.round(best.eventsPerCpuS).toLocaleString("en-US")} (${best.name}), p99 ${f(best.p99, 2)} ms; floor ${
            floor === undefined ? "—" : Math.round(floor.eventsPerCpuS).toLocaleString("en-US")
          }`,
      best === undefined ? "—" : yes(best.eventsPerCpuS >= 60_000 && (best.p99 ?? Infinity) <= 2)
    ]
  };
}

/** Issue 17: ≥ 2× an external client's events per CPU-second at every concurrency, side by side (h). */
function sideGoal(side: readonly SideRatio[]): Row {
  const text = side.map((r) => `${r.ours}: ${r.ratio.toFixed(2)}× ${r.client} at ${r.streams}`).join("; ");
  return {
    cells: [
      "events per CPU-second through collect ÷ an external client's, every concurrency (h)",
      "≥ 2×",
      side.length === 0 ? "no external client in this run" : text,
      // met when one InferScope client reaches 2× at every concurrency
      side.length === 0 ? "—" : yes(HTTP_CLIENTS.some((h) => side.every((r) => r.ours !== h || r.ratio >= 2)))
    ]
  };
}

/** The goals of issue 10 item 5: the timing error through collect() in both connection modes. */
function collectGoals(collectAcc: Record<string, number | null>): Row[] {
  return [
    {
      cells: [
        "timing error p50 through collect, 1 stream, reuse",
        "≤ 0.5 ms",
        `${f(collectAcc["reuse-1"] ?? null, 3)} ms`,
        yes((collectAcc["reuse-1"] ?? Infinity) <= 0.5)
      ]
    },
    {
      cells: [
        "timing error p50 through collect, 100 streams, reuse",
        "≤ 1 ms",
        `${f(collectAcc["reuse-100"] ?? null, 3)} ms`,
        yes((collectAcc["reuse-100"] ?? Infinity) <= 1)
      ]
    },
    {
      cells: [
        "the same, one connection per request, connect subtracted (1 / 100 streams)",
        "≤ 0.5 / ≤ 1 ms",
        `${f(collectAcc["per_request-1"] ?? null, 3)} / ${f(collectAcc["per_request-100"] ?? null, 3)} ms`,
        yes((collectAcc["per_request-1"] ?? Infinity) <= 0.5 && (collectAcc["per_request-100"] ?? Infinity) <= 1)
      ]
    },
    {
      cells: [
        "the same with http_client: socket, reuse (1 / 100 streams)",
        "≤ 0.5 / ≤ 1 ms",
        `${f(collectAcc["socket:reuse-1"] ?? null, 3)} / ${f(collectAcc["socket:reuse-100"] ?? null, 3)} ms`,
        yes((collectAcc["socket:reuse-1"] ?? Infinity) <= 0.5 && (collectAcc["socket:reuse-100"] ?? Infinity) <= 1)
      ]
    }
  ];
}
