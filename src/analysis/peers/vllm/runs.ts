import {appendAll} from "../../util/append.ts";
import {shownValue} from "../shared/jsonScan.ts";
import {requestTimeError} from "../shared/numeric.ts";
import {jsonSafe, validate} from "../shared/parse.ts";
import type {Doc, PeerError, Result} from "../shared/types.ts";
import {modelOf} from "./condition.ts";
import {ARRAYS, runValues, VllmLikeRun, vllmLikeShape, type Flavor, type RunValue} from "./format.ts";
import {requestTimes, runOrigin} from "./times.ts";

/** One validated result object and where it came from. */
export interface ParsedRun extends Omit<RunValue, "value"> {
  run: VllmLikeRun;
  raw: Record<string, unknown>;
  file: string;
}

function alignErrors(run: VllmLikeRun, file: string, at: string): PeerError[] {
  const n = run.ttfts?.length;
  if (n === undefined) return [];
  const errors: PeerError[] = [];
  for (const k of ARRAYS) {
    const a = run[k];
    if (a !== undefined && a.length !== n)
      errors.push({
        file,
        path: `${at}.${k}`,
        expected: `an array of ${n} entries (one per request, index-aligned with ttfts), got ${a.length}`
      });
  }
  return errors;
}

/**
 * Each request's times as vllm/import.ts puts them in its record (vllm/times.ts), checked against the rule every
 * importer's times obey (shared/numeric.ts requestTimeError): ns in 0 … 2^53 − 1 and in order. A TTFT of null
 * (Python's NaN) is refused: vLLM and SGLang write 0.0 for a request without a first token, never NaN, and
 * reading it as "no token" would turn an answer into an empty one.
 */
function timeErrors(run: VllmLikeRun, file: string, at: string): PeerError[] {
  const ttfts = run.ttfts;
  if (!ttfts) return [];
  const errors: PeerError[] = [];
  const starts = run.start_times;
  const origin = starts ? "the run's first request" : "the request's start";
  const t0 = runOrigin(run);
  for (let i = 0; i < ttfts.length; i++) {
    const t = requestTimes(run, i, t0);
    if (t.ttft === null || t.firstNs === null || t.lastNs === null) {
      errors.push({
        file,
        path: `${at}.ttfts[${i}]`,
        expected: `a time to first token in seconds (≥ 0; 0.0 where the request got none), got ${shownValue(null)}`
      });
      continue;
    }
    // import.ts builds token events from the gaps of a request that did not fail
    const withGaps = !t.failed && t.gaps.length > 0;
    // a gap too long for a record, named at its own place rather than at the sum it spoils
    const k = withGaps ? t.gapsNs.findIndex((g) => !Number.isSafeInteger(g)) : -1;
    const gap =
      k < 0
        ? null
        : {path: `${at}.itls[${i}][${k}]`, what: "an inter-token latency", value: t.gaps[k]!, ns: t.gapsNs[k]!};
    const e = requestTimeError(file, "s", origin, [
      gap,
      starts ? {path: `${at}.start_times[${i}]`, what: "a start time", value: starts[i]!, ns: t.dispNs} : null,
      {path: `${at}.ttfts[${i}]`, what: "a time to first token", value: t.ttft, ns: t.firstNs},
      withGaps
        ? {
            path: `${at}.itls[${i}]`,
            what: "the last token (ttft + Σ itls)",
            value: t.gaps.reduce((s, g) => s + g, t.ttft),
            ns: t.lastNs
          }
        : null,
      t.latency === undefined || t.endNs === null
        ? null
        : {path: `${at}.latencies[${i}]`, what: "an end-to-end latency", value: t.latency, ns: t.endNs}
    ]);
    if (e) errors.push(e);
  }
  return errors;
}

/**
 * Two result objects that are one run written twice: the same keys with the same values (the scalars first:
 * two runs differ in their date or duration, so the per-request arrays are rarely compared).
 */
