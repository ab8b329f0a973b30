import {parse as parseYaml} from "yaml";

import {RunConfigSpec, type RunConfig} from "../schema/config.ts";
import {Manifest} from "../schema/manifest.ts";
import {issue, type Issue} from "../util/issues.ts";
import {zodIssues} from "./jsonl.ts";

/** Line (1-based) of a character offset in a text. */
function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

export function parseManifest(text: string, file: string): {manifest: Manifest | null; issues: Issue[]} {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const m = /position (\d+)/.exec((e as Error).message);
    return {
      manifest: null,
      issues: [
        issue("error", "json", file, `invalid JSON: ${(e as Error).message}`, m ? lineOf(text, Number(m[1])) : null)
      ]
    };
  }
  const parsed = Manifest.safeParse(value);
  if (!parsed.success)
    return {manifest: null, issues: zodIssues(file, 1, parsed.error).map((i) => ({...i, line: null}))};
  return {manifest: parsed.data, issues: []};
}

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
