import {bisectLeft} from "d3-array";

import {isMeasuredSuccess, type PointReducer} from "../accumulate/reducer.ts";
import type {DerivedRequest} from "../derive/request.ts";
import type {BundleGate, PointGate} from "./types.ts";

/** What the streaming gates (G9 reasoning channel, G13 buffered streaming, stream close) read of a point. */
export interface StreamingFacts {
  reasoningRequests: number;
  /** Requests that stopped at max_tokens while still thinking (a reasoning channel, no answer token); a few ids. */
  cutInThinking: {count: number; examples: string[]};
  inlineThink: number;
  fakeStreaming: number;
  /** Buffered responses (up to 1,000): request id and when the burst arrived (the last token event), ns. */
  bufferedBursts: {id: string; tNs: number}[];
  /** Successful streams the server kept open after their terminal marker until the client closed them. */
  hung: {count: number; maxS: number | null; example: string | null};
  /** Successful streams whose terminal marker was recorded (imports of most tools keep none): G29's population. */
  closeChecked: number;
}

/**
 * Buffered ("fake") streaming: ≥ 10 output tokens that arrived in at most 2 events, or whose events all
 * arrived within 50 µs per token (> 20,000 tok/s for one request: a flush of held-back output, not decoding).
 */
export function isBuffered(d: DerivedRequest): boolean {
  if (d.out === null || d.out < 10) return false;
  if (d.tokenEvents <= 2) return true;
  return d.tTok1 !== null && d.tTokN !== null && (d.tTokN - d.tTok1) / (d.out - 1) < 50_000;
}

export const streamingFacts: PointReducer<StreamingFacts, StreamingFacts> = {
  init: () => ({
    reasoningRequests: 0,
    cutInThinking: {count: 0, examples: []},
    inlineThink: 0,
    fakeStreaming: 0,
    bufferedBursts: [],
    hung: {count: 0, maxS: null, example: null},
    closeChecked: 0
  }),
  add: (f, d) => {
    if (!isMeasuredSuccess(d)) return;
    if (d.tTerminal !== null) f.closeChecked++;
    const r = d.record;
    if (d.hasReasoning) f.reasoningRequests++;
    if (d.hasReasoning && d.tContent1 === null && r.finishReason === "length") {
      f.cutInThinking.count++;
      if (f.cutInThinking.examples.length < 3) f.cutInThinking.examples.push(r.id);
    }
    if (r.responseText !== undefined && /<think>/i.test(r.responseText)) f.inlineThink++;
    if (d.hung) {
      f.hung.count++;
      const s = d.hangNs === null ? null : d.hangNs / 1e9;
      if (s !== null && (f.hung.maxS === null || s > f.hung.maxS)) f.hung.maxS = s;
      f.hung.example ??= r.id;
    }
    if (d.chunksKnown && isBuffered(d)) {
      f.fakeStreaming++;
      if (f.bufferedBursts.length < 1000 && d.tTokN !== null) f.bufferedBursts.push({id: r.id, tNs: d.tTokN});
    }
  },
  finish: (f) => f
};

export const ttftRule: PointGate = {
  id: "G9",
  slug: "ttft_rule",
  scope: "point",
  streamsOnly: true,
  outcome: "N",
  required: false,
  title: {en: "Reasoning channel recognised", zh: "识别推理通道"},
  description: {
    en: "TTFT counts the first non-empty delta on any channel; reasoning deltas (reasoning_content / reasoning) are recognised. Inline <think> tags inside content mean the server did not separate reasoning, so visible-token metrics are unreliable.",
    zh: "TTFT 计算任一通道上第一个非空增量；推理增量（reasoning_content / reasoning）可被识别。正文中出现内联 <think> 标签说明服务器未分离推理，可见 token 相关指标不可靠。"
  },
  anchor: "vLLM issue #15106; GuideLLM issue #737",
  threshold: () => null,
  evaluatePoint: (p) => {
    // no successful stream: nothing was seen, which is not a pass
    if (p.totals.successes === 0) return {status: "not_evaluable", reason: "no successful streamed request to inspect"};
    if (p.inlineThink > 0)
      return {status: "warn", reason: `${p.inlineThink} responses contain inline <think> tags inside content`};
    if (p.reasoningRequests > 0)
      return {
        status: "info",
        reason: `${p.reasoningRequests} requests streamed a reasoning channel (ttft_ms counts it; ttft_content_ms does not)`
      };
    return {status: "pass", reason: "no reasoning channel seen"};
  }
};

