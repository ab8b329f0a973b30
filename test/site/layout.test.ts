/**
 * The site's rooms and the arrows between them (docs/architecture.md): every import of every page,
 * component, layout, chart, loader, island and site module is checked against one table. The loaders
 * (and src/io, shared with the collector) are the only site code that touches the file system; pages and
 * components name a loader only for its types; islands bundle analysis code only through the browser barrel.
 */
import {readdirSync, readFileSync} from "node:fs";
import {dirname, join, normalize, relative} from "node:path";

import {describe, expect, it} from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const SCANNED = [
  "src/pages",
  "src/components",
  "src/layouts",
  "src/charts",
  "src/loaders",
  "src/site",
  "src/i18n",
  "src/islands"
];

type Room =
  | "analysis"
  | "analysis-internal"
  | "io"
  | "loaders"
  | "site"
  | "i18n"
  | "browser"
  | "islands"
  | "charts"
  | "adapters"
  | "components"
  | "layouts"
  | "pages"
  | "node-io"
  | "node"
  | "public"
  | "package";

/** Value imports each room may make (type-only imports of a loader are allowed in pages and components too). */
const ALLOWED: Partial<Record<Room, readonly Room[]>> = {
  loaders: ["analysis", "io", "loaders", "site", "node-io", "node", "package"],
  site: ["analysis", "loaders", "site", "i18n", "node"],
  i18n: ["analysis", "i18n"],
  browser: ["analysis-internal"],
  islands: ["browser", "islands"],
  charts: ["analysis", "charts", "package"],
  adapters: ["analysis", "charts", "adapters", "i18n"],
  layouts: ["site", "i18n", "public", "package"],
  components: ["analysis", "charts", "adapters", "components", "site", "i18n", "package"],
  pages: ["analysis", "charts", "adapters", "components", "layouts", "site", "i18n", "islands", "package"]
};
const TYPE_ONLY: Partial<Record<Room, readonly Room[]>> = {components: ["loaders"], pages: ["loaders"]};

export function roomOf(spec: string, from: string): Room {
  if (/^(node:)?(fs|fs\/promises|child_process|net|http|https|os)$/.test(spec)) return "node-io";
  if (spec.startsWith("node:")) return "node";
  if (!spec.startsWith(".")) return "package";
  const path = normalize(join(dirname(from), spec))
    .split("\\")
    .join("/");
  if (path === "src/analysis/index.ts") return "analysis";
  if (path.startsWith("src/analysis/")) return "analysis-internal";
  if (path.startsWith("public/")) return "public";
  if (path === "src/islands/browser.ts") return "browser";
  if (path.startsWith("src/charts/adapters/")) return "adapters";
  const top = path.split("/")[1] ?? "";
  const rooms: Record<string, Room> = {
    io: "io",
    loaders: "loaders",
    site: "site",
    i18n: "i18n",
    islands: "islands",
    charts: "charts",
    components: "components",
    layouts: "layouts",
    pages: "pages"
  };
  const room = rooms[top];
  if (!room) throw new Error(`${from}: import of ${spec} resolves outside the site: ${path}`);
  return room;
}

/** Each import of `source` (a .ts or .astro file), with whether it is type-only. */
export function importsOf(source: string): {spec: string; typeOnly: boolean}[] {
  const out: {spec: string; typeOnly: boolean}[] = [];
  for (const m of source.matchAll(/^\s*(import|export)\s+(type\s+)?(?:[^"';]*?\s+from\s+)?["']([^"']+)["']/gm))
    out.push({spec: m[3]!, typeOnly: m[2] !== undefined});
  return out;
}

function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir), {withFileTypes: true, recursive: true})
    .filter((e) => e.isFile() && /\.(astro|ts)$/.test(e.name))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)).split("\\").join("/"))
    .sort();
}

/** The arrows of `file` that the table does not allow, as "file → spec (room → room)". */
export function forbiddenImports(file: string, source: string): string[] {
  const from = roomOf(`./${file.split("/").pop()}`, file);
  const allowed = ALLOWED[from] ?? [];
  const out: string[] = [];
  for (const {spec, typeOnly} of importsOf(source)) {
    const to = roomOf(spec, file);
    if (allowed.includes(to) || (typeOnly && (TYPE_ONLY[from] ?? []).includes(to))) continue;
    out.push(`${file} → ${spec} (${from} → ${to})`);
  }
  return out;
}

describe("the site's import arrows", () => {
  it("reject the arrows never allowed", () => {
    const bad: [string, string][] = [
      ["src/pages/x.astro", 'import {readFileSync} from "node:fs";'],
      ["src/components/report/X.astro", 'import {loadEvidence} from "../../loaders/evidence.ts";'],
      ["src/islands/x.ts", 'import {selectConfigs} from "../analysis/index.ts";'],
      ["src/charts/adapters/x.ts", 'import {loadSite} from "../../site/site.ts";'],
      ["src/site/x.ts", 'import {readFileSync} from "node:fs";'],
      ["src/i18n/x.ts", 'import {href} from "../site/routes.ts";'],
      ["src/charts/x.ts", 'import {t} from "../i18n/index.ts";']
    ];
    for (const [file, code] of bad) expect(forbiddenImports(file, code), `${file}: ${code}`).toHaveLength(1);
    expect(forbiddenImports("src/pages/x.astro", 'import type {LoadedBundle} from "../loaders/evidence.ts";')).toEqual(
      []
    );
    expect(forbiddenImports("src/loaders/x.ts", 'import {readFileSync} from "node:fs";')).toEqual([]);
  });

  it("hold in every file of the site", () => {
    const found: string[] = [];
    for (const dir of SCANNED)
      for (const f of files(dir)) found.push(...forbiddenImports(f, readFileSync(join(ROOT, f), "utf8")));
    expect(found).toEqual([]);
  });
});
