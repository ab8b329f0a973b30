import {caseMeta, type CaseId} from "../../src/analysis/schema/cases.ts";
import type {RunConfig, SuiteOptions} from "../../src/analysis/schema/config.ts";
import type {Effects} from "../effects.ts";
import type {PlannedPoint} from "../load/plan.ts";
import type {TokenCounter} from "../request/prompt.ts";
import {Gsm8kError, loadGsm8k, type Gsm8kData, type Gsm8kSource} from "./gsm8k.ts";
import {planCases, selectCases, suiteOptions} from "./plan.ts";
import {runCasePlans, type CaseRunContext} from "./runner.ts";
import type {CasePlan} from "./types.ts";

/**
 * The case suite inside `collect`: validated before anything is sent (a bad suite name, a missing
 * quality_load point or unreadable GSM8K data is a config error), planned once the target is probed,
 * run after the load points (idle), then the quality cases again under load when asked.
 */
export interface SuiteSetup {
  options: SuiteOptions;
  cases: CaseId[];
  skipped: CaseId[];
  /** Quality cases to repeat under load, and the point. */
  underLoad: {point: PlannedPoint; cases: CaseId[]} | null;
}

/** Throws Error with a config message; the caller turns it into exit 2. */
export function setupSuite(config: RunConfig, points: readonly PlannedPoint[]): SuiteSetup | null {
  if (config.suites === undefined || config.suites.length === 0) {
    if (config.suite_options?.quality_load) throw new Error("suite_options.quality_load needs suites to run");
    return null;
  }
  if (config.target.endpoint !== "chat")
    throw new Error(`suites need target.endpoint chat (tools, conversations), got ${config.target.endpoint}`);
  const options = suiteOptions(config);
  const sel = selectCases(config.suites, options.skip_heavy);
  let underLoad: SuiteSetup["underLoad"] = null;
  const ql = options.quality_load;
  if (ql) {
    const point = points.find((p) => p.point.id === ql.point);
    if (!point)
      throw new Error(
        `suite_options.quality_load.point ${JSON.stringify(ql.point)} is not a load point of this config (${points.map((p) => p.point.id).join(", ")})`
      );
    const cases = ql.suites
      ? selectCases(ql.suites, false).cases
      : sel.cases.filter((id) => caseMeta(id)?.layer === "quality");
    const notQuality = cases.filter((id) => caseMeta(id)?.layer !== "quality");
    if (notQuality.length > 0)
      throw new Error(
        `suite_options.quality_load.suites: only quality cases run under load, not ${notQuality.join(", ")}`
      );
    if (cases.length === 0) throw new Error("suite_options.quality_load: no quality case selected to run under load");
    underLoad = {point, cases};
  }
  return {options, cases: sel.cases, skipped: sel.skipped, underLoad};
}

export interface BuiltSuite {
  setup: SuiteSetup;
  idle: CasePlan[];
  load: CasePlan[];
  gsm8k: Gsm8kData | null;
}

export async function buildSuite(
  setup: SuiteSetup,
  o: {
    fx: Pick<Effects, "files" | "http" | "env">;
    seed: number;
    count: TokenCounter | null;
    salt: boolean;
    gsm8kSource?: Gsm8kSource;
  }
): Promise<BuiltSuite> {
  const all = [...new Set([...setup.cases, ...(setup.underLoad?.cases ?? [])])];
  let gsm8k: Gsm8kData | null = null;
  if (all.includes("gsm8k")) {
    try {
      gsm8k = await loadGsm8k(setup.options.gsm8k, o.fx, o.gsm8kSource);
    } catch (e) {
      if (e instanceof Gsm8kError) throw new Error(e.message, {cause: e});
      throw e;
    }
  }
  const plans = await planCases(all, {options: setup.options, seed: o.seed, count: o.count, gsm8k, salt: o.salt});
  const byId = new Map(plans.map((p) => [p.caseId, p]));
  return {
    setup,
    idle: setup.cases.map((id) => byId.get(id)!),
    load: (setup.underLoad?.cases ?? []).map((id) => byId.get(id)!),
    gsm8k
  };
}

export async function runSuite(c: CaseRunContext, suite: BuiltSuite): Promise<void> {
  c.note("suite_start", {
    cases: suite.setup.cases,
    skipped_heavy: suite.setup.skipped,
    under_load: suite.setup.underLoad
      ? {point: suite.setup.underLoad.point.point.id, cases: suite.setup.underLoad.cases}
      : null,
    gsm8k: suite.gsm8k?.origin ?? null
  });
  await runCasePlans(c, suite.idle, {kind: "idle"});
  if (suite.setup.underLoad && !c.control.stopped)
    await runCasePlans(c, suite.load, {kind: "load", point: suite.setup.underLoad.point});
  c.note("suite_end", {});
}