function sameRun(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length || !keys.every((k) => k in b)) return false;
  const same = (k: string) => JSON.stringify(jsonSafe(a[k])) === JSON.stringify(jsonSafe(b[k]));
  const nested = (k: string) => typeof a[k] === "object" && a[k] !== null;
  return keys.every((k) => nested(k) || a[k] === b[k]) && keys.filter(nested).every(same);
}

/**
 * What is not imported, with the reason as a note: a `vllm bench sweep` warmup run (run_number −1, its
 * warmup.json, found when a sweep's folder is imported) and a run given twice (a sweep's summary.json holds
 * the same results as its run=N.json files).
 */
function leftOut(runs: readonly ParsedRun[], notes: string[]): ParsedRun[] {
  const kept: ParsedRun[] = [];
  for (const r of runs) {
    const n = r.raw.run_number;
    if (typeof n === "number" && n < 0) {
      notes.push(`${r.label}: run_number ${n} is a vllm bench sweep warmup run, not a measurement: not imported`);
      continue;
    }
    const twin = kept.find((k) => sameRun(k.raw, r.raw));
    if (twin) {
      notes.push(`${r.label} is the run ${twin.label} holds (the same keys and values): imported once`);
      continue;
    }
    kept.push(r);
  }
  return kept;
}

/**
 * One import is one model (a bundle names one): runs whose models differ, or where one names a model and
 * another none, are refused with both places named.
 */
function modelErrors(runs: readonly ParsedRun[]): PeerError[] {
  const first = runs[0];
  if (!first) return [];
  const model = modelOf(first.raw);
  return runs
    .filter((r) => modelOf(r.raw) !== model)
    .map((r) => {
      const other = modelOf(r.raw);
      return {
        file: r.file,
        path: `${r.where}${r.base}`,
        expected: `the model of ${first.label} (${model === null ? "none named" : JSON.stringify(model)}), got ${other === null ? "none named" : JSON.stringify(other)}: a bundle holds one model's runs, so import each model's files separately`
      };
    });
}

const expectedRun = (flavor: Flavor): string =>
  `a ${flavor === "vllm" ? "vLLM --save-result" : "SGLang bench_serving"} object with "duration", "completed" and "<stat>_ttft_ms" keys`;

/**
 * Every run object of every file, validated and checked for index-aligned arrays and for one model; all
 * errors together. `notes` receives what was left out and why.
 */
export function readRuns(flavor: Flavor, docs: readonly Doc[], notes: string[]): Result<ParsedRun[]> {
  const errors: PeerError[] = [];
  const runs: ParsedRun[] = [];
  for (const doc of docs) {
    const values = runValues(doc);
    const array = doc.kind !== "jsonl" && Array.isArray(doc.value);
    if (array && values.length > 1 && values.every(({value}) => vllmLikeShape(value) === null)) {
      // an array none of whose elements is a result: one error for the file, not one per element
      errors.push({file: doc.name, path: "$", expected: `${expectedRun(flavor)}, or an array of them`});
      continue;
    }
    for (const {value, where, base, label} of values) {
      if (vllmLikeShape(value) === null) {
        errors.push({file: doc.name, path: `${where}${base}`, expected: expectedRun(flavor)});
        continue;
      }
      const r = validate(VllmLikeRun, value, doc.name, base, where);
      if (!r.ok) {
        appendAll(errors, r.errors);
        continue;
      }
      const align = alignErrors(r.value, doc.name, `${where}${base}`);
      if (align.length === 0) appendAll(align, timeErrors(r.value, doc.name, `${where}${base}`));
      if (align.length) appendAll(errors, align);
      else runs.push({run: r.value, raw: value as Record<string, unknown>, file: doc.name, where, base, label});
    }
  }
  const kept = errors.length ? runs : leftOut(runs, notes);
  appendAll(errors, modelErrors(kept));
  if (errors.length) return {ok: false, errors};
  if (kept.length === 0)
    return {ok: false, errors: [{file: docs[0]?.name ?? "(none)", path: "$", expected: "at least one measured run"}]};
  return {ok: true, value: kept};
}
