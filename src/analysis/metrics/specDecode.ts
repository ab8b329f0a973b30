import type {DerivedRequest} from "../derive/request.ts";
import type {LoadPoint} from "../schema/manifest.ts";
import type {ServerScrape} from "../schema/records.ts";

/**
 * Speculative-decoding counts of a bundle, from the two places a server puts them (docs/spec-decode.md):
 * the /metrics scrapes (vLLM and llama.cpp counters, SGLang gauges) folded here as they stream, and the
 * per-response `timings` of llama.cpp (`draft_n`, `draft_n_accepted`), folded per load point by
 * `specTimingsFacts`. metrics/specBlock.ts turns them into each load point's `spec_decode` block.
 */

const COUNTER = /^(vllm|llamacpp):spec_decode_num_(drafts|draft_tokens|accepted_tokens|accepted_tokens_per_pos)_total$/;
const GAUGE = /^sglang:spec_accept_(length|rate)$/;

/** The speculative-decoding samples of one scrape (counters summed over label sets, gauges averaged). */
export interface SpecScrape {
  tNs: number;
  engine: "vllm" | "llama.cpp" | "sglang";
  drafts: number | null;
  draftTokens: number | null;
  accepted: number | null;
  /** Accepted tokens per draft position (index = the `position` label). */
  perPos: number[];
  acceptLength: number | null;
  acceptRate: number | null;
}

/** Counter deltas over a load point's span: from the last scrape at or before its start to the first at or after its end. */
export interface SpecCounterWindow {
  engine: string;
  fromS: number;
  toS: number;
  drafts: number;
  draftTokens: number;
  accepted: number;
  perPos: number[];
}

/** SGLang's gauges over a load point's span: the mean of the scrapes inside it (and the first one after it). */
export interface SpecGaugeWindow {
  engine: string;
  scrapes: number;
  acceptLength: number | null;
  acceptRate: number | null;
}

/** What the scrapes say about one load point: counters or gauges, or why neither. */
export interface SpecServerWindow {
  counters: SpecCounterWindow | null;
  gauges: SpecGaugeWindow | null;
  /** Why counters is null. */
  countersReason?: string;
}

const ENGINE = {vllm: "vllm", llamacpp: "llama.cpp"} as const;

