import type {DerivedRequest} from "../derive/request.ts";
import type {SloConfig} from "../schema/config.ts";
import {e2eMs, ttftMs} from "./latency.ts";
import {itlMs} from "./speed.ts";

export interface SloJudgement {
  /** null when a clause cannot be evaluated (e.g. output tokens unknown, so ITL is unknown). */
  good: boolean | null;
  /** Clauses the request missed, e.g. "ttft 2310 ms > 2000 ms"; "failed: http_error" for failures. */
  missed: string[];
  shortOutput: boolean;
}

/**
 * Whether one measured request is "good": it succeeded and met every per-request SLO.
 * ITL is undefined below 2 output tokens; such a request fails the ITL clause unless the
 * config declares the clause not applicable (slo.short_output). A non-streamed answer (embeddings) has
 * no first token and no output: only its E2E clause applies.
 */
export function judgeSlo(r: DerivedRequest, slo: SloConfig): SloJudgement {
  if (!r.success) return {good: false, missed: [`failed: ${r.outcome}`], shortOutput: false};
  const missed: string[] = [];
  if (r.nonStreamed) {
    const e2e = e2eMs.value(r);
    if (e2e === null || e2e > slo.e2e_ms)
      missed.push(e2e === null ? "e2e unknown" : `e2e ${e2e.toFixed(0)} ms > ${slo.e2e_ms} ms`);
    return {good: missed.length === 0, missed, shortOutput: false};
  }
  const ttft = ttftMs.value(r);
  const e2e = e2eMs.value(r);
  const itl = itlMs.value(r);
  if (ttft === null || ttft > slo.ttft_ms)
    missed.push(ttft === null ? "ttft unknown" : `ttft ${ttft.toFixed(0)} ms > ${slo.ttft_ms} ms`);
  if (e2e === null || e2e > slo.e2e_ms)
    missed.push(e2e === null ? "e2e unknown" : `e2e ${e2e.toFixed(0)} ms > ${slo.e2e_ms} ms`);
  const shortOutput = r.out !== null && r.out < 2;
  let unknown = false;
  if (itl === null) {
    if (r.out === null) unknown = missed.length === 0;
    else if (shortOutput) {
      if (slo.short_output !== "not_applicable")
        missed.push(`itl undefined (${r.out} output token${r.out === 1 ? "" : "s"})`);
    } else if (r.tTok1 === null || r.tTokN === null) missed.push("itl unknown: token times missing");
    else missed.push(`itl undefined (all ${r.out} tokens arrived in one event: no decode span)`);
  } else if (itl > slo.itl_ms) missed.push(`itl ${itl.toFixed(1)} ms > ${slo.itl_ms} ms`);
  if (unknown) return {good: null, missed: ["itl unknown: output token count missing"], shortOutput};
  return {good: missed.length === 0, missed, shortOutput};
}
