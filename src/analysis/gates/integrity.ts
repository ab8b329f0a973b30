import {SIGNATURE_FILE} from "../schema/records.ts";
import type {BundleGate} from "./types.ts";

export const integrity: BundleGate = {
  id: "G1",
  slug: "evidence_integrity",
  scope: "bundle",
  outcome: "I",
  required: true,
  title: {en: "Evidence integrity", zh: "证据完整性"},
  description: {
    en: "Every file's size and sha256 match the manifest; every record matches the schema; seq runs without gaps; only the final line of a JSONL file may be torn (it is dropped with a note).",
    zh: "每个文件的大小和 sha256 与清单一致；每条记录符合 schema；seq 连续无缺口；只有 JSONL 文件的最后一行允许被截断（丢弃并注明）。"
  },
  anchor: "in-toto subject digests; MLPerf LoadGen checksums; validity-and-faults.md G1",
  threshold: () => "0 errors",
  evaluate: (ctx) => {
    const errors = ctx.issues.filter((i) => i.severity === "error");
    const torn = ctx.issues.filter((i) => i.code === "torn_tail");
    const mismatched = ctx.files.filter(
      (f) =>
        f.declared !== null &&
        (f.observed === null || f.observed.sha256 !== f.declared.sha256 || f.observed.bytes !== f.declared.bytes)
    );
    const undeclared = ctx.files
      .filter((f) => f.declared === null && f.observed !== null && f.path !== SIGNATURE_FILE)
      .map((f) => f.path);
    const notFiles = ctx.issues.filter((i) => i.code === "not_a_file").map((i) => i.file);
    const evidence = {
      errors: errors.length,
      digestMismatches: mismatched.map((f) => f.path),
      tornTails: torn.length,
      undeclared,
      notFiles
    };
    if (!ctx.manifest) return {status: "fail", reason: "no valid manifest.json: digests cannot be verified", evidence};
    if (mismatched.length > 0)
      return {
        status: "fail",
        reason: `digest mismatch: ${mismatched
          .map((f) =>
            f.observed === null
              ? `${f.path} is missing`
              : `${f.path} has sha256 ${f.observed.sha256.slice(0, 12)}… (${f.observed.bytes} B), manifest says ${f.declared!.sha256.slice(0, 12)}… (${f.declared!.bytes} B)`
          )
          .join("; ")}`,
        evidence
      };
    if (errors.length > 0)
      return {
        status: "fail",
        reason: `${errors.length} schema or sequence error(s), first: ${errors[0]!.file}:${errors[0]!.line ?? "-"} ${errors[0]!.message}`,
        evidence
      };
    if (torn.length > 0 || undeclared.length > 0 || notFiles.length > 0)
      return {
        status: "warn",
        reason: [
          torn.length ? `${torn.length} torn final line(s) dropped` : "",
          undeclared.length ? `files not in the manifest: ${undeclared.join(", ")}` : "",
          notFiles.length ? `entries that are not regular files (not read): ${notFiles.join(", ")}` : ""
        ]
          .filter(Boolean)
          .join("; "),
        evidence
      };
    return {
      status: "pass",
      reason: `${ctx.files.length} files match their digests; records valid and continuous`,
      evidence
    };
  }
};

export const runCompletion: BundleGate = {
  id: "G28",
  slug: "run_completion",
  scope: "bundle",
  outcome: "N",
  required: true,
  title: {en: "Run completed", zh: "运行完整结束"},
  description: {
    en: "The run finished as planned. Interrupted or partial bundles keep everything they captured and are analysed, but their numbers describe an incomplete run.",
    zh: "运行按计划结束。被中断或不完整的证据包保留已采集的全部数据并照常分析，但其数字描述的是不完整的运行。"
  },
  anchor: "validity-and-faults.md §5 (interrupted runs never pose as complete)",
  threshold: () => "status = complete",
  evaluate: (ctx) => {
    const status = ctx.manifest?.status ?? "partial";
    if (status === "complete") return {status: "pass", reason: "run completed", evidence: {status}};
    const why = ctx.manifest?.statusReason ?? (ctx.manifest ? "" : "no manifest");
    return {status: "warn", reason: `bundle status is ${status}${why ? `: ${why}` : ""}`, evidence: {status}};
  }
};
