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