export const reasoningCutoff: PointGate = {
  id: "G31",
  slug: "reasoning_cutoff",
  scope: "point",
  streamsOnly: true,
  outcome: "N",
  required: false,
  title: {en: "Answers cut off while thinking", zh: "思考中被截断的回答"},
  description: {
    en: "A reasoning model that uses up max_tokens while still thinking never answers: the request finished with finish_reason length, streamed a reasoning channel and no answer token. Its latency and speed are real, but they are not those of an answer — raise max_tokens or lower the reasoning effort. Not applicable without a reasoning channel.",
    zh: "推理模型若在思考阶段就用完 max_tokens，便不会给出回答：请求以 finish_reason length 结束，流中有推理通道却没有任何回答 token。其时延与速度是真实的，却不是一个回答的时延与速度——应提高 max_tokens 或降低推理强度。没有推理通道时不适用。"
  },
  anchor:
    "vLLM reasoning outputs (reasoning_content); OpenAI reasoning models: max_completion_tokens covers reasoning tokens",
  threshold: () => "no request stops at max_tokens before its first answer token",
  evaluatePoint: (p) => {
    if (p.reasoningRequests === 0) return {status: "not_applicable", reason: "no reasoning channel seen"};
    const c = p.cutInThinking;
    if (c.count > 0)
      return {
        status: "warn",
        reason: `${c.count}/${p.reasoningRequests} reasoning requests stopped at max_tokens before their first answer token (e.g. ${c.examples.join(", ")})`
      };
    return {status: "pass", reason: `every one of ${p.reasoningRequests} reasoning requests reached its answer`};
  }
};

/**
 * Bursts the client's own stalls explain: when the event loop stalls for d ms, everything the server sent
 * meanwhile is read in one go as the loop resumes, so a response can look buffered although the server
 * streamed it. A burst that arrived within 2 ms of a recorded stall's end (≥ 5 ms) is the client's.
 */
export function clientExplained(
  bursts: readonly {id: string; tNs: number}[],
  loop: readonly {stalls: [number, number][] | null}[]
): number {
  const resumes: number[] = [];
  for (const w of loop) for (const [t, ms] of w.stalls ?? []) if (ms >= 5) resumes.push(t);
  resumes.sort((a, b) => a - b);
  let n = 0;
  for (const b of bursts) {
    const lo = bisectLeft(resumes, b.tNs - 2e6); // the first stall that ended at most 2 ms before the burst
    if (lo < resumes.length && resumes[lo]! <= b.tNs + 2e6) n++;
  }
  return n;
}

export const fakeStreaming: PointGate = {
  id: "G16",
  slug: "fake_streaming",
  scope: "point",
  streamsOnly: true,
  outcome: "N",
  required: false,
  title: {en: "Real streaming", zh: "真实流式输出"},
  description: {
    en: "Flags requests whose ≥ 10 output tokens arrived in at most 2 events, or all within 50 µs per token (faster than 20,000 tok/s for one request): buffered output makes TTFT ≈ E2E and hides decode behaviour. A burst that arrived as the client's event loop resumed from a recorded stall (≥ 5 ms) is the client's, not the server's: it is disclosed and left to the client-health gate G6.",
    zh: "标记 ≥ 10 个输出 token 却在最多 2 个事件中到达、或全部在每 token 50 µs 内到达（单请求超过 20,000 tok/s）的请求：缓冲输出使 TTFT ≈ E2E，并掩盖解码行为。若突发恰在客户端事件循环从记录到的停顿（≥ 5 ms）恢复时到达，则属于客户端而非服务器：予以披露，交给客户端健康门禁 G6 判断。"
  },
  anchor: "kekzl/imp issue #754",
  threshold: () => "0 buffered responses the client does not explain",
  evaluatePoint: (p, ctx) => {
    if (p.totals.chunksUnknown > 0)
      return {status: "not_evaluable", reason: "imported: the source records only the first and last token times"};
    if (p.totals.successes === 0) return {status: "not_evaluable", reason: "no successful streamed request to inspect"};
    if (p.fakeStreaming === 0) return {status: "pass", reason: "tokens arrived spread over events"};
    const explained = clientExplained(p.bufferedBursts, ctx.client.loop);
    const server = p.fakeStreaming - explained;
    const text = `${p.fakeStreaming} responses delivered ≥ 10 tokens in ≤ 2 events or in one burst`;
    if (server > 0)
      return {
        status: "warn",
        reason: `${text}${explained > 0 ? ` (${explained} of them as the client resumed from a stall)` : ""}`
      };
    return {
      status: "info",
      reason: `${text}, each as the client's event loop resumed from a stall: the client's, see G6`
    };
  }
};

