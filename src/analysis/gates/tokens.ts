import type {DerivedRequest} from "../derive/request.ts";
import {isMeasuredSuccess, type PointReducer} from "../accumulate/reducer.ts";
import type {RunConfig} from "../schema/config.ts";
import {TEMPLATE_TOKENS, templatePrefixAllowance} from "../workload/allowance.ts";
import type {PointGate} from "./types.ts";

/** The stream's own token count against the server's (G8). */
export interface TokenCheck {
  /** Successful requests with a server count. */
  checked: number;
  /** Server count below the non-empty token events (each carries ≥ 1 token) beyond the tolerance. */
  undercount: number;
  /** Server count that the exact per-event deltas contradict beyond the tolerance. */
  contradicted: number;
  /**
   * Without per-event counts: requests with more tokens than the stream showed events, beyond the tolerance
   * and 2 tokens (a server may send no chunk for a token whose text it holds back: llama.cpp streams 30
   * chunks for 32 tokens) — several tokens per chunk, held-back tokens, or an overcount.
   */
  unverified: number;
  /** Σ server count and Σ stream count over the requests without per-event counts (the pooled surplus check). */
  sumOutNoDeltas: number;
  sumStreamNoDeltas: number;
  /** Requests whose tokens arrived only as empty text (counted by the server). */
  emptyText: number;
  /** Requests whose end-of-sequence token rode on the finish chunk. */
  eosOnFinish: number;
  /**
   * Requests without a reasoning channel whose first counted token came as empty text before their first
   * visible text (held back): TTFT counts it, ttft_content_ms runs to the text.
   */
  heldFirst: number;
  sumOut: number;
  sumStream: number;
  /** A few examples: [request id, server count, stream count]. */
  examples: [string, number, number][];
}

/** What the token gates (G8, G10, G11, G12, prefix cache) read of a point's successful measured requests. */
export interface TokenFacts {
  tokens: TokenCheck;
  outputLength: {checked: number; outside: number; expected: number | null; examples: number[]};
  inputLength: {checked: number; outside: number; intendedMean: number | null; actualMean: number | null};
  /** Requests that reused more cached prompt tokens than a chat template's prefix explains. */
  cachedRequests: number;
  cachedTokens: number;
  /** Requests whose cached tokens fit a template prefix (≤ max(32, 10 % of the prompt)). */
  cachedPrefixOnly: number;
  /** Successful requests whose server reported a cached-token count (0 included). */
  cachedKnown: number;
  /** Successful requests with exact per-event token counts. */
  deltasKnown: number;
}

interface TokenState {
  config: RunConfig;
  facts: Omit<TokenFacts, "inputLength">;
  input: {checked: number; outside: number; intended: number; actual: number};
}

/** The server's output count against the stream's own (G8), per successful request with a server count. */
function checkTokens(c: TokenCheck, d: DerivedRequest, tol: number): void {
  if (d.out === null || !d.chunksKnown) return;
  c.checked++;
  c.sumOut += d.out;
  c.sumStream += d.streamTokens;
  if (d.emptyText) c.emptyText++;
  if (d.eosOnFinish) c.eosOnFinish++;
  if (!d.emptyText && !d.hasReasoning && d.tTok1 !== null && d.tContent1 !== null && d.tTok1 < d.tContent1)
    c.heldFirst++;
  let flagged = false;
  if (d.out < d.nonEmptyEvents * (1 - tol)) {
    c.undercount++;
    flagged = true;
  } else if (d.deltasKnown) {
    if (Math.abs(d.out - d.streamTokens) > tol * d.out) {
      c.contradicted++;
      flagged = true;
    }
  } else if (!d.emptyText) {
    c.sumOutNoDeltas += d.out;
    c.sumStreamNoDeltas += d.streamTokens;
    if (d.out - d.streamTokens > Math.max(tol * d.out, 2)) {
      c.unverified++;
      flagged = true;
    }
  }
  if (flagged && c.examples.length < 3) c.examples.push([d.record.id, d.out, d.streamTokens]);
}

