import {FILE_NAMES, ROLE_BY_NAME, SIGNATURE_FILE} from "../schema/records.ts";
import {KNOWN_MEASURE_VERSIONS} from "../schema/versions.ts";
import type {BundleGate, GateContext} from "./types.ts";

/**
 * What the hashed client log says about how the run ended, for a collected bundle: the manifest's status
 * is an unhashed claim, the log's lifecycle notes are covered by its digest. Null when nothing contradicts.
 */
export function statusContradiction(ctx: GateContext): string | null {
  const m = ctx.manifest;
  if (m === null || m.provenance.kind !== "collected") return null;
  const events = new Set(ctx.client.notes.map((n) => n.event));
  const sealedLater = ctx.client.notes.some((n) => n.event === "resume" && n.detail.action === "sealed_partial");
  if (m.status === "complete") {
    const against: string[] = [];
    if (ctx.client.samples === 0 && ctx.client.notes.length === 0) against.push("no client log at all");
    else if (!events.has("run_end")) against.push("no run_end note");
    if (sealedLater) against.push("a sealed_partial note (sealed after a crash)");
    if (events.has("interrupt")) against.push("an interrupt note");
    if (events.has("write_error") || events.has("collector_error")) against.push("a write or collector error note");
    if (against.length > 0) return `the manifest says complete, but the hashed client log has ${against.join(", ")}`;
  }
  if (m.status === "interrupted" && sealedLater)
    return "the manifest says interrupted, but the hashed client log shows the bundle was sealed after a crash (partial)";
  return null;
}

/** The first error reading the manifest, as "line L: message" (or the message alone); null when it is absent. */
function manifestFault(ctx: GateContext): string | null {
  const first = ctx.issues.find((i) => i.file === FILE_NAMES.manifest && i.severity === "error");
  if (first === undefined) return null;
  const at = [first.line === null ? "" : `line ${first.line}`, first.path ?? ""].filter(Boolean).join(", ");
  return at === "" ? first.message : `${at}: ${first.message}`;
}

/** Why a listed file was not read though an entry of its name is there (a folder, a link), or null. */
function notFileReason(ctx: GateContext, path: string): string | null {
  const entry = ctx.issues.find((i) => i.code === "not_a_file" && i.file === path);
  return entry === undefined ? null : `${path} is not a regular file (${entry.message.split(":")[0]})`;
}

/**
 * What the manifest claims against the files it seals, beyond their digests: the collector seals a complete run only
 * after its last line was written whole (`seal` cuts a crash's torn tail and calls the bundle partial), and a file
 * the analysis reads (by its role's name) must be covered by a digest. Null when neither is broken.
 */
function sealFault(ctx: GateContext, torn: number, undeclared: readonly string[]): string | null {
  if (torn > 0 && ctx.manifest?.status === "complete")
    return `${torn} torn final line(s) in a bundle its manifest calls complete (a crashed run is sealed as partial, its torn tail cut)`;
  const unsealed = undeclared.filter((p) => ROLE_BY_NAME.has(p));
  return unsealed.length > 0
    ? `files the analysis reads are not in the manifest, so no digest covers them: ${unsealed.join(", ")}`
    : null;
}

export const integrity: BundleGate = {
  id: "G1",
  slug: "evidence_integrity",
  scope: "bundle",
  outcome: "I",
  required: true,
  title: {en: "Evidence integrity", zh: "证据完整性"},
  description: {
    en: "Every file's size and sha256 match the manifest, and so does each JSONL file's record count (its newline-terminated lines); every file the analysis reads is listed in the manifest (a stray file it does not read is a warning); every file is valid UTF-8; every record matches the schema and gives no name twice in one object; seq runs without gaps; only the final line of a JSONL file may be torn, with no newline after it, and only in a bundle not sealed as complete (it is dropped with a note); and the manifest's own claims agree with the hashed evidence — a collected bundle said to be complete has its run_end note and no interrupt, crash-seal or write-error note in the hashed client log.",
    zh: "每个文件的大小和 sha256 与清单一致，每个 JSONL 文件的记录数（以换行结束的行数）也与清单一致；分析读取的每个文件都列在清单中（分析不读取的零散文件只给出警告）；每个文件都是有效的 UTF-8；每条记录符合 schema，且同一对象中没有重复的键名；seq 连续无缺口；只有 JSONL 文件的最后一行允许被截断，且其后没有换行，并且证据包未被封存为完整（丢弃并注明）；且清单本身的声明与带摘要的证据一致——声称完整结束的采集证据包，其带摘要的客户端日志中有 run_end 记录，且没有中断、崩溃后封存或写入错误的记录。"
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
    if (!ctx.manifest) {
      const bad = manifestFault(ctx);
      return {
        status: "fail",
        reason:
          bad === null
            ? `no ${FILE_NAMES.manifest}: digests cannot be verified`
            : `${FILE_NAMES.manifest} is not valid (${bad}): digests cannot be verified`,
        evidence
      };
    }
    const contradiction = statusContradiction(ctx);
    if (mismatched.length > 0)
      return {
        status: "fail",
        reason: `digest mismatch: ${mismatched
          .map((f) =>
            f.observed === null
              ? (notFileReason(ctx, f.path) ?? `${f.path} is missing`)
              : `${f.path} has sha256 ${f.observed.sha256.slice(0, 12)}… (${f.observed.bytes} B), manifest says ${f.declared!.sha256.slice(0, 12)}… (${f.declared!.bytes} B)`
          )
          .join("; ")}`,
        evidence
      };
    if (contradiction !== null) return {status: "fail", reason: contradiction, evidence};
    const fault = sealFault(ctx, torn.length, undeclared);
    if (fault !== null) return {status: "fail", reason: fault, evidence};
    if (errors.length > 0)
      return {
        status: "fail",
        reason: `${errors.length} schema or sequence error(s), first: ${errors[0]!.file}:${errors[0]!.line ?? "-"}${errors[0]!.path ? ` ${errors[0]!.path}:` : ""} ${errors[0]!.message}`,
        evidence
      };
    const measure = ctx.manifest.measureVersion;
    const unknownMeasure = !KNOWN_MEASURE_VERSIONS.includes(measure) && !measure.startsWith("import-");
    if (torn.length > 0 || undeclared.length > 0 || notFiles.length > 0 || unknownMeasure)
      return {
        status: "warn",
        reason: [
          unknownMeasure
            ? `measure version ${JSON.stringify(measure)} is not one this analyzer knows (${KNOWN_MEASURE_VERSIONS.join(", ")} or import-<tool>): its timestamps may mean something else`
            : "",
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
    const why =
      ctx.manifest?.statusReason ??
      (ctx.manifest ? "" : manifestFault(ctx) === null ? "no manifest" : "the manifest is not valid (see G1)");
    return {status: "warn", reason: `bundle status is ${status}${why ? `: ${why}` : ""}`, evidence: {status}};
  }
};
