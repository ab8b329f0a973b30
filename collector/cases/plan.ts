import {CASE_IDS, caseMeta, HEAVY_CASES, isCaseId, type CaseId} from "../../src/analysis/schema/cases.ts";
import {SuiteOptionsSpec, type RunConfig, type SuiteOptions} from "../../src/analysis/schema/config.ts";
import type {TokenCounter} from "../request/prompt.ts";
import type {Gsm8kData} from "./gsm8k.ts";
import {gsm8kItems} from "./gsm8k.ts";
import {case11} from "./instructions.ts";
import {case05, case09} from "./longContext.ts";
import {case10} from "./needle.ts";
import {case01, case02, case03, case04, case06, case07, case08} from "./performance.ts";
import type {CasePlan} from "./types.ts";

/** Suite ids a config or --suites may name: every case id, plus "all" (case_01 … case_11) and "quality". */
export const SUITE_ALIASES: Readonly<Record<string, readonly CaseId[]>> = {
  all: CASE_IDS.filter((id) => id !== "gsm8k"),
  quality: ["case_10_needle", "case_11_instruction"]
};

export interface Selection {
  cases: CaseId[];
  /** Heavy cases left out by skip_heavy (reported, never silent). */
  skipped: CaseId[];
}

/**
 * Resolves suite names to case ids in catalogue order, without duplicates. skip_heavy drops 05/06/07/09
 * and never a quality case. Unknown names are an error listing the known ones.
 */
export function selectCases(names: readonly string[], skipHeavy: boolean): Selection {
  const wanted = new Set<CaseId>();
  for (const n of names) {
    const alias = SUITE_ALIASES[n];
    if (alias) for (const id of alias) wanted.add(id);
    else if (isCaseId(n)) wanted.add(n);
    else
      throw new Error(
        `unknown suite ${JSON.stringify(n)}: use ${[...Object.keys(SUITE_ALIASES), ...CASE_IDS].join(", ")}`
      );
  }
  const ordered = CASE_IDS.filter((id) => wanted.has(id));
  const skipped = skipHeavy ? ordered.filter((id) => HEAVY_CASES.includes(id)) : [];
  return {cases: ordered.filter((id) => !skipped.includes(id)), skipped};
}

/** The suite options of a config with every default filled in (the resolved config records them). */
export function suiteOptions(config: RunConfig): SuiteOptions {
  return config.suite_options ?? SuiteOptionsSpec.parse({});
}

export const isQualityCase = (id: CaseId): boolean => caseMeta(id)?.layer === "quality";

export interface BuildContext {
  options: SuiteOptions;
  /** Seed of generated texts (filler, code words). */
  seed: number;
  /** Server-side token counter (/tokenize), or null. */
  count: TokenCounter | null;
  gsm8k: Gsm8kData | null;
  /** Salt performance prompts (workload.salt). */
  salt: boolean;
}

/** Builds the items of each selected case. */
export async function planCases(cases: readonly CaseId[], b: BuildContext): Promise<CasePlan[]> {
  const plans: CasePlan[] = [];
  for (const caseId of cases) {
    const quality = isQualityCase(caseId);
    const repeats = quality ? b.options.quality_repeats : b.options.repeats;
    const plan = (items: CasePlan["items"]): CasePlan => ({caseId, items, repeats, salt: b.salt && !quality});
    switch (caseId) {
      case "case_01_generation":
        plans.push(plan(case01()));
        break;
      case "case_02_tool_call":
        plans.push(plan(case02()));
        break;
      case "case_03_file_analysis":
        plans.push(plan(case03()));
        break;
      case "case_04_parallel_tools":
        plans.push(plan(case04()));
        break;
      case "case_05_long_context":
        plans.push(plan(await case05(b.options, b.seed, b.count)));
        break;
      case "case_06_reasoning":
        plans.push(plan(case06(b.options)));
        break;
      case "case_07_multi_turn":
        plans.push(plan(case07(b.options, b.seed)));
        break;
      case "case_08_concurrency":
        plans.push(plan(case08(b.options)));
        break;
      case "case_09_prefill_injection":
        plans.push(plan(await case09(b.options, b.seed, b.count)));
        break;
      case "case_10_needle":
        plans.push(plan(await case10(b.options, b.count)));
        break;
      case "case_11_instruction":
        plans.push(plan(case11()));
        break;
      case "gsm8k":
        if (b.gsm8k === null) throw new Error("gsm8k selected but its data was not loaded");
        plans.push(plan(gsm8kItems(b.gsm8k, b.options.gsm8k)));
        break;
    }
  }
  return plans;
}
