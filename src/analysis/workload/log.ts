import type {DerivedRequest} from "../derive/request.ts";
import {templatePrefixAllowance} from "./allowance.ts";
import {ttftMs} from "../metrics/latency.ts";
import type {RunConfig} from "../schema/config.ts";
import type {WorkloadTag} from "../schema/workload.ts";
import {cacheBound, type CacheEntry} from "./bound.ts";
import type {ServerCacheWindow} from "./counters.ts";

/** Kinds of workload built so that requests share prefixes (the gate expects hits from them). */
export const DESIGNED_FOR_HITS: ReadonlySet<WorkloadTag["kind"]> = new Set(["shared_prefix", "sessions", "trace"]);

/** How the cache room of the `withRoom` bound was judged. */
export type RoomSource = "config" | "in_flight";

/** Requested against realised lengths of a point's measured successes (tokens; realised = the server's counts). */
export interface LengthFacts {
  kind: WorkloadTag["kind"];
  inputRequested: number[];
  inputRealised: number[];
  outputRequested: number[];
  outputRealised: number[];
}

/** What one load point's measured requests show of the prefix cache, against what the workload allows. */
export interface PrefixCacheFacts {
  kind: WorkloadTag["kind"];
  designed: boolean;
  /** Measured successes with prompt segments. */
  requests: number;
  /** Σ prompt tokens the segments cover. */
  promptTokens: number;
  /** Σ tokens an unbounded cache could have served, and its share of promptTokens. */
  boundTokens: number;
  boundShare: number | null;
  /** The same for an LRU cache of `room.capacityTokens`. */
  roomTokens: number;
  roomShare: number | null;
  room: {capacityTokens: number; source: RoomSource};
  /** Requests with the server's cached-token count and prompt count; Σ cached and Σ prompt over them. */
  cachedKnown: number;
  cachedTokens: number;
  cachedPromptTokens: number;
  measuredShare: number | null;
  /** Requests that reused more than the bound allows them plus a chat template's prefix; a few ids. */
  overBound: number;
  overExamples: string[];
  /** Segments sized with the server's tokenizer in every request. */
  exact: boolean;
  /** The server's prefix-cache counters over the point's window (workload/counters.ts), or why unknown. */
  server: {window: ServerCacheWindow | null; reason: string | null};
  /** TTFT (ms) of measured successes that hit the cache (beyond a template prefix) and of those that did not. */
  ttftHit: number[];
  ttftMiss: number[];
  /** TTFT (ms) by conversation turn (sessions), turn 1 first. */
  ttftByTurn: Map<number, number[]>;
}

/** The group a case request's prefix-cache facts are reported under: its case, tier and dispatch label. */
export const caseGroup = (caseId: string, tier: string | null | undefined, point: string): string =>
  `case\u0000${caseId}\u0000${tier ?? ""}\u0000${point}`;

interface Row {
  /** The load point id, or caseGroup(…) for a case-suite request. */
  group: string;
  caseRow: boolean;
  measured: boolean;
  success: boolean;
  entry: CacheEntry;
  endNs: number | null;
  cached: number | null;
  promptIn: number | null;
  ttft: number | null;
  tag: WorkloadTag | undefined;
  exact: boolean;
  id: string;
}

/**
 * Every request of a bundle that carries prompt segments, in any point or phase (a cache outlives a
 * phase): the bound is computed over the whole run in time order, then reported per load point.
 */
export class PrefixCacheLog {
  readonly #rows: Row[] = [];
  readonly #lengths = new Map<string, LengthFacts>();