export const telemetryCompleteness: BundleGate = {
  id: "G24",
  slug: "telemetry_completeness",
  scope: "bundle",
  outcome: "N",
  required: false,
  title: {en: "Telemetry completeness", zh: "遥测完整性"},
  description: {
    en: "Server /metrics scrapes and GPU samples that failed are recorded as gaps; claims based on telemetry need ≤ 10 % missing — a series whose every sample failed is a warning, not a pass. Absent telemetry is 'not captured', never zeros.",
    zh: "失败的服务器 /metrics 抓取与 GPU 采样被记录为缺口；基于遥测的结论要求缺失 ≤ 10%——全部采样都失败的序列是警告而不是通过。未采集的遥测显示为“未采集”，绝不是零。"
  },
  anchor: "InferScope v1 swallowed /metrics failures",
  threshold: (c) => `≤ ${(c.gates.max_telemetry_missing * 100).toFixed(0)} % failed samples`,
  evaluate: (ctx) => {
    const max = ctx.config.gates.max_telemetry_missing;
    const parts: string[] = [];
    let worst: "pass" | "warn" = "pass";
    let any = false;
    for (const [name, t] of [
      ["server /metrics", ctx.server],
      ["GPU", ctx.gpu]
    ] as const) {
      if (t.scrapes === 0) {
        parts.push(`${name}: not captured${t.unavailable === null ? "" : ` (${t.unavailable})`}`);
        continue;
      }
      any = true;
      const missing = t.failed / t.scrapes;
      parts.push(
        `${name}: ${t.scrapes - t.failed}/${t.scrapes} ok${t.failed === t.scrapes ? " — no telemetry evidence" : ""}${t.firstError ? ` (first error: ${t.firstError})` : ""}`
      );
      if (missing > max) worst = "warn";
    }
    const evidence = {server: ctx.server, gpu: ctx.gpu};
    if (!any) return {status: "not_applicable", reason: parts.join("; "), evidence};
    return {status: worst, reason: parts.join("; "), evidence};
  }
};

export const streamClose: PointGate = {
  id: "G29",
  slug: "stream_close",
  scope: "point",
  streamsOnly: true,
  outcome: "N",
  required: false,
  title: {en: "Streams closed", zh: "流正常关闭"},
  description: {
    en: "After its terminal marker ([DONE] or a finish_reason) every successful stream ended within timeouts.close_ms (default 10 s). A stream the server kept open is still a complete answer — the request counts as a success and ends at its last event, so the window and the rates stay honest — but a server that holds finished streams open ties up connections and slots, so the point is inconclusive and the hang is stated. A stream whose terminal marker was not recorded (most imports keep only token times) is not judged; with none recorded the gate is not evaluable.",
    zh: "每个成功的流在其结束标记（[DONE] 或 finish_reason）之后都在 timeouts.close_ms（默认 10 秒）内结束。服务器保持打开的流仍是完整的回答——该请求计为成功，并以其最后一个事件为结束，因此窗口与速率保持真实——但服务器让已结束的流保持打开会占用连接与槽位，因此该负载点结论不确定，并注明挂起。未记录结束标记的流（多数导入只保留 token 时刻）不参与判断；一个也没有记录时，该门禁不可评估。"
  },
  anchor: "validity-and-faults.md F15 (stall) and F4 (EOF after finish_reason)",
  threshold: (c) => `closed within ${c.target.timeouts.close_ms} ms of the terminal marker`,
  evaluatePoint: (p) => {
    const n = p.totals.successes;
    if (n === 0) return {status: "not_evaluable", reason: "no successful requests"};
    const h = p.hung;
    const k = p.closeChecked;
    if (k === 0)
      return {
        status: "not_evaluable",
        reason:
          "no successful stream recorded its terminal marker (an import keeps the source's verdict, not the stream's end)"
      };
    if (h.count === 0)
      return {
        status: "pass",
        reason:
          k === n
            ? `all ${n} successful streams closed after their terminal marker`
            : `all ${k} of ${n} successful streams that recorded a terminal marker closed after it`
      };
    return {
      status: "warn",
      reason: `${h.count}/${n} successful streams stayed open after their terminal marker until the client closed them (longest ${h.maxS === null ? "—" : `${h.maxS.toFixed(1)} s`}, e.g. ${h.example}); they count as successes ending at their last event`,
      evidence: {...h}
    };
  }
};
