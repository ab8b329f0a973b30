/**
 * The prefix-cache ceiling a workload allows (issue 16, docs/workloads.md#prefix-cache-truth): from the
 * chain hashes of each prompt's segments, how many of its prompt tokens a prefix cache could have served.
 *
 * Causality: a segment can be served to request r only once an earlier request holding it had finished
 * its prefill — its first output token arrived — before r was sent (two requests sent together both
 * compute their shared prefix). Granularity: a cache keeps whole blocks of the server's block size (token
 * granularity when unknown), and at least the last prompt token is always computed (it yields the first
 * output). `unbounded` assumes a cache that never evicts; `withRoom` an LRU cache of `capacityTokens`.
 */

/** One request as the bound sees it: when it was sent, when its prefill was done, what its prompt is made of. */
export interface CacheEntry {
  /** Send time (ns); null: unknown (the request cannot be placed and gets no hit). */
  sentNs: number | null;
  /** First output token (ns): its prompt's KV exists from then on; null: never (failed before the first token). */
  readyNs: number | null;
  /** [chain hash, tokens] of each segment, in prompt order. */
  segments: readonly (readonly [string, number])[];
  /** Prompt tokens the segments cover. */
  tokens: number;
  /** The answer as a further segment (sessions), cached from the request's end (its KV exists once generated). */
  answer?: {hash: string; tokens: number; readyNs: number | null};
}

/** Per entry (in input order): the tokens an unbounded cache, and an LRU cache of the given size, could serve. */
export interface CacheBound {
  unbounded: number[];
  /** null when no capacity is given. */
  withRoom: number[] | null;
}

/** Tokens of `shared` a cache with blocks of `blockTokens` serves, never the whole prompt. */
export function servable(shared: number, tokens: number, blockTokens: number | null): number {
  const whole = blockTokens === null || blockTokens <= 1 ? shared : Math.floor(shared / blockTokens) * blockTokens;
  return Math.max(0, Math.min(whole, tokens - 1));
}

/** Leading tokens of `e` whose segments `has` says were cached when it was sent. */
function sharedPrefix(e: CacheEntry, has: (hash: string) => boolean): number {
  let shared = 0;
  for (const [h, n] of e.segments) {
    if (!has(h)) break;
    shared += n;
  }
  return shared;
}

export function cacheBound(
  entries: readonly CacheEntry[],
  o: {blockTokens: number | null; capacityTokens: number | null}
): CacheBound {
  // unbounded: a segment is cached from the earliest moment a request holding it had its first token
  const readyAt = new Map<string, number>();
  const ready = (h: string, at: number) => {
    const t = readyAt.get(h);
    if (t === undefined || at < t) readyAt.set(h, at);
  };
  for (const e of entries) {
    if (e.readyNs !== null) for (const [h] of e.segments) ready(h, e.readyNs);
    if (e.answer !== undefined && e.answer.readyNs !== null) ready(e.answer.hash, e.answer.readyNs);
  }
  const unbounded = entries.map((e) => {
    if (e.sentNs === null) return 0;
    const sent = e.sentNs;
    const shared = sharedPrefix(e, (h) => (readyAt.get(h) ?? Infinity) < sent);
    return servable(shared, e.tokens, o.blockTokens);
  });
  return {unbounded, withRoom: o.capacityTokens === null ? null : lruBound(entries, o.capacityTokens, o.blockTokens)};
}

/**
 * The same bound for an LRU cache holding `capacity` tokens: events in time order — a send looks its
 * segments up (and touches those it finds), a first token inserts the request's segments — evicting the
 * least recently used segments beyond the capacity.
 */
function lruBound(entries: readonly CacheEntry[], capacity: number, blockTokens: number | null): number[] {
  type Ev = {t: number; kind: 0 | 1 | 2; i: number};
  const events: Ev[] = [];
  entries.forEach((e, i) => {
    // at equal times the lookup goes first: a prefill finishing at the very moment of a send does not serve it
    if (e.sentNs !== null) events.push({t: e.sentNs, kind: 0, i});
    if (e.readyNs !== null) events.push({t: e.readyNs, kind: 1, i});
    if (e.answer !== undefined && e.answer.readyNs !== null) events.push({t: e.answer.readyNs, kind: 2, i});
  });
  events.sort((a, b) => a.t - b.t || a.kind - b.kind || a.i - b.i);
  const lru = new Map<string, number>(); // insertion order = recency
  let held = 0;
  const touch = (h: string, n: number) => {
    const had = lru.get(h);
    if (had !== undefined) lru.delete(h);
    else held += n;
    lru.set(h, n);
  };
  const out = entries.map(() => 0);
  for (const ev of events) {
    const e = entries[ev.i]!;
    if (ev.kind === 0) {
      const shared = sharedPrefix(e, (h) => lru.has(h));
      for (const [h, n] of e.segments) {
        if (!lru.has(h)) break;
        touch(h, n);
      }
      out[ev.i] = servable(shared, e.tokens, blockTokens);
      continue;
    }
    if (ev.kind === 1) for (const [h, n] of e.segments) touch(h, n);
    else touch(e.answer!.hash, e.answer!.tokens);
    for (const [h, n] of lru) {
      if (held <= capacity) break;
      lru.delete(h);
      held -= n;
    }
  }
  return out;
}
