/**
 * Comparison groups declared in evidence/groups.yaml: each becomes a pre-built compare page. A group of
 * several bundles compares them load point by load point; a group of one bundle compares its sweep.
 */
import {existsSync, readFileSync} from "node:fs";
import {join} from "node:path";

import {parse as parseYaml} from "yaml";
import {z} from "zod";

import {dottedPath} from "../analysis/index.ts";
import {buildOptions} from "../site/buildOptions.ts";
import {EVIDENCE_DIR} from "./evidence.ts";

const Text = z.union([z.string().min(1), z.strictObject({en: z.string().min(1), zh: z.string().min(1)})]);

export const GroupSpec = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "group ids are lowercase letters, digits and dashes"),
  title: Text,
  bundles: z.array(z.string().min(1)).min(1),
  note: Text.optional()
});

export const GroupsFile = z.strictObject({groups: z.array(GroupSpec).default([])});

export interface Group {
  id: string;
  title: {en: string; zh: string};
  bundles: string[];
  note: {en: string; zh: string} | null;
}

const bilingual = (t: z.infer<typeof Text>) => (typeof t === "string" ? {en: t, zh: t} : t);

/** Parses groups.yaml text; throws one error listing every problem (path: message) and unknown bundle ids. */
export function parseGroups(text: string, file: string, known: ReadonlySet<string>): Group[] {
  const parsed = GroupsFile.safeParse(parseYaml(text) ?? {});
  if (!parsed.success)
    throw new Error(
      `${file}: invalid groups:\n${parsed.error.issues.map((i) => `  ${dottedPath(i.path)}: ${i.message}`).join("\n")}`
    );
  const problems: string[] = [];
  const ids = new Set<string>();
  parsed.data.groups.forEach((g, i) => {
    if (ids.has(g.id)) problems.push(`groups.${i}.id: duplicate group id ${g.id}`);
    ids.add(g.id);
    g.bundles.forEach((b, j) => {
      if (!known.has(b)) problems.push(`groups.${i}.bundles.${j}: no bundle with id ${b}`);
    });
  });
  if (problems.length > 0) throw new Error(`${file}: invalid groups:\n${problems.map((p) => `  ${p}`).join("\n")}`);
  return parsed.data.groups.map((g) => ({
    id: g.id,
    title: bilingual(g.title),
    bundles: g.bundles,
    note: g.note === undefined ? null : bilingual(g.note)
  }));
}

/** The groups of evidence/groups.yaml (none when the file is absent or the build names exact bundles). */
export function loadGroups(known: ReadonlySet<string>, root = EVIDENCE_DIR): Group[] {
  const path = join(root, "groups.yaml");
  if (buildOptions().bundles || !existsSync(path)) return [];
  return parseGroups(readFileSync(path, "utf8"), path, known);
}