/**
 * G12's rule for one prompt: fewer tokens than the intended length less the tolerance (truncation), or more
 * than the intended length plus the tolerance and a chat template's own tokens (a short prompt's template
 * is most of it: a 20-token prompt is ~30 on the server).
 */
export const promptOutside = (reported: number, intended: number, tol: number): boolean =>
  reported < intended * (1 - tol) || reported > intended * (1 + tol) + TEMPLATE_TOKENS;

/** Output length against max_tokens under ignore_eos (G11), prompt length against the intended one (G12). */
function checkLengths(s: TokenState, d: DerivedRequest): void {
  const r = d.record;
  const {workload, gates} = s.config;
  const out = s.facts.outputLength;
  if (workload.ignore_eos && r.maxTokens !== null && d.out !== null) {
    out.checked++;
    out.expected = r.maxTokens;
    if (Math.abs(d.out - r.maxTokens) > gates.output_tolerance * r.maxTokens) {
      out.outside++;
      if (out.examples.length < 5) out.examples.push(d.out);
    }
  }
  if (r.promptTokensIntended !== null && d.in !== null) {
    s.input.checked++;
    s.input.intended += r.promptTokensIntended;
    s.input.actual += d.in;
    if (promptOutside(d.in, r.promptTokensIntended, gates.input_tolerance)) s.input.outside++;
  }
}

export const tokenFacts: PointReducer<TokenState, TokenFacts> = {
  init: (_point, config) => ({
    config,
    facts: {
      tokens: {
        checked: 0,
        undercount: 0,
        contradicted: 0,
        unverified: 0,
        sumOutNoDeltas: 0,
        sumStreamNoDeltas: 0,
        emptyText: 0,
        eosOnFinish: 0,
        heldFirst: 0,
        sumOut: 0,
        sumStream: 0,
        examples: []
      },
      outputLength: {checked: 0, outside: 0, expected: null, examples: []},
      cachedRequests: 0,
      cachedTokens: 0,
      cachedPrefixOnly: 0,
      cachedKnown: 0,
      deltasKnown: 0
    },
    input: {checked: 0, outside: 0, intended: 0, actual: 0}
  }),
  add: (s, d) => {
    if (!isMeasuredSuccess(d)) return;
    const f = s.facts;
    if (d.deltasKnown) f.deltasKnown++;
    if (d.cached !== null) f.cachedKnown++;
    checkTokens(f.tokens, d, s.config.gates.token_tolerance);
    if (d.cached !== null && d.cached > 0) {
      // A chat template's fixed prefix (BOS, role markers, a default system header) is shared by every
      // request and legitimately cached; only reuse beyond that means the prompts were not unique.
      if (d.cached > templatePrefixAllowance(d.in)) {
        f.cachedRequests++;
        f.cachedTokens += d.cached;
      } else f.cachedPrefixOnly++;
    }
    checkLengths(s, d);
  },
  finish: ({facts, input}) => ({
    ...facts,
    inputLength: {
      checked: input.checked,
      outside: input.outside,
      intendedMean: input.checked ? input.intended / input.checked : null,
      actualMean: input.checked ? input.actual / input.checked : null
    }
  })
};

