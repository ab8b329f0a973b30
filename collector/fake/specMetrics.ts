import type {SpecCounts, SpecEmulation} from "./spec.ts";

type Dialect = SpecEmulation["dialect"];
type Totals = Omit<SpecCounts, "dialect">;

/**
 * The fake server's speculative-decoding counters, summed over finished responses per dialect and rendered
 * under that engine's names: vLLM `vllm:spec_decode_num_{drafts,draft_tokens,accepted_tokens}_total` and
 * `vllm:spec_decode_num_accepted_tokens_per_pos_total{position}` (llama.cpp: the same names under
 * `llamacpp:`), SGLang the gauges `sglang:spec_accept_length` (1 + accepted / drafts, its mean acceptance
 * length with the bonus token) and `sglang:spec_accept_rate` (accepted / draft tokens); nothing before the
 * first speculative response, as a server without speculation exports nothing.
 */
export class SpecCounters {
  readonly #by = new Map<Dialect, Totals>();

  add(c: SpecCounts): void {
    let t = this.#by.get(c.dialect);
    if (t === undefined) {
      t = {drafts: 0, draftTokens: 0, accepted: 0, perPos: []};
      this.#by.set(c.dialect, t);
    }
    t.drafts += c.drafts;
    t.draftTokens += c.draftTokens;
    t.accepted += c.accepted;
    c.perPos.forEach((n, i) => (t.perPos[i] = (t.perPos[i] ?? 0) + n));
  }

  /** Prometheus text lines (labels: the `model_name="…"` pair without braces). */
  render(labels: string): string[] {
    const lines: string[] = [];
    for (const [dialect, t] of this.#by) {
      if (dialect === "sglang") {
        const length = t.drafts > 0 ? 1 + t.accepted / t.drafts : 0;
        const rate = t.draftTokens > 0 ? t.accepted / t.draftTokens : 0;
        lines.push("# TYPE sglang:spec_accept_length gauge", `sglang:spec_accept_length{${labels}} ${length}`);
        lines.push("# TYPE sglang:spec_accept_rate gauge", `sglang:spec_accept_rate{${labels}} ${rate}`);
        continue;
      }
      const p = `${dialect === "vllm" ? "vllm" : "llamacpp"}:spec_decode_num_`;
      for (const [name, v] of [
        ["drafts", t.drafts],
        ["draft_tokens", t.draftTokens],
        ["accepted_tokens", t.accepted]
      ] as const)
        lines.push(`# TYPE ${p}${name}_total counter`, `${p}${name}_total{${labels}} ${v}`);
      lines.push(`# TYPE ${p}accepted_tokens_per_pos_total counter`);
      t.perPos.forEach((n, i) => lines.push(`${p}accepted_tokens_per_pos_total{${labels},position="${i}"} ${n}`));
    }
    return lines;
  }
}
