/**
 * The site's only I/O: finds every bundle under evidence/, analyses it through the pure core, and
 * fails the build with the complete list of problems (file:line) when a bundle is invalid.
 */
import {existsSync, readdirSync} from "node:fs";
import {join, resolve} from "node:path";

import {analyzeBundle, formatIssue, type Report} from "../analysis/index.ts";
import {fsBundle} from "../io/fsBundle.ts";

export const EVIDENCE_DIR = resolve(process.env.INFERSCOPE_EVIDENCE ?? "evidence");

export interface LoadedBundle {
  dir: string;
  report: Report;
}

/** Bundle folders: every direct subfolder of evidence/ holding a manifest.json (schema/ and others are skipped). */
export function bundleDirs(root = EVIDENCE_DIR): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, {withFileTypes: true})
    .filter((d) => d.isDirectory() && existsSync(join(root, d.name, "manifest.json")))
    .map((d) => join(root, d.name))
    .sort();
}

let cache: Promise<LoadedBundle[]> | null = null;

export function loadEvidence(): Promise<LoadedBundle[]> {
  cache ??= (async () => {
    const out: LoadedBundle[] = [];
    const problems: string[] = [];
    for (const dir of bundleDirs()) {
      const report = await analyzeBundle(fsBundle(dir), {keepRows: true, keepSeries: true});
      const errors = report.issues.filter((i) => i.severity === "error");
      const g1 = report.gates.find((g) => g.id === "G1");
      if (errors.length > 0 || g1?.status === "fail")
        problems.push(
          `${dir}:\n${[...(g1?.status === "fail" ? [`  G1: ${g1.reason}`] : []), ...errors.map((i) => `  ${formatIssue(i)}`)].join("\n")}`
        );
      out.push({dir, report});
    }
    if (problems.length > 0) throw new Error(`invalid evidence bundles; fix or remove them:\n${problems.join("\n")}`);
    return out.sort(
      (a, b) =>
        (b.report.meta.startedAt ?? "").localeCompare(a.report.meta.startedAt ?? "") ||
        a.report.bundle.localeCompare(b.report.bundle)
    );
  })();
  return cache;
}

export async function loadBundle(id: string): Promise<LoadedBundle> {
  const found = (await loadEvidence()).find((b) => b.report.bundle === id);
  if (!found) throw new Error(`no bundle with id ${id}`);
  return found;
}
