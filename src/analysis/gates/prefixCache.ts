import {formatShare} from "../format.ts";
import type {PrefixCacheFacts} from "../workload/log.ts";
import type {PointGate, PointOutcome} from "./types.ts";

const pct = (a: number, b: number) => (b === 0 ? "—" : `${((100 * a) / b).toFixed(1)} %`);

/** A workload designed for hits is judged on its hit rate only when it allows at least this share of prompt tokens. */
export const MIN_DESIGNED_BOUND = 0.05;
/** Far fewer hits than the room bound: below this fraction of it. */
export const UNDER_HIT_FRACTION = 0.5;

/**
 * The prefix-cache bound against the server's cached-token counts (workload/log.ts): hits no workload
 * structure explains are contamination; a workload designed for hits that gets under half of what a cache
 * with room for the run's in-flight prompts (or the declared capacity) could have served is flagged.
 */
/** What was measured: the per-request counts, else the server's counters over the point's window. */
function measuredOf(c: PrefixCacheFacts): {share: number | null; text: string} {
  const w = c.server.window;
  const server =
    w === null
      ? null
      : `the server's counters: ${formatShare(w.share)} (${w.hits} of ${w.queries} prompt tokens looked up, ${w.fromS.toFixed(1)}–${w.toS.toFixed(1)} s)`;
  if (c.cachedKnown > 0)
    return {
      share: c.measuredShare,
      text: `measured ${formatShare(c.measuredShare)} over ${c.cachedKnown}/${c.requests} requests with counts${server === null ? "" : `; ${server}`}`
    };
  return {
    share: w?.share ?? null,
    text: server === null ? "" : `measured by ${server}; the responses carry no cached-token counts`
  };
}

export function judgeBound(c: PrefixCacheFacts): PointOutcome {
  const m = measuredOf(c);
  const evidence = {
    boundShare: c.boundShare,
    roomShare: c.roomShare,
    measuredShare: m.share,
    measuredFrom: c.cachedKnown > 0 ? "usage" : c.server.window === null ? null : "server_counters",
    roomTokens: c.room.capacityTokens,
    roomSource: c.room.source
  };
  const n = c.requests;
  const room =
    c.room.source === "config"
      ? `an LRU cache of the declared ${c.room.capacityTokens} tokens`
      : `an LRU cache holding the run's most in-flight prompts (${c.room.capacityTokens} tokens)`;
  const bound = `bound ${formatShare(c.boundShare)} of prompt tokens with an unbounded cache, ${formatShare(c.roomShare)} with ${room}${c.exact ? "" : "; prompt segments ≈ 1 token per filler word"}`;
  if (c.cachedKnown === 0 && m.share === null)
    return {
      status: "not_evaluable",
      reason: `the server reports no cached-token counts (${c.server.reason ?? "its counters saw no prompt tokens"}): the hit rate is unknown (${bound})`,
      evidence
    };
  if (c.overBound > 0)
    return {
      status: "warn",
      reason: `${c.overBound}/${n} requests reused more cached prompt tokens than the workload allows (beyond its shared segments and a template prefix, e.g. ${c.overExamples.join(", ")}): a cache warmed before the run, or prompts not built as recorded; ${m.text}; ${bound}`,
      evidence
    };
  if (
    c.designed &&
    c.boundShare !== null &&
    c.boundShare >= MIN_DESIGNED_BOUND &&
    c.roomShare !== null &&
    m.share !== null &&
    m.share < UNDER_HIT_FRACTION * c.roomShare
  )
    return {
      status: "warn",
      reason: `far fewer cache hits than the workload allows: ${m.text}, under ${UNDER_HIT_FRACTION * 100} % of the ${formatShare(c.roomShare)} that ${room} could serve (${bound}) — a replay or cache bug, or a cache far smaller than the run's working set`,
      evidence
    };
  return {status: "pass", reason: `${m.text}; ${bound}`, evidence};
}

