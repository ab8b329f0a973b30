import type {Command} from "commander";

import {formatIssue} from "../../src/analysis/index.ts";
import {CliError, EXIT} from "../cliError.ts";
import {SIGNATURE_FILE} from "../../src/analysis/index.ts";
import {bundleSignature} from "../../src/io/signature.ts";
import {analyzeDir} from "./analyze.ts";

import {defaultIo, type Io} from "./io.ts";

export interface VerifyOptions {
  /** The trusted-signers file (default: allowed_signers beside the bundle's folder). */
  signers?: string;
  /** An unsigned bundle fails too. */
  requireSignature?: boolean;
}

/**
 * `verify`: digest of every file against the manifest, schema issues with file:line, the signature over
 * the manifest (when there is one, or when required), then the re-analysis verdict.
 */
export async function verifyCommand(dir: string, io: Io, o: VerifyOptions = {}): Promise<void> {
  let sig: ReturnType<typeof bundleSignature>;
  try {
    sig = bundleSignature(dir, o.signers);
  } catch (e) {
    throw new CliError((e as Error).message, {exitCode: EXIT.usage});
  }
  const report = await analyzeDir(dir);
  // a manifest that could not be read lists nothing: its files are unchecked, not "not in manifest"
  const manifestRead = report.files.some((f) => f.declared !== null);
  const notAFile = (path: string) => report.issues.find((i) => i.code === "not_a_file" && i.file === path);
  for (const f of report.files) {
    const d = f.declared;
    const ob = f.observed;
    const state =
      d === null && (f.path === "manifest.json" || f.path === SIGNATURE_FILE)
        ? "self"
        : d === null
          ? manifestRead
            ? "not in manifest"
            : "not checked (the manifest could not be read)"
          : ob === null
            ? notAFile(f.path)
              ? `not a regular file, not read (${notAFile(f.path)!.message.replace(/: not read.*$/, "")})`
              : "MISSING"
            : ob.sha256 === d.sha256 && ob.bytes === d.bytes
              ? "ok"
              : `MISMATCH (sha256 ${ob.sha256.slice(0, 12)}…, ${ob.bytes} B; manifest ${d.sha256.slice(0, 12)}…, ${d.bytes} B)`;
    if (state === "self") {
      io.out(
        `ok       ${f.path}  (${f.path === "manifest.json" ? "the manifest: not digested in itself" : "the signature over the manifest"})`
      );
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
  const signersNote = sig.signersFile === null ? "no trusted-signers file" : `trusted signers: ${sig.signersFile}`;
  if (sig.state === "valid") io.out(`signature: valid, signed by ${sig.signer} at ${sig.signedAt} (${signersNote})`);
  else if (sig.state === "unsigned") io.out(`signature: none (unsigned bundle)`);
  else if (sig.state === "untrusted") io.out(`signature: FAIL — signed by ${sig.signer}, but ${sig.reason}`);
  else io.out(`signature: FAIL — ${sig.reason}`);
  if (g1?.status !== "pass" || counted.error > 0)
    throw new CliError(`bundle ${report.bundle} is not intact: ${g1?.reason ?? "no integrity result"}`, {
      exitCode: EXIT.notValid
    });
  if (sig.state === "invalid" || sig.state === "untrusted")
    throw new CliError(
      `bundle ${report.bundle}: the signature does not hold (${sig.state === "invalid" ? sig.reason : `${sig.signer}: ${sig.reason}`})`,
      {
        exitCode: EXIT.notValid
      }
    );
  if (sig.state === "unsigned" && o.requireSignature)
    throw new CliError(`bundle ${report.bundle} is unsigned and --require-signature was given`, {
      exitCode: EXIT.notValid
    });
}

export function register(program: Command): void {
  program
    .command("verify")
    .description("check every file digest and record against the manifest, then re-analyse (exit 0 only when intact)")
    .argument("<bundle>", "bundle folder")
    .option("--signers <file>", "trusted-signers file (default: allowed_signers beside the bundle folder)")
    .option("--require-signature", "an unsigned bundle fails too")
    .action(async (dir: string, o: VerifyOptions) => verifyCommand(dir, defaultIo(), o));
}