export const tokenAccounting: PointGate = {
  id: "G8",
  slug: "token_accounting",
  scope: "point",
  streamsOnly: true,
  outcome: "N",
  required: true,
  title: {en: "Token accounting", zh: "token 计数"},
  description: {
    en: "Every successful request has an output token count from the server (usage), never from chunk counts or the requested length; the source is disclosed. The count is checked against the stream's own, both ways, within gates.token_tolerance (default 5 %): it may not be below the events with non-empty text (each carries at least one token); with per-event counts (continuous usage) it must equal their sum; without them, a count above one token per streamed event (the end-of-sequence token on a natural stop's finish chunk included) cannot be verified — several tokens per chunk or an overcount — and is flagged, because decode speeds are computed from it. Tokens a server streamed as empty text (held-back partial UTF-8) are counted by its usage and disclosed, and so is a first token that came as empty text before the first visible text (TTFT counts it; ttft_content_ms runs to the text). With per-event counts, a jump of the running count after the last text is not a streamed token (one end-of-sequence token on a natural stop excepted); a jump before later text counts for that text (buffered by a tool parser).",
    zh: "每个成功请求都有来自服务器（usage）的输出 token 数，绝不用块数或请求长度代替；并披露来源。该计数与流本身的计数双向核对，容差为 gates.token_tolerance（默认 5%）：不得少于带非空文本的事件数（每个至少一个 token）；有逐事件计数（continuous usage）时必须等于其总和；没有时，超过“每个流事件一个 token”（含自然停止时 finish 块上的结束 token）的计数无法核实——可能是每块多个 token，也可能是多计——因此会被标记，因为解码速度由它计算。服务器以空文本流出的 token（被扣留的不完整 UTF-8）按其 usage 计数并披露；首个 token 以空文本在首个可见文本之前到达时也会披露（TTFT 计入它；ttft_content_ms 计到文本）。有逐事件计数时，累计计数在最后一段文本之后的跳变不算流出的 token（自然停止时的一个结束 token 除外）；出现在后续文本之前的跳变计入该文本（被工具解析器缓冲）。"
  },
  anchor: "MLCommons Endpoints token_accounting.md; LLMPerf PR #81; TGI issue #2531; validity-and-faults.md F7",
  threshold: (c) => `server count = stream count ± ${(c.gates.token_tolerance * 100).toFixed(0)} %`,
  evaluatePoint: (p, ctx) => {
    const n = p.totals.successes;
    if (n === 0) return {status: "not_evaluable", reason: "no successful requests"};
    const sources = Object.entries(p.usageSources)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ");
    if (p.totals.successesMissingOut > 0)
      return {
        status: "warn",
        reason: `${p.totals.successesMissingOut}/${n} successful requests have no output token count (${sources}); token metrics withheld`
      };
    const t = p.tokens;
    const tol = `${(ctx.config.gates.token_tolerance * 100).toFixed(0)} %`;
    // the counts are the server's (usage) unless a client tokenizer counted some of them (imports: AIPerf, GenAI-Perf)
    const clientCounted = (p.usageSources["client_tokenizer"] ?? 0) > 0;
    const who = clientCounted ? "counted" : "server";
    const eg = t.examples.map(([id, out, stream]) => `${id}: ${who} ${out} vs stream ${stream}`).join(", ");
    const disclosed: string[] = [];
    if (t.emptyText > 0)
      disclosed.push(
        `${t.emptyText} requests streamed their tokens as empty text only (counted by the server's usage)`
      );
    if (t.eosOnFinish > 0)
      disclosed.push(`${t.eosOnFinish} natural stops carried the end-of-sequence token on the finish chunk`);
    if (t.heldFirst > 0)
      disclosed.push(
        `${t.heldFirst} requests' first token came as empty text before their first visible text (held back, counted by the server): TTFT counts it, ttft_content_ms runs to the text`
      );
    const problems: string[] = [];
    if (t.undercount > 0)
      problems.push(`${t.undercount} requests report fewer tokens than their non-empty events (beyond ${tol})`);
    if (t.contradicted > 0)
      problems.push(
        `${t.contradicted} requests report a count that their per-event token counts contradict (beyond ${tol})`
      );
    const tolerance = ctx.config.gates.token_tolerance;
    const surplus = t.sumOutNoDeltas > t.sumStreamNoDeltas * (1 + tolerance);
    if (surplus)
      problems.push(
        clientCounted
          ? `without per-event counts the counts (a client tokenizer's among them) say ${t.sumOutNoDeltas} tokens for ${t.sumStreamNoDeltas} streamed events (beyond ${tol}; ${t.unverified} requests beyond it and 2 tokens): several tokens per chunk or a miscount — decode speeds use those counts`
          : `without per-event counts the server reports ${t.sumOutNoDeltas} tokens for ${t.sumStreamNoDeltas} streamed events (beyond ${tol}; ${t.unverified} requests beyond it and 2 tokens): several tokens per chunk or an overcount — decode speeds use the server's count (turn on continuous usage to check)`
      );
    else if (t.unverified > 0)
      disclosed.push(
        `${t.unverified} requests carry more tokens than streamed events (beyond ${tol} and 2 tokens) while the point's totals agree (${who} Σ ${t.sumOutNoDeltas} vs stream Σ ${t.sumStreamNoDeltas})`
      );
    if (problems.length > 0)
      return {
        status: "warn",
        reason: `${problems.join("; ")}; ${who} Σ ${t.sumOut} vs stream Σ ${t.sumStream}${eg ? ` (e.g. ${eg})` : ""}`,
        evidence: {...t}
      };
    const client = p.usageSources["client_tokenizer"] ?? 0;
    const tail = disclosed.length > 0 ? `; ${disclosed.join("; ")}` : "";
    if (client > 0)
      return {status: "info", reason: `counted by a client tokenizer for ${client}/${n} (${sources})${tail}`};
    if (t.emptyText > 0 || t.unverified > 0 || t.heldFirst > 0)
      return {status: "info", reason: `server usage for all ${n} (${sources})${tail}`};
    return {status: "pass", reason: `server usage for all ${n} (${sources}), consistent with the stream${tail}`};
  }
};

