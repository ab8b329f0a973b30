/**
 * Experiment records (evidence/experiments/<name>/experiment.json, written by `inferscope experiment`):
 * each is checked against its seal (sha256 of the record and of every server log it names) and parsed
 * through the record's zod schema. A record that does not validate fails the build with the file named; a
 * record whose seal does not match is still shown, marked as such.
 */
import {existsSync, readdirSync, readFileSync} from "node:fs";
import {join} from "node:path";

import {ExperimentRecord, ExperimentSeal} from "../analysis/index.ts";
import {sha256Hex} from "../io/hash.ts";
import {buildOptions} from "../site/buildOptions.ts";
import {EVIDENCE_DIR} from "./evidence.ts";

export interface LoadedExperiment {
  dir: string;
  record: ExperimentRecord;
  /** sealed: every digest matches; unsealed: no seal (the experiment is running or was killed); broken: a digest differs. */
  seal: "sealed" | "unsealed" | "broken";
  sealProblems: string[];
  /** Server logs by variant name (redacted by the collector). */
  logs: Map<string, string>;
}

/** Whether an experiment folder's seal holds: every file it lists present with its digest, experiment.json among them. */
export function checkSeal(dir: string): {seal: LoadedExperiment["seal"]; problems: string[]} {
  const path = join(dir, "experiment.seal.json");
  if (!existsSync(path)) return {seal: "unsealed", problems: ["no experiment.seal.json"]};
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    return {seal: "broken", problems: [`${path}: not JSON (${(e as Error).message})`]};
  }
  const parsed = ExperimentSeal.safeParse(json);
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    return {seal: "broken", problems: [`${path}: not a seal: ${i.path.join(".") || "(root)"}: ${i.message}`]};
  }
  const problems: string[] = [];
  for (const f of parsed.data.files) {
    const p = join(dir, f.path);
    if (!existsSync(p)) problems.push(`${f.path}: missing`);
    else if (sha256Hex(readFileSync(p)) !== f.sha256) problems.push(`${f.path}: sha256 differs from the seal`);
  }
  if (!parsed.data.files.some((f) => f.path === "experiment.json")) problems.push("experiment.json: not sealed");
  return {seal: problems.length === 0 ? "sealed" : "broken", problems};
}

/** Every experiment record under the evidence folder (none when the build names exact bundles). */
export function loadExperiments(root = EVIDENCE_DIR): LoadedExperiment[] {
  const base = join(root, "experiments");
  if (buildOptions().bundles || !existsSync(base)) return [];
  const out: LoadedExperiment[] = [];
  for (const d of readdirSync(base, {withFileTypes: true})
    .filter((x) => x.isDirectory())
    .sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const dir = join(base, d.name);
    const path = join(dir, "experiment.json");
    if (!existsSync(path)) continue;
    let value: unknown;
    try {
      value = JSON.parse(readFileSync(path, "utf8"));
    } catch (e) {
      throw new Error(`${path}: not JSON: ${(e as Error).message}`, {cause: e});
    }
    const parsed = ExperimentRecord.safeParse(value);
    if (!parsed.success)
      throw new Error(
        `${path}: not an experiment record:\n${parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n")}`
      );
    const {seal, problems} = checkSeal(dir);
    const logs = new Map<string, string>();
    for (const v of parsed.data.variants)
      if (v.logFile !== null && existsSync(join(dir, v.logFile)))
        logs.set(v.name, readFileSync(join(dir, v.logFile), "utf8"));
    out.push({dir, record: parsed.data, seal, sealProblems: problems, logs});
  }
  return out;
}
