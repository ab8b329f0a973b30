import type {Bilingual} from "../metrics/types.ts";

/**
 * What a user can do about a gate that decided a verdict (issue 18), said where the verdict is shown (the
 * report's banner, `collect`'s last lines). Only gates a user can act on have advice.
 */
export const GATE_ADVICE: Readonly<Record<string, Bilingual>> = {
  G6: {
    en: "What to do: the load generator was short of CPU, so measured latency includes its own delay. Run on a quieter machine (this verdict depends on its idle cores), with fewer concurrent streams, or with a smaller preset (the demo's `small`, `tiny`); `collect --workers N` splits the load over several processes.",
    zh: "怎么办：压测客户端 CPU 不足，测得的时延包含它自身的延迟。请在更空闲的机器上运行（这一结论取决于空闲核心数），减少并发流，或使用更小的预设（演示的 `small`、`tiny`）；`collect --workers N` 可把负载分给多个进程。"
  },
  G4: {
    en: "What to do: too few successful requests for the percentiles the SLO needs — raise the load points' `requests` (or `duration_s`), or judge at a lower percentile.",
    zh: "怎么办：成功请求太少，不足以计算 SLO 所需的百分位数——增加负载点的 `requests`（或 `duration_s`），或改用更低的百分位判断。"
  }
};

/**
 * The advice for a verdict's reasons ("Gn slug: …"), each once, in the order given: only for a gate that
 * failed or warned (missing evidence — not_evaluable — has no remedy a user runs).
 */
export function adviceFor(reasons: readonly string[], gates: readonly {id: string; status: string}[]): Bilingual[] {
  const acted = new Set(gates.filter((g) => g.status === "warn" || g.status === "fail").map((g) => g.id));
  const ids = reasons
    .map((r) => /^(G\d+)\b/.exec(r)?.[1])
    .filter((id): id is string => id !== undefined && acted.has(id));
  return [...new Set(ids)].flatMap((id) => (GATE_ADVICE[id] === undefined ? [] : [GATE_ADVICE[id]]));
}
