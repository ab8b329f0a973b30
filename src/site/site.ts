/**
 * Everything derived from the evidence once per build: bundles, declared groups, the comparison pages to
 * pre-build, and the build mode (the full site, or one standalone report for `inferscope report`).
 */
import {
  comparability,
  comparabilityKey,
  isQuickLook,
  seedOf,
  type Comparability,
  type HardwareData,
  type Report
} from "../analysis/index.ts";
import {t, type UiKey} from "../i18n/index.ts";
import {HARDWARE, loadEvidence, type LoadedBundle} from "../loaders/evidence.ts";
import {loadExperiments, type LoadedExperiment} from "../loaders/experiments.ts";
import {loadGroups, type Group} from "../loaders/groups.ts";

/** Pair pages are built inside a comparable set only up to this size (the set page always exists). */
export const MAX_SET_FOR_PAIRS = 12;

export interface ComparePage {
  slug: string;
  kind: "group" | "set" | "pair";
  title: {en: string; zh: string};
  note: {en: string; zh: string} | null;
  bundles: string[];
}

export interface Site {
  bundles: LoadedBundle[];
  /** The bundles ranked on the selection, matrix and Pareto pages: every one but quick looks (`inferscope quick`). */
  ranked: LoadedBundle[];
  byId: Map<string, LoadedBundle>;
  groups: Group[];
  /** Experiment records (evidence/experiments/), each with the compare page of its bundles (if ≥ 2 loaded). */
  experiments: {loaded: LoadedExperiment; comparePage: ComparePage | null}[];
  comparePages: ComparePage[];
  /** The pre-built page comparing exactly these bundles (any order), if there is one. */
  pageFor: (ids: readonly string[]) => ComparePage | null;
  comparabilityOf: (ids: readonly string[]) => Comparability;
  /** The GPU catalogue, engine support matrix and prices every report's hardware block was computed with. */
  hardware: HardwareData;
}

const memberKey = (ids: readonly string[]) => [...ids].sort().join("\n");

function workloadTitle(r: Report): string {
  const w = r.meta.workload;
  return `${r.meta.model ?? "?"} · in ${w.prompt_tokens ?? "?"} / out ${w.max_tokens ?? "?"} tokens`;
}

/** A page title in both languages (pages pick one). */
const both = (key: UiKey, vars: Record<string, string | number>) => ({
  en: t("en", key, vars),
  zh: t("zh", key, vars)
});

let cache: Promise<Site> | null = null;

export function loadSite(): Promise<Site> {
  cache ??= (async () => {
    const bundles = await loadEvidence();
    const byId = new Map(bundles.map((b) => [b.report.bundle, b]));
    const groups = loadGroups(new Set(byId.keys()));
    const pages: ComparePage[] = groups.map((g) => ({
      slug: `g-${g.id}`,
      kind: "group",
      title: g.title,
      note: g.note,
      bundles: g.bundles
    }));
    const experiments = loadExperiments().map((loaded) => {
      const ids = loaded.record.group.bundles.filter((id) => byId.has(id));
      const page: ComparePage | null =
        ids.length < 2
          ? null
          : {
              slug: `x-${loaded.record.name}`,
              kind: "group",
              title: both("siteExperimentGroupTitle", {name: loaded.record.name}),
              note:
                loaded.record.description === null
                  ? null
                  : {en: loaded.record.description, zh: loaded.record.description},
              bundles: ids
            };
      if (page !== null) pages.push(page);
      return {loaded, comparePage: page};
    });
    const sets = new Map<string, LoadedBundle[]>();
    for (const b of bundles) {
      const key = comparabilityKey(b.report);
      if (key !== null) (sets.get(key) ?? sets.set(key, []).get(key)!).push(b);
    }
    for (const [key, members] of [...sets].sort((a, b) => a[0].localeCompare(b[0]))) {
      if (members.length < 2) continue;
      const ids = members.map((m) => m.report.bundle).sort();
      const title = workloadTitle(members[0]!.report);
      pages.push({
        slug: `set-${seedOf(key).toString(16).padStart(8, "0")}`,
        kind: "set",
        title: both("siteSetTitle", {workload: title, n: ids.length}),
        note: null,
        bundles: ids
      });
      if (ids.length > 2 && ids.length <= MAX_SET_FOR_PAIRS)
        for (let i = 0; i < ids.length; i++)
          for (let j = i + 1; j < ids.length; j++)
            pages.push({
              slug: `${ids[i]}--vs--${ids[j]}`,
              kind: "pair",
              title: both("sitePairTitle", {a: ids[i]!, b: ids[j]!}),
              note: null,
              bundles: [ids[i]!, ids[j]!]
            });
    }
    const byMembers = new Map<string, ComparePage>();
    for (const p of pages) if (!byMembers.has(memberKey(p.bundles))) byMembers.set(memberKey(p.bundles), p);
    return {
      bundles,
      ranked: bundles.filter((b) => !isQuickLook(b.report.meta)),
      byId,
      groups,
      experiments,
      comparePages: pages,
      pageFor: (ids) => byMembers.get(memberKey(ids)) ?? null,
      comparabilityOf: (ids) => comparability(ids.map((id) => byId.get(id)!.report)),
      hardware: HARDWARE
    };
  })();
  return cache;
}
