import {addSample, emptySamples, inArrivalOrder, type ProbeSamples} from "../accumulate/probeSamples.ts";
import {deriveRequest} from "../derive/request.ts";
import type {RunConfig, SearchSpec} from "../schema/config.ts";
import type {LoadPoint} from "../schema/manifest.ts";
import {RequestRecord} from "../schema/records.ts";
import {judgeProbe, objectiveOf, type ProbeVerdict} from "./judge.ts";
import type {PointSummary} from "./saturation.ts";

/**
 * A probe's samples from request records as the collector holds them: each record goes through the
 * bundle's own request schema (what the analyzer reads back) and the same derivation, so the collector's
 * verdict is the analyzer's.
 */
export function samplesOfRecords(records: readonly unknown[], config: RunConfig): ProbeSamples {
  const s = emptySamples();
  const closeNs = config.target.timeouts.close_ms * 1e6;
  for (const [seq, raw] of records.entries()) {
    const rec = RequestRecord.parse(JSON.parse(JSON.stringify({seq, ...(raw as object)})));
    if (rec.phase === "measure") addSample(s, deriveRequest(rec, {closeNs}), config.slo);
  }
  return inArrivalOrder(s);
}

/**
 * The judge the collector is given (commands/collect.ts → CollectOptions.judgeProbe): the verdict of one
 * probe from its records, against the summary of the nearest lower probe it measured before.
 */
export function judgeRecords(
  config: RunConfig,
  search: SearchSpec,
  records: readonly unknown[],
  point: LoadPoint,
  lower: PointSummary | null
): ProbeVerdict {
  return judgeProbe(samplesOfRecords(records, config), objectiveOf(search), config, point.value, lower);
}
