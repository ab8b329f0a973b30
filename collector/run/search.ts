import type {RequestRecord} from "../../src/analysis/schema/index.ts";
import {probePoint, type PlannedPoint, type PlannedSearch} from "../load/plan.ts";
import {nextSearchStep, type ProbeOutcome} from "../load/search.ts";
import type {BundleWriter} from "../writer/bundleWriter.ts";
import type {RunContext} from "./context.ts";
import type {SearchExchange, SharedVerdict} from "./searchExchange.ts";

/** Runs one probe as an ordinary load point and resolves with the records written for it. */
export type MeasureProbe = (planned: PlannedPoint) => Promise<Omit<RequestRecord, "seq">[]>;

interface Measured extends ProbeOutcome {
  summary: unknown;
}

/**
 * One load search (issue 14): asks the pure stepper (load/search.ts) for the next probe, runs it as an
 * ordinary load point, judges it with the injected judge (the analyzer's definition) from the records it
 * just wrote, and notes every decision in the client log: search_start, search_probe (value, the verdicts
 * so far, the reason), search_verdict, search_end (the collector's answer and why it stopped). A shard judges
 * no probe alone: through `exchange` shard 0 judges every shard's records of it, and all go on from that.
 */
export async function runSearch(
  c: RunContext,
  writer: BundleWriter,
  {search, blockIndex}: PlannedSearch,
  measure: MeasureProbe,
  exchange: SearchExchange | null = null
): Promise<void> {
  const judge = c.judgeProbe;
  if (judge === undefined) throw new Error("a load search needs a probe judge (CollectOptions.judgeProbe)");
  const tag = {search: blockIndex};
  writer.note(c.rel(), "search_start", {
    ...tag,
    over: search.over,
    range: search.range,
    objective: search.objective,
    precision: search.precision,
    max_probes: search.max_probes
  });
  const done: Measured[] = [];
  const end = (answer: number | null, reason: string) =>
    writer.note(c.rel(), "search_end", {...tag, answer, reason, probes: done.length});
  for (;;) {
    const step = nextSearchStep(search, done);
    if (step.kind === "end") return end(step.answer, step.reason);
    const stop = c.control.stopped;
    if (stop !== null) return end(null, `stopped before the search ended (${stop.kind}: ${stop.reason})`);
    const planned = probePoint(search, step.value);
    const previous = done.map((d) => ({value: d.value, status: d.status}));
    writer.note(c.rel(), "search_probe", {...tag, value: step.value, previous, reason: step.reason}, planned.point.id);
    if (done.length > 0 && search.cooldown_s > 0) {
      writer.note(c.rel(), "cooldown", {seconds: search.cooldown_s}, planned.point.id);
      await c.control.sleep(search.cooldown_s * 1000);
    }
    const records = await measure(planned);
    const stopped = c.control.stopped;
    if (stopped !== null)
      return end(null, `stopped during probe ${planned.point.id} (${stopped.kind}: ${stopped.reason})`);
    const lower = done.filter((d) => d.value < step.value).sort((a, b) => b.value - a.value)[0] ?? null;
    const judgeAll = (all: readonly Omit<RequestRecord, "seq">[]) =>
      judge(search, all, planned.point, lower?.summary ?? null);
    const shared: SharedVerdict =
      exchange === null
        ? {kind: "verdict", judgement: judgeAll(records)}
        : await exchange.share({block: blockIndex, n: done.length, point: planned.point.id, records}, judgeAll);
    if (shared.kind === "abort") {
      writer.note(c.rel(), "search_exchange", {...tag, value: step.value, reason: shared.reason}, planned.point.id);
      return end(null, `the shards could not judge probe ${planned.point.id} together: ${shared.reason}`);
    }
    const j = shared.judgement;
    const by = exchange === null ? {} : {judgedBy: "shard 0, from every shard's records"};
    writer.note(
      c.rel(),
      "search_verdict",
      {...tag, value: step.value, status: j.status, margin: j.margin, reason: j.reason, ...by},
      planned.point.id
    );
    done.push({value: step.value, status: j.status, summary: j.summary});
  }
}
