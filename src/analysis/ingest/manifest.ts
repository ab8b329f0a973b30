import {Manifest} from "../schema/manifest.ts";
import {FILE_NAMES} from "../schema/records.ts";
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
  return {manifest: parsed.data, issues: consistency(parsed.data, file)};
}

/**
 * What the schema cannot see in a manifest: a file listed twice (two digests for one file: which one holds?),
 * and a configSha256 that is not the digest the same manifest lists for the config file.
 */
function consistency(m: Manifest, file: string): Issue[] {
  const out: Issue[] = [];
  const first = new Map<string, number>();
  m.files.forEach((f, i) => {
    const at = first.get(f.path);
    if (at === undefined) first.set(f.path, i);
    else
      out.push(
        issue(
          "error",
          "manifest_duplicate_file",
          file,
          `"${f.path}" is listed twice (also files.${at})`,
          null,
          `files.${i}.path`
        )
      );
  });
  // a load point's id is written from its mode and value (`concurrency-4`); the manifest is not digested, so a
  // value edited afterwards (4 → 2) would publish another load than the one run
  m.loadPoints.forEach((p, i) => {
    const id = `${p.mode}-${String(p.value)}`;
    if (p.id !== id)
      out.push(
        issue(
          "error",
          "manifest_point_id",
          file,
          `load point "${p.id}" says mode ${p.mode}, value ${p.value}: its id would be "${id}"`,
          null,
          `loadPoints.${i}`
        )
      );
  });
  const config = m.files.find((f) => f.path === FILE_NAMES.config);
  if (config !== undefined && config.sha256 !== m.configSha256)
    out.push(
      issue(
        "error",
        "manifest_config_digest",
        file,
        `configSha256 ${m.configSha256} is not the digest listed for ${FILE_NAMES.config} (${config.sha256})`,
        null,
        "configSha256"
      )
    );
  return out;
}