export const multiTokenChunks: PointGate = {
  id: "G10",
  slug: "multi_token_chunks",
  scope: "point",
  streamsOnly: true,
  outcome: "W",
  required: false,
  title: {en: "Multi-token chunks", zh: "多 token 块"},
  description: {
    en: "Detects SSE events that carry several tokens (speculative decoding, stream intervals). Then chunk gaps are not token gaps: per-token ITL and inter-chunk latency are reported side by side.",
    zh: "检测携带多个 token 的 SSE 事件（投机解码、流间隔）。此时块间隔不等于 token 间隔：逐 token ITL 与块间时延并列报告。"
  },
  anchor: "SGLang PR #12064; vLLM issue #27485",
  threshold: () => null,
  evaluatePoint: (p) => {
    const t = p.totals;
    if (t.chunksUnknown > 0)
      return {status: "not_evaluable", reason: "imported: the source records only the first and last token times"};
    if (t.tokenEvents === 0 || t.successesMissingOut > 0)
      return {status: "not_evaluable", reason: "token counts unknown"};
    const perEvent = t.outputTokens / t.tokenEvents;
    if (perEvent <= 1.05 && t.multiTokenEvents === 0)
      return {status: "pass", reason: `${perEvent.toFixed(2)} tokens per event`};
    const perToken =
      p.deltasKnown > 0
        ? "per-token ITL reported from server deltas"
        : "per-token ITL unavailable (no per-event token counts)";
    return {
      status: "info",
      reason: `${perEvent.toFixed(2)} tokens per event (${t.multiTokenEvents} multi-token events): inter_chunk_ms is per chunk; ${perToken}`
    };
  }
};

