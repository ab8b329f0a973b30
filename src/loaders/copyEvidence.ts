/**
 * Copies every bundle's files into the build output under evidence/<bundle id>/ so the audit pages can
 * link to the raw files (a stable path: the same as in the repository).
 */
import {copyFileSync, existsSync, mkdirSync, readFileSync} from "node:fs";
import {basename, dirname, join} from "node:path";

import {listFiles} from "../io/fsBundle.ts";
import {bundleDirs} from "./evidence.ts";
import {withheldFiles} from "./withheld.ts";

/** The id a bundle is published under: the manifest's bundleId, else the folder name (as the analyzer does). */
export function bundleIdOf(dir: string): string {
  const path = join(dir, "manifest.json");
  if (existsSync(path)) {
    try {
      const id = (JSON.parse(readFileSync(path, "utf8")) as {bundleId?: unknown}).bundleId;
      if (typeof id === "string" && id) return id;
    } catch {
      // an unparsable manifest fails the build elsewhere, with its location
    }
  }
  return basename(dir);
}

/** Copies the raw files; returns the number of files and bytes copied. */
export function copyEvidence(outDir: string, dirs: readonly string[] = bundleDirs()): {files: number} {
  let files = 0;
  for (const dir of dirs) {
    const target = join(outDir, "evidence", bundleIdOf(dir));
    const withheld = withheldFiles(dir);
    for (const rel of listFiles(dir)) {
      if (withheld.has(rel)) continue;
      const to = join(target, rel);
      mkdirSync(dirname(to), {recursive: true});
      copyFileSync(join(dir, rel), to);
      files++;
    }
  }
  return {files};
}