export const prefixCache: PointGate = {
  id: "G13",
  slug: "prefix_cache",
  scope: "point",
  streamsOnly: true,
  outcome: "N",
  required: false,
  title: {en: "Prefix cache: contamination and hit ceiling", zh: "前缀缓存：污染与命中上限"},
  description: {
    en: "Cold workloads (synthetic prompts salted per request, datasets): the server reports no cached prompt tokens beyond a chat template's shared prefix (at most max(32, 10 % of the prompt) per request), so a prefix cache cannot make prefill look faster than it is; unsalted prompts pass only when the server reported cached-token counts for every request and none beyond that prefix — salting unknown is not a pass. Workloads whose requests record their prompt segments (shared prefix, sessions, trace, dataset) are judged against the hit ceiling the analyzer computes from those segments: no request may reuse more than its shared segments allow (scaled to the server's count of that prompt, which also counts template tokens, plus a template prefix), and a workload designed for hits (shared prefix, sessions, trace, allowing ≥ 5 % of prompt tokens) warns when the server served under half of what an LRU cache with room for the run's most in-flight prompts (or the declared capacity) could have — measured by the responses' cached-token counts, else by the server's prefix-cache counters (vLLM) over the point's window.",
    zh: "冷工作负载（每个请求加盐的合成提示、数据集）：服务器报告的缓存提示 token 不超过聊天模板的公共前缀（每个请求至多 max(32, 提示的 10%)），前缀缓存因此不会让预填充显得更快；未加盐的提示只有在服务器为每个请求都报告了缓存 token 数且都不超过该前缀时才通过——未知不等于通过。记录了提示分段的工作负载（共享前缀、多轮会话、轨迹、数据集）按分析器由分段算出的命中上限判断：任何请求复用的缓存都不得超过其共享分段所允许的量（按服务器对该提示的计数缩放——服务器也计入模板 token——再加模板前缀）；为命中而设计的工作负载（共享前缀、会话、轨迹，上限 ≥ 提示 token 的 5%）若服务器提供的命中不到一个能容纳本次运行最多在途提示（或声明容量）的 LRU 缓存所能提供的一半，则告警——命中以响应中的缓存 token 数衡量，没有时以服务器的前缀缓存计数器（vLLM）在该负载点窗口内的变化衡量。"
  },
  anchor:
    "vLLM issues #52884, #54227; MLPerf TEST04; a Mooncake replay whose hit rate fell from ~98 % to 12 % unflagged",
  threshold: () =>
    `cached ≤ bound + max(32, 10 % of prompt) per request; designed workloads ≥ ${UNDER_HIT_FRACTION * 100} % of the room bound`,
  evaluatePoint: (p, ctx) => {
    const n = p.totals.successes;
    if (n === 0) return {status: "not_evaluable", reason: "no successful requests"};
    if (p.prefixCache !== undefined && p.prefixCache !== null && p.prefixCache.requests > 0)
      return judgeBound(p.prefixCache);
    if (ctx.imported && p.cachedRequests === 0)
      return {status: "not_evaluable", reason: "imported: the source records neither prompt salting nor cached tokens"};
    if (p.cachedRequests > 0)
      return {
        status: "warn",
        reason: `${p.cachedRequests}/${n} requests reused ${p.cachedTokens} cached prompt tokens (${pct(p.cachedRequests, n)})`
      };
    const prefix =
      p.cachedPrefixOnly > 0
        ? `; ${p.cachedPrefixOnly}/${n} requests reused only a template-sized prefix (≤ max(32, 10 % of the prompt) tokens)`
        : "";
    if (ctx.config.workload.salt) {
      if (p.unsalted > 0) return {status: "warn", reason: `${p.unsalted} measured requests were not salted`};
      return {
        status: "pass",
        reason: `salted prompts; ${p.cachedKnown > 0 ? "no cached prompt tokens beyond a template prefix reported" : "the server reports no cached-token counts"}${prefix}`
      };
    }
    // Unsalted prompts can hit a prefix cache: only the server's cached-token counts can show they did not.
    if (p.cachedKnown < n)
      return {
        status: "not_evaluable",
        reason: `prompts are not salted and the server reported cached-token counts for ${p.cachedKnown}/${n} requests: whether a prefix cache served them is unknown`
      };
    return {
      status: "pass",
      reason: `prompts not salted, but the server reported no cached prompt tokens beyond a template prefix for all ${n}${prefix}`
    };
  }
};
