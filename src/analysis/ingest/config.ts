import {parse as parseYaml} from "yaml";

import {RunConfigSpec, type RunConfig} from "../schema/config.ts";
import {issue, type Issue} from "../util/issues.ts";
import {zodIssues} from "./jsonl.ts";

/** Config used when a bundle has none (imports without one, broken bundles): all defaults. */
export const FALLBACK_CONFIG: RunConfig = RunConfigSpec.parse({
  target: {base_url: "unknown", model: "unknown"},
  load: {mode: "concurrency", values: [1]}
});

export function parseConfig(text: string, file: string): {config: RunConfig | null; issues: Issue[]} {
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (e) {
    const pos = (e as {linePos?: {line: number}[]}).linePos?.[0]?.line ?? null;
    return {
      config: null,
      issues: [issue("error", "yaml", file, `invalid YAML: ${(e as Error).message.split("\n")[0]}`, pos)]
    };
  }
  const parsed = RunConfigSpec.safeParse(value);
  if (!parsed.success) return {config: null, issues: zodIssues(file, 1, parsed.error).map((i) => ({...i, line: null}))};
  return {config: parsed.data, issues: []};
}