function specOf(s: ServerScrape): SpecScrape | null {
  let found: SpecScrape | null = null;
  const gauges: {length: number[]; rate: number[]} = {length: [], rate: []};
  for (const [name, labels, v] of s.samples) {
    if (v === null || !Number.isFinite(v)) continue;
    const c = COUNTER.exec(name);
    const g = c === null ? GAUGE.exec(name) : null;
    if (c === null && g === null) continue;
    const engine = c !== null ? ENGINE[c[1] as keyof typeof ENGINE] : "sglang";
    found ??= {
      tNs: s.tNs,
      engine,
      drafts: null,
      draftTokens: null,
      accepted: null,
      perPos: [],
      acceptLength: null,
      acceptRate: null
    };
    if (g !== null) gauges[g[1] as "length" | "rate"].push(v);
    else if (c![2] === "accepted_tokens_per_pos") {
      const pos = Number(labels?.position);
      if (Number.isInteger(pos) && pos >= 0 && pos < 64) found.perPos[pos] = (found.perPos[pos] ?? 0) + v;
    } else {
      const key = ({drafts: "drafts", draft_tokens: "draftTokens", accepted_tokens: "accepted"} as const)[
        c![2] as "drafts" | "draft_tokens" | "accepted_tokens"
      ];
      found[key] = (found[key] ?? 0) + v;
    }
  }
  const mean = (xs: number[]): number | null => (xs.length > 0 ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
  if (found !== null) {
    found.acceptLength = mean(gauges.length);
    found.acceptRate = mean(gauges.rate);
  }
  return found;
}

/**
 * The scrapes' speculative-decoding samples, kept small (one entry per scrape that has any), with the times of
 * every successful scrape: a baseline scrape taken before the server's first draft carries no counter yet
 * (Prometheus clients create a labelled counter on its first increment), which counts as 0.
 */
export class SpecScrapeLog {
  readonly entries: SpecScrape[] = [];
  readonly okTimes: number[] = [];

  add(s: ServerScrape): void {
    if (!s.ok) return;
    this.okTimes.push(s.tNs);
    const e = specOf(s);
    if (e !== null) this.entries.push(e);
  }

  get hasAny(): boolean {
    return this.entries.length > 0;
  }

  /** The counters and gauges over [start, end] ns (a point's span), or why not. */
  window(span: readonly [number, number] | null): SpecServerWindow {
    if (span === null)
      return {counters: null, gauges: null, countersReason: "the load point has no measurement window"};
    return {...this.#counters(span), gauges: this.#gauges(span)};
  }

  #counters([start, end]: readonly [number, number]): Pick<SpecServerWindow, "counters" | "countersReason"> {
    const withCounters = this.entries.filter((e) => e.draftTokens !== null || e.drafts !== null);
    if (withCounters.length === 0)
      return {counters: null, countersReason: "not exported: no speculative-decoding counters in the server's metrics"};
    const after = withCounters.find((e) => e.tNs >= end);
    if (after === undefined) return {counters: null, countersReason: "no server scrape after the load point ended"};
    // the last scrape at or before the start with counters; none: the counters did not exist yet (counted 0)
    const before = withCounters.filter((e) => e.tNs <= start).at(-1);
    const fromT = before?.tNs ?? this.okTimes.filter((t) => t <= start).at(-1);
    if (fromT === undefined) return {counters: null, countersReason: "no server scrape before the load point started"};
    const base = (v: number | null | undefined): number => v ?? 0;
    const delta = {
      drafts: (after.drafts ?? 0) - base(before?.drafts),
      draftTokens: (after.draftTokens ?? 0) - base(before?.draftTokens),
      accepted: (after.accepted ?? 0) - base(before?.accepted)
    };
    const perPos = after.perPos.map((v, i) => (v ?? 0) - base(before?.perPos[i]));
    if (delta.drafts < 0 || delta.draftTokens < 0 || delta.accepted < 0 || perPos.some((v) => v < 0))
      return {counters: null, countersReason: "a counter went down across the load point (server restart)"};
    return {
      counters: {engine: after.engine, fromS: fromT / 1e9, toS: after.tNs / 1e9, ...delta, perPos}
    };
  }

  #gauges([start, end]: readonly [number, number]): SpecGaugeWindow | null {
    const g = this.entries.filter((e) => e.acceptLength !== null || e.acceptRate !== null);
    const after = g.find((e) => e.tNs >= end);
    // a gauge of 0 means no speculative step yet (SGLang's initial value), not a measured 0
    const inside = g
      .filter((e) => (e.tNs >= start && e.tNs <= end) || e === after)
      .filter((e) => (e.acceptLength ?? 0) >= 1);
    if (inside.length === 0) return null;
    const mean = (pick: (e: SpecScrape) => number | null): number | null => {
      const xs = inside.map(pick).filter((v): v is number => v !== null);
      return xs.length > 0 ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
    };
    return {
      engine: inside[0]!.engine,
      scrapes: inside.length,
      acceptLength: mean((e) => e.acceptLength),
      acceptRate: mean((e) => e.acceptRate)
    };
  }
}

/** Sums of llama.cpp's per-response draft counts over a point's successful measured requests. */
export interface SpecTimingsFacts {
  specTimings: {requests: number; draftTokens: number; accepted: number};
}

/** A point reducer ({init, add, finish}, accumulate/reducer.ts) over the responses' `timings.draft_n*`. */
export const specTimingsFacts = {
  init: (_point: LoadPoint): SpecTimingsFacts["specTimings"] => ({requests: 0, draftTokens: 0, accepted: 0}),
  add(s: SpecTimingsFacts["specTimings"], d: DerivedRequest): void {
    if (d.record.phase !== "measure" || !d.success) return;
    const t = d.record.serverTimings;
    if (t === null || typeof t.draftN !== "number" || typeof t.draftNAccepted !== "number") return;
    s.requests++;
    s.draftTokens += t.draftN;
    s.accepted += t.draftNAccepted;
  },
  finish: (s: SpecTimingsFacts["specTimings"]): SpecTimingsFacts => ({specTimings: s})
};
