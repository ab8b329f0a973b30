import type {Command} from "commander";

import {formatIssue} from "../../src/analysis/index.ts";
import {CliError, EXIT} from "../cliError.ts";
import {analyzeDir} from "./analyze.ts";

/** The detached signature over manifest.json (written by --sign), never listed in the manifest. */
export const SIGNATURE_FILE = "manifest.sig";
import {defaultIo, type Io} from "./io.ts";

/** `verify`: digest of every file against the manifest, schema issues with file:line, then the re-analysis verdict. */
export async function verifyCommand(dir: string, io: Io): Promise<void> {
  const report = await analyzeDir(dir);
  for (const f of report.files) {
    const d = f.declared;
    const ob = f.observed;
    const state =
      d === null && (f.path === "manifest.json" || f.path === SIGNATURE_FILE)
        ? "self"
        : d === null
          ? "not in manifest"
        : ob === null
          ? "MISSING"
          : ob.sha256 === d.sha256 && ob.bytes === d.bytes
            ? "ok"
            : `MISMATCH (sha256 ${ob.sha256.slice(0, 12)}…, ${ob.bytes} B; manifest ${d.sha256.slice(0, 12)}…, ${d.bytes} B)`;
    if (state === "self") {
      io.out(`ok       ${f.path}  (${f.path === "manifest.json" ? "the manifest: not digested in itself" : "the signature over the manifest"})`);
      continue;
    }
    io.out(
      `${state === "ok" ? "ok      " : "FAIL    "} ${f.path}  ${state === "ok" ? `sha256 ${d!.sha256.slice(0, 16)}…` : state}`
    );
  }
  const counted = {error: 0, warning: 0, info: 0};
  for (const i of report.issues) {
    counted[i.severity]++;
    if (i.severity !== "info") io.out(`${i.severity}: ${formatIssue(i)}`);
  }
  const g1 = report.gates.find((g) => g.id === "G1");
  io.out(`G1 ${g1?.slug ?? "evidence_integrity"}: ${g1?.status ?? "missing"} — ${g1?.reason ?? ""}`);
  io.out(
    `re-analysed: verdict ${report.verdict} (status ${report.status}); ${counted.error} errors, ${counted.warning} warnings`
  );
  if (g1?.status !== "pass" || counted.error > 0)
    throw new CliError(`bundle ${report.bundle} is not intact: ${g1?.reason ?? "no integrity result"}`, {
      exitCode: EXIT.notValid
    });
}

export function register(program: Command): void {
  program
    .command("verify")
    .description("check every file digest and record against the manifest, then re-analyse (exit 0 only when intact)")
    .argument("<bundle>", "bundle folder")
    .action(async (dir: string) => verifyCommand(dir, defaultIo()));
}
