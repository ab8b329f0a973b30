import type {ExperimentRecord, VariantRecord} from "../schema/experiment.ts";
import {argsDiff} from "./argsDiff.ts";

/** Grid parameters that switch speculative decoding (MTP, EAGLE, draft models) on and off. */
export const SPEC_PARAM = /^-*(spec|mtp|speculative|spec-decode|speculative-decoding|eagle|draft)$/i;
/** Values of such a parameter: on, off, and a second off run that measures the noise. */
const ON = /^(on|true|yes|1)$/i;
const OFF = /^(off|false|no|0)$/i;
const OFF_REPEAT = /^(off-?repeat|off-?2|off-?again)$/i;

/** A spec-on variant, its spec-off twin (every other parameter equal) and, if run, a second spec-off. */
export interface SpecPair {
  param: string;
  on: string;
  off: string;
  offRepeat: string | null;
}

const others = (v: VariantRecord, param: string) =>
  JSON.stringify(Object.entries(v.params).filter(([k]) => k !== param));

/**
 * The spec on/off pairs of an experiment, read from its grid: a parameter named spec, mtp, speculative,
 * eagle or draft with values on and off (and optionally off-repeat, the noise reference), every other
 * parameter equal.
 */
export function specPairs(record: ExperimentRecord): SpecPair[] {
  const out: SpecPair[] = [];
  for (const on of record.variants)
    for (const [param, value] of Object.entries(on.params)) {
      if (!SPEC_PARAM.test(param) || !ON.test(value)) continue;
      const twin = (re: RegExp) =>
        record.variants.find(
          (v) => v.name !== on.name && re.test(v.params[param] ?? "") && others(v, param) === others(on, param)
        );
      const off = twin(OFF);
      if (off !== undefined) out.push({param, on: on.name, off: off.name, offRepeat: twin(OFF_REPEAT)?.name ?? null});
    }
  return out;
}

/** One variant as the experiment page shows it beside the others. */
export interface VariantView {
  record: VariantRecord;
  /** Its launch options that the other variants do not share (absent flags as `(no FLAG)`). */
  ownArgs: string[];
}

export interface ExperimentView {
  variants: VariantView[];
  /** Launch options every variant with a command shares. */
  commonArgs: string[];
  failures: VariantRecord[];
  specPairs: SpecPair[];
}

/**
 * A launch command with what the experiment itself assigned written back as placeholders (the port it
 * picked, the container name it made, its own labels), so variants differ only by what the plan sets.
 */
export function plannedCommand(v: VariantRecord): string[] {
  const port = v.baseUrl === null ? null : (/:(\d+)$/.exec(v.baseUrl)?.[1] ?? null);
  const out: string[] = [];
  const argv = v.command ?? [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--label" && /^inferscope\./.test(argv[i + 1] ?? "")) {
      i++;
      continue;
    }
    if (argv[i - 1] === "--name" && a.startsWith("inferscope-")) out.push("{container}");
    else out.push(port === null ? a : a.split(port).join("{port}"));
  }
  return out;
}

/** The experiment page's shape: variants with their diffed launch commands, failures, spec pairs. */
export function experimentView(record: ExperimentRecord): ExperimentView {
  const withCommand = record.variants.filter((v) => v.command !== null);
  const diff = argsDiff(withCommand.map(plannedCommand));
  const own = new Map(withCommand.map((v, i) => [v.name, diff.own[i]!]));
  return {
    variants: record.variants.map((v) => ({record: v, ownArgs: own.get(v.name) ?? []})),
    commonArgs: diff.common,
    failures: record.variants.filter((v) => v.status === "start_failed" || v.status === "collect_failed"),
    specPairs: specPairs(record)
  };
}