export const outputLength: PointGate = {
  id: "G11",
  slug: "output_length",
  scope: "point",
  streamsOnly: true,
  outcome: "N",
  required: false,
  title: {en: "Output length control", zh: "输出长度控制"},
  description: {
    en: "When ignore_eos was asked, each request's output is within the tolerance (default ±10 %) of max_tokens; otherwise throughput compares unequal work.",
    zh: "请求了 ignore_eos 时，每个请求的输出在 max_tokens 的容差（默认 ±10%）之内；否则吞吐比较的是不等量的工作。"
  },
  anchor: "MLPerf TEST09 (±10 % tokens); AIPerf OSL mismatch warning",
  threshold: (c) => `±${(c.gates.output_tolerance * 100).toFixed(0)} % of max_tokens`,
  evaluatePoint: (p, ctx) => {
    if (!ctx.config.workload.ignore_eos) return {status: "not_applicable", reason: "ignore_eos not requested"};
    const o = p.outputLength;
    if (o.checked === 0)
      return {status: "not_evaluable", reason: "no request with both max_tokens and an output count"};
    if (o.outside > 0)
      return {
        status: "warn",
        reason: `${o.outside}/${o.checked} outputs outside ±${(ctx.config.gates.output_tolerance * 100).toFixed(0)} % of ${o.expected} (e.g. ${o.examples.join(", ")})`
      };
    return {status: "pass", reason: `${o.checked} outputs within tolerance of ${o.expected}`};
  }
};

export const inputLength: PointGate = {
  id: "G12",
  slug: "input_length",
  scope: "point",
  outcome: "N",
  required: false,
  title: {en: "Prompt length", zh: "提示长度"},
  description: {
    en: "The server's prompt_tokens match the intended prompt length within tolerance (default ±25 %: prompts are built without the server's tokenizer), plus up to 32 tokens above it that a chat template adds around any prompt; a large gap means silent truncation or a wrong workload.",
    zh: "服务器报告的 prompt_tokens 与预期提示长度在容差内一致（默认 ±25%：提示在没有服务器分词器的情况下构造），且允许超出部分再多出聊天模板为任意提示添加的至多 32 个 token；差距过大意味着静默截断或负载设置错误。"
  },
  anchor: "Ollama issues #17889, #3839",
  threshold: (c) => `±${(c.gates.input_tolerance * 100).toFixed(0)} % (+ ${TEMPLATE_TOKENS} template tokens above)`,
  evaluatePoint: (p) => {
    const i = p.inputLength;
    if (i.checked === 0) return {status: "not_evaluable", reason: "intended or reported prompt length unknown"};
    const text = `mean ${i.actualMean!.toFixed(1)} reported vs ${i.intendedMean!.toFixed(1)} intended`;
    if (i.outside > 0) return {status: "warn", reason: `${i.outside}/${i.checked} prompts outside tolerance (${text})`};
    return {status: "pass", reason: text};
  }
};

export const shortOutputs: PointGate = {
  id: "G19",
  slug: "short_outputs",
  scope: "point",
  streamsOnly: true,
  outcome: "W",
  required: false,
  title: {en: "Requests without ITL", zh: "没有 ITL 的请求"},
  description: {
    en: "Requests with fewer than 2 output tokens have no ITL; by default they do not count as good in goodput. Their number is disclosed.",
    zh: "输出少于 2 个 token 的请求没有 ITL；默认不计入有效产出。披露其数量。"
  },
  anchor: "vLLM serve.py sets TPOT to 0 for such requests (counter-example)",
  threshold: () => null,
  evaluatePoint: (p, ctx) => {
    const t = p.totals;
    if (t.shortOutputs > 0)
      return {
        status: "info",
        reason: `${t.shortOutputs} successful requests had < 2 tokens (${ctx.config.slo.short_output === "fail" ? "not good" : "ITL clause not applied"})`
      };
    // no evidence is not a pass: nothing succeeded, or no success has a known output count
    if (t.successes === 0) return {status: "not_evaluable", reason: "no successful request to count tokens of"};
    const known = t.successes - t.successesMissingOut;
    if (known === 0)
      return {status: "not_evaluable", reason: `output token count unknown for all ${t.successes} successful requests`};
    if (t.successesMissingOut > 0)
      return {
        status: "pass",
        reason: `every one of ${known} successful requests with a known output count produced ≥ 2 tokens (${t.successesMissingOut} unknown)`
      };
    return {status: "pass", reason: "every successful request produced ≥ 2 tokens"};
  }
};