  add(d: DerivedRequest): void {
    const tag = d.record.workload;
    if (tag !== undefined && d.record.caseId === undefined && d.record.phase === "measure" && d.success)
      this.#addLengths(d, tag);
    const seg = d.record.promptSegments;
    if (seg === undefined || d.timeBase !== "run") return;
    const caseId = d.record.caseId;
    this.#rows.push({
      group: caseId === undefined ? d.record.point : caseGroup(caseId, d.record.tier, d.record.point),
      caseRow: caseId !== undefined,
      measured: d.record.phase === "measure",
      success: d.success,
      entry: {
        sentNs: d.tCall ?? d.tDisp,
        readyNs: d.tTok1,
        segments: seg.segments,
        tokens: seg.tokens,
        ...(seg.answer === undefined
          ? {}
          : {answer: {hash: seg.answer[0], tokens: seg.answer[1], readyNs: d.success ? d.tEnd : null}})
      },
      endNs: d.tEnd,
      cached: d.cached,
      promptIn: d.in,
      ttft: d.success ? ttftMs.value(d) : null,
      tag: d.record.workload,
      exact: seg.exact,
      id: d.record.id
    });
  }

  #addLengths(d: DerivedRequest, tag: WorkloadTag): void {
    let f = this.#lengths.get(d.record.point);
    if (f === undefined) {
      f = {kind: tag.kind, inputRequested: [], inputRealised: [], outputRequested: [], outputRealised: []};
      this.#lengths.set(d.record.point, f);
    }
    const r = d.record;
    if (r.promptTokensIntended !== null) f.inputRequested.push(r.promptTokensIntended);
    if (d.in !== null) f.inputRealised.push(d.in);
    const asked = r.maxTokens;
    if (asked !== null) f.outputRequested.push(asked);
    if (d.out !== null) f.outputRealised.push(d.out);
  }

  get hasAny(): boolean {
    return this.#rows.length > 0 || this.#lengths.size > 0;
  }

  /** Requested and realised lengths per load point (requests tagged with their workload). */
  lengths(): ReadonlyMap<string, LengthFacts> {
    return this.#lengths;
  }

  /**
   * The facts of each load point with such requests, and of each case group (caseGroup). One bound runs over
   * every request in time order; the cache's room is judged apart for the load points and for the case
   * suite (a suite's long documents say nothing of the room a load point's workload had).
   */
  facts(config: RunConfig): Map<string, PrefixCacheFacts> {
    const rows = this.#rows;
    const declared = config.workload.prefix_cache?.capacity_tokens ?? null;
    const roomOf = (rs: readonly Row[]): PrefixCacheFacts["room"] =>
      declared !== null
        ? {capacityTokens: declared, source: "config"}
        : {capacityTokens: inFlightRoom(rs.length > 0 ? rs : rows), source: "in_flight"};
    const caseRows = rows.filter((r) => r.caseRow);
    const loadRoom = roomOf(rows.filter((r) => !r.caseRow));
    const caseRoom = roomOf(caseRows);
    const blockTokens = config.workload.prefix_cache?.block_tokens ?? null;
    const entries = rows.map((r) => r.entry);
    const bound = cacheBound(entries, {blockTokens, capacityTokens: loadRoom.capacityTokens});
    const caseBound =
      caseRows.length === 0 || caseRoom.capacityTokens === loadRoom.capacityTokens
        ? bound
        : cacheBound(entries, {blockTokens, capacityTokens: caseRoom.capacityTokens});
    const out = new Map<string, PrefixCacheFacts>();
    rows.forEach((r, i) => {
      if (!r.measured || !r.success) return;
      let f = out.get(r.group);
      if (f === undefined) {
        f = emptyFacts(r.tag?.kind ?? "synthetic", r.caseRow ? caseRoom : loadRoom);
        out.set(r.group, f);
      }
      const b = r.caseRow ? caseBound : bound;
      addRow(f, r, b.unbounded[i]!, b.withRoom![i]!);
    });
    for (const f of out.values()) {
      f.boundShare = f.promptTokens > 0 ? f.boundTokens / f.promptTokens : null;
      f.roomShare = f.promptTokens > 0 ? f.roomTokens / f.promptTokens : null;
      f.measuredShare = f.cachedPromptTokens > 0 ? f.cachedTokens / f.cachedPromptTokens : null;
    }
    return out;
  }
}

function emptyFacts(kind: WorkloadTag["kind"], room: PrefixCacheFacts["room"]): PrefixCacheFacts {
  return {
    kind,
    designed: DESIGNED_FOR_HITS.has(kind),
    requests: 0,
    promptTokens: 0,
    boundTokens: 0,
    boundShare: null,
    roomTokens: 0,
    roomShare: null,
    room,
    cachedKnown: 0,
    cachedTokens: 0,
    cachedPromptTokens: 0,
    measuredShare: null,
    overBound: 0,
    overExamples: [],
    exact: true,
    server: {window: null, reason: "the server exports no prefix-cache counters"},
    ttftHit: [],
    ttftMiss: [],
    ttftByTurn: new Map()
  };
}

function addRow(f: PrefixCacheFacts, r: Row, bound: number, room: number): void {
  f.requests++;
  f.promptTokens += r.entry.tokens;
  f.boundTokens += bound;
  f.roomTokens += room;
  if (!r.exact) f.exact = false;
  if (r.cached !== null && r.promptIn !== null) {
    f.cachedKnown++;
    f.cachedTokens += r.cached;
    f.cachedPromptTokens += r.promptIn;
    // the ceiling is in the collector's units; the server also counts a chat template's tokens and splits a
    // salt word into several: scaled to the server's count of this prompt before it is compared
    const scale = r.entry.tokens > 0 ? Math.max(1, r.promptIn / r.entry.tokens) : 1;
    if (r.cached > bound * scale + templatePrefixAllowance(r.promptIn)) {
      f.overBound++;
      if (f.overExamples.length < 3) f.overExamples.push(r.id);
    }
  }
  if (r.ttft === null) return;
  if (r.cached !== null) (r.cached > templatePrefixAllowance(r.promptIn) ? f.ttftHit : f.ttftMiss).push(r.ttft);
  const turn = r.tag?.turn;
  if (turn !== undefined) {
    const list = f.ttftByTurn.get(turn) ?? [];
    list.push(r.ttft);
    f.ttftByTurn.set(turn, list);
  }
}

/**
 * The least cache any server that served the run must have had: the prompts it held at once — the most
 * requests in flight together times the longest prompt. A server keeps at least the KV of the requests
 * it is serving; a hit the workload allows within that room is one an honest finite cache can make.
 */
function inFlightRoom(rows: readonly Row[]): number {
  const ev: [number, number][] = [];
  let longest = 0;
  for (const r of rows) {
    longest = Math.max(longest, r.entry.tokens);
    if (r.entry.sentNs === null) continue;
    ev.push([r.entry.sentNs, 1]);
    ev.push([r.endNs ?? r.entry.sentNs, -1]);
  }
  ev.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let peak = 0;
  for (const [, d] of ev) {
    now += d;
    if (now > peak) peak = now;
  }
  return Math.max(1, peak) * Math.max(1, longest);
}
