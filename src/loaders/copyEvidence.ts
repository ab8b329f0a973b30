/**
 * Copies every bundle's files into the build output under evidence/<bundle id>/ so the audit pages can
 * link to the raw files (a stable path: the same as in the repository).
 */
import {copyFileSync, existsSync, mkdirSync, readFileSync} from "node:fs";
import {basename, dirname, join} from "node:path";

import {redactArgs} from "../analysis/index.ts";
import {listFiles} from "../io/fsBundle.ts";
import {bundleDirs} from "./evidence.ts";

/**
 * Raw files a bundle may not publish: written by an older collector that kept credentials in the launch
 * arguments (`--api-key SECRET`), the manifest and the resolved config would put them on the site. Their
 * pages show the arguments redacted; the raw copies stay in the repository only. The reason is a code;
 * the audit page words it in its language.
 */
export type WithheldReason = "credential_in_launch_args";

export function withheldFiles(dir: string): Map<string, WithheldReason> {
  const out = new Map<string, WithheldReason>();
  const leaks = (args: unknown): boolean =>
    Array.isArray(args) && args.every((a) => typeof a === "string") && redactArgs(args).some((a, i) => a !== args[i]);
  try {
    const m = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as {
      environment?: {server?: {launchArgs?: unknown}};
    };
    if (leaks(m.environment?.server?.launchArgs)) {
      const why = "credential_in_launch_args";
      out.set("manifest.json", why);
      out.set("config.resolved.yaml", why);
      out.set("run.draft.json", why);
    }
  } catch {
    // no or unparsable manifest: the build reports it elsewhere
  }
  return out;
}

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
