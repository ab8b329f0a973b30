import type {ServerScrape} from "../schema/records.ts";

/**
 * The server's own prefix-cache counters (vLLM: `vllm:prefix_cache_queries_total` and
 * `vllm:prefix_cache_hits_total`, prompt tokens looked up and served; the `gpu_`-prefixed names of older
 * releases), summed over their label sets per scrape, and their change over a load point's window — the
 * measured hit share when the responses carry no cached-token counts (vLLM sends them only with
 * --enable-prompt-tokens-details).
 */
const QUERIES = new Set(["vllm:prefix_cache_queries_total", "vllm:gpu_prefix_cache_queries_total"]);
const HITS = new Set(["vllm:prefix_cache_hits_total", "vllm:gpu_prefix_cache_hits_total"]);

interface CounterScrape {
  tNs: number;
  queries: number;
  hits: number;
}

/** The counters' change over a point's window: from the last scrape at or before its start to the first at or after its end. */
export interface ServerCacheWindow {
  queries: number;
  hits: number;
  share: number | null;
  fromS: number;
  toS: number;
}

export class PrefixCounterLog {
  readonly #scrapes: CounterScrape[] = [];

  add(s: ServerScrape): void {
    if (!s.ok) return;
    let queries: number | null = null;
    let hits: number | null = null;
    for (const [name, , value] of s.samples) {
      if (value === null) continue;
      if (QUERIES.has(name)) queries = (queries ?? 0) + value;
      else if (HITS.has(name)) hits = (hits ?? 0) + value;
    }
    if (queries !== null && hits !== null) this.#scrapes.push({tNs: s.tNs, queries, hits});
  }

  get hasAny(): boolean {
    return this.#scrapes.length > 0;
  }

  /** The change over [start, end] ns, or the reason it is unknown. */
  window(span: readonly [number, number] | null): {window: ServerCacheWindow | null; reason: string | null} {
    if (this.#scrapes.length === 0) return {window: null, reason: "the server exports no prefix-cache counters"};
    if (span === null) return {window: null, reason: "the load point has no measurement window"};
    const [start, end] = span;
    const before = this.#scrapes.filter((s) => s.tNs <= start).at(-1);
    const after = this.#scrapes.find((s) => s.tNs >= end);
    if (before === undefined) return {window: null, reason: "no counter scrape before the load point started"};
    if (after === undefined) return {window: null, reason: "no counter scrape after the load point ended"};
    const queries = after.queries - before.queries;
    const hits = after.hits - before.hits;
    if (queries < 0 || hits < 0)
      return {window: null, reason: "a counter went down across the load point (server restart)"};
    return {
      window: {
        queries,
        hits,
        share: queries > 0 ? hits / queries : null,
        fromS: before.tNs / 1e9,
        toS: after.tNs / 1e9
      },
      reason: null
    };
  }
}
