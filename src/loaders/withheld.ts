import {readFileSync} from "node:fs";
import {join} from "node:path";

import {redactArgs} from "../analysis/index.ts";

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
