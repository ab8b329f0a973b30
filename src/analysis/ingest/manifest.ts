import {Manifest} from "../schema/manifest.ts";
import {FILE_NAMES} from "../schema/records.ts";
import {issue, type Issue} from "../util/issues.ts";
import {checkJson, lineAndColumn} from "../util/jsonCheck.ts";
import {jsonPath} from "../util/zodIssues.ts";
import {zodIssues} from "./jsonl.ts";

/** The line of a value of the manifest text by its key path (null: no such value). */
export type ManifestLine = (path: readonly PropertyKey[]) => number | null;

export function parseManifest(
  text: string,
  file: string
): {manifest: Manifest | null; issues: Issue[]; lineOf: ManifestLine | null} {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    // V8 names no position for most syntax errors: the strict reader finds the place and says what it expected
    const at = checkJson(text).error;
    const where = at === null ? null : lineAndColumn(text, at.offset);
    const message = at === null ? (e as Error).message : `${at.message} (column ${where!.column})`;
    return {
      manifest: null,
      issues: [issue("error", "json", file, `invalid JSON: ${message}`, where?.line ?? null)],
      lineOf: null
    };
  }
  // JSON.parse keeps the last of two equal names without a word: which of the two did the writer mean?
  const offsets = new Map<string, number>();
  const repeated = checkJson(text, 10, offsets).duplicates.map((d) =>
    issue(
      "error",
      "duplicate_key",
      file,
      `"${d.path}" is given twice; the reader would keep the last`,
      lineAndColumn(text, d.offset).line
    )
  );
  const lineOf: ManifestLine = (path) => {
    const at = offsets.get(jsonPath(path));
    return at === undefined ? null : lineAndColumn(text, at).line;
  };
  if (repeated.length > 0) return {manifest: null, issues: repeated, lineOf};
  const parsed = Manifest.safeParse(value);
  if (!parsed.success)
    return {
      manifest: null,
      issues: zodIssues(file, 1, parsed.error).map((i, k) => {
        // the line of the offending value, or of the deepest enclosing one the text has (a missing key's object)
        const path = [...(parsed.error.issues[k]?.path ?? [])];
        let at = offsets.get(jsonPath(path));
        while (at === undefined && path.length > 0) {
          path.pop();
          at = offsets.get(jsonPath(path));
        }
        return {...i, line: at === undefined ? null : lineAndColumn(text, at).line};
      }),
      lineOf
    };
  return {manifest: parsed.data, issues: consistency(parsed.data, file, lineOf), lineOf};
}

/**
 * What the schema cannot see in a manifest: a file listed twice (two digests for one file: which one holds?),
 * and a configSha256 that is not the digest the same manifest lists for the config file.
 */
function consistency(m: Manifest, file: string, lineOf: ManifestLine): Issue[] {
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
          lineOf(["files", i, "path"]),
          `files.${i}.path`
        )
      );
  });
  // a load point's id is written from its mode and value (`concurrency-4`); the manifest is not digested, so a
  // value edited afterwards (4 → 2) would publish another load than the one run. An importer writes
  // `<mode>-unknown` where the source file states no load (a placeholder value; gates/load.ts reads it as unknown)
  const imported = m.provenance.kind === "imported";
  m.loadPoints.forEach((p, i) => {
    const id = `${p.mode}-${String(p.value)}`;
    if (p.id !== id && !(imported && p.id === `${p.mode}-unknown`))
      out.push(
        issue(
          "error",
          "manifest_point_id",
          file,
          `load point "${p.id}" says mode ${p.mode}, value ${p.value}: its id would be "${id}"`,
          lineOf(["loadPoints", i, "id"]),
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
        lineOf(["configSha256"]),
        "configSha256"
      )
    );
  return out;
}
