import {z} from "zod";

import type {RunConfig} from "../schema/config.ts";
import type {Locate} from "../schema/configText.ts";
import type {FileEntry, Manifest} from "../schema/manifest.ts";
import {
  ClientRecord,
  FILE_NAMES,
  GpuSample,
  QualityLineByShape,
  ROLE_BY_NAME,
  ScheduleRecord,
  ServerScrape,
  SourceRecord,
  type RecordRole
} from "../schema/records.ts";
import {appendAll} from "../util/append.ts";
import {issue, type Issue} from "../util/issues.ts";
import {LineSplitter} from "../util/lines.ts";
import {FALLBACK_CONFIG, parseConfig} from "./config.ts";
import {RequestRecordIngest} from "./fastEvents.ts";
import {parseManifest, type ManifestLine} from "./manifest.ts";
import {JsonlValidator} from "./jsonl.ts";
import {drain, MAX_TEXT_CHARS, readText} from "./readText.ts";
import type {BundleSource, FileStream} from "./source.ts";

/** The schema each data file role is validated with while streaming (requests: the fast events check). */
const INGEST_SCHEMAS = {
  requests: RequestRecordIngest,
  schedule: ScheduleRecord,
  client_metrics: ClientRecord,
  server_metrics: ServerScrape,
  gpu_metrics: GpuSample,
  quality: QualityLineByShape,
  source: SourceRecord
} as const satisfies Record<RecordRole, unknown>;

export type IngestRecord<R extends RecordRole> = z.infer<(typeof INGEST_SCHEMAS)[R]>;

/** Where a record was read: its file and 1-based line. */
export interface RecordAt {
  file: string;
  line: number;
}

/** What to do with each valid record, per file role; a role without a visitor is validated only. */
export type RecordVisitors = {[R in RecordRole]?: (record: IngestRecord<R>, at: RecordAt) => void};

/** The manifest and config, read before any data file (the visitors are built from them). */
export interface BundleHeader {
  manifest: Manifest | null;
  /** The bundle's config, or FALLBACK_CONFIG when it has none or it does not parse. */
  config: RunConfig;
  /** The bundle's own config as parsed: null when it is absent, too large or does not parse (no fallback). */
  parsedConfig: RunConfig | null;
  /** Whether the bundle holds a config text that was read (even one that did not parse). */
  hasConfig: boolean;
  /** Line and column of a key path in the config text (null: no config text). */
  locateConfig: Locate | null;
  /** The line of a manifest value by its key path (null: no manifest text that parses as JSON). */
  manifestLine: ManifestLine | null;
  /** Observed size and sha256 of the manifest and config, when present. */
  digests: ReadonlyMap<string, {bytes: number; sha256: string}>;
}

const Digest = z.object({bytes: z.number().int().nonnegative(), sha256: z.string()});

/** Observed against declared size and digest of one file (G1; a Report's `files`). */
export const FileCheck = z
  .object({
    path: z.string(),
    declared: Digest.nullable().describe("size and sha256 the manifest lists (null: not listed)"),
    observed: Digest.nullable().describe("size and sha256 as read (null: absent)")
  })
  .describe("declared against observed digest of one file (G1)");
export type FileCheck = z.infer<typeof FileCheck>;

/** A bundle as read: its header and the check of every file. */
export interface BundleRead {
  header: BundleHeader;
  files: FileCheck[];
}

// the ledger takes the log's notes, then the schedule, then the requests
const FIRST: readonly string[] = ["client_metrics", "schedule"];

/**
 * Reads every data file of a bundle in a fixed order (client log, schedule, the rest by path), each
 * streamed line by line through its role's schema into `visitors`; files of no record role are hashed
 * only. Returns every file declared or present, sorted by path, with its declared and observed digest.
 * Every problem goes to `issues`, in reading order.
 */
export async function readRecords(
  source: BundleSource,
  header: BundleHeader,
  visitors: RecordVisitors,
  issues: Issue[]
): Promise<FileCheck[]> {
  const observed = new Map(header.digests);
  const declared = new Map<string, FileEntry>((header.manifest?.files ?? []).map((f) => [f.path, f]));
  const roleOf = (p: string) => declared.get(p)?.role ?? ROLE_BY_NAME.get(p);
  const rank = (p: string) => {
    const i = FIRST.indexOf(roleOf(p) ?? "");
    return i === -1 ? FIRST.length : i;
  };
  const dataFiles = [...new Set([...declared.keys(), ...source.files])]
    .filter((p) => p !== FILE_NAMES.manifest && p !== FILE_NAMES.config)
    .sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  for (const path of dataFiles) {
    const role = roleOf(path);
    const stream = source.open(path);
    if (!stream) {
      if (declared.has(path) && source.folders?.includes(path))
        issues.push(issue("warning", "not_a_file", path, "a folder: not read (a bundle holds regular files only)"));
      continue;
    }
    if (role === undefined || role === "config" || role === "attachment" || !path.endsWith(".jsonl"))
      await drain(stream);
    else {
      const lines = await streamRole(path, role, stream, visitors, issues);
      const listed = declared.get(path)?.records;
      // the manifest's record count is the file's newline count when sealed: a different count is an edited
      // manifest (or a sealing bug), whatever the digests say
      if (typeof listed === "number" && listed !== lines)
        issues.push(
          issue(
            "error",
            "record_count",
            FILE_NAMES.manifest,
            `lists ${listed} records for ${path}, which holds ${lines} newline-terminated line${lines === 1 ? "" : "s"}`,
            header.manifestLine?.(["files", header.manifest!.files.findIndex((f) => f.path === path), "records"]) ??
              null
          )
        );
    }
    observed.set(path, stream.digest());
    encodingIssue(path, stream, issues);
  }
  const files: FileCheck[] = [];
  for (const path of [...new Set([...declared.keys(), ...observed.keys()])].sort()) {
    const d = declared.get(path);
    files.push({path, declared: d ? {bytes: d.bytes, sha256: d.sha256} : null, observed: observed.get(path) ?? null});
  }
  return files;
}

/** An error where the edge found bytes that are not UTF-8: the text read has U+FFFD where the file has them. */
function encodingIssue(path: string, stream: FileStream, issues: Issue[]): void {
  const e = stream.encodingError?.() ?? null;
  if (e)
    issues.push(
      issue(
        "error",
        "not_utf8",
        path,
        `not valid UTF-8: byte 0x${e.byte.toString(16).toUpperCase().padStart(2, "0")} at byte offset ${e.offset} (a bundle's text is UTF-8; the reader would see U+FFFD)`,
        e.line
      )
    );
}

/** Reads the manifest and config (warning first about entries that are not regular files). */
export async function readHeader(source: BundleSource, issues: Issue[]): Promise<BundleHeader> {
  const observed = new Map<string, {bytes: number; sha256: string}>();
  for (const {path, reason} of source.skipped ?? [])
    issues.push(issue("warning", "not_a_file", path, `${reason}: not read (a bundle holds regular files only)`));
  /** A small file's text; undefined when absent, null when it is too large to be what its name says. */
  const openText = async (path: string): Promise<string | null | undefined> => {
    const s = source.open(path);
    if (!s) return undefined;
    const text = await readText(s);
    observed.set(path, s.digest());
    encodingIssue(path, s, issues);
    if (text === null)
      issues.push(issue("error", "file_too_large", path, `larger than ${MAX_TEXT_CHARS / 2 ** 20} MiB: not a ${path}`));
    return text;
  };
  const manifestText = await openText(FILE_NAMES.manifest);
  let manifest: Manifest | null = null;
  let manifestLine: ManifestLine | null = null;
  if (manifestText === undefined)
    issues.push(
      issue(
        "warning",
        "no_manifest",
        FILE_NAMES.manifest,
        "no manifest: the bundle is partial and its digests cannot be verified"
      )
    );
  else if (manifestText !== null) {
    const m = parseManifest(manifestText, FILE_NAMES.manifest);
    manifest = m.manifest;
    manifestLine = m.lineOf;
    appendAll(issues, m.issues);
  }
  const configText = await openText(FILE_NAMES.config);
  let parsedConfig: RunConfig | null = null;
  let locateConfig: Locate | null = null;
  if (configText === undefined)
    issues.push(
      issue("warning", "no_config", FILE_NAMES.config, "no resolved config: defaults assumed for thresholds")
    );
  else if (configText !== null) {
    const c = parseConfig(configText, FILE_NAMES.config);
    parsedConfig = c.config;
    locateConfig = c.locate;
    appendAll(issues, c.issues);
  }
  return {
    manifest,
    config: parsedConfig ?? FALLBACK_CONFIG,
    parsedConfig,
    hasConfig: configText !== undefined && configText !== null,
    locateConfig,
    manifestLine,
    digests: observed
  };
}

/**
 * Streams one JSONL file through its role's validator; the visitor's issues come before the file's own. Returns
 * the number of newline-terminated lines (what a sealed manifest lists as the file's records).
 */
async function streamRole(
  path: string,
  role: RecordRole,
  stream: FileStream,
  visitors: RecordVisitors,
  issues: Issue[]
): Promise<number> {
  const validator = new JsonlValidator(path, INGEST_SCHEMAS[role] as z.ZodType<{seq: number}, unknown>);
  const visit = visitors[role] as ((r: {seq: number}, at: RecordAt) => void) | undefined;
  const take = (line: Parameters<JsonlValidator<{seq: number}>["line"]>[0]) => {
    const r = validator.line(line);
    if (r !== undefined && visit !== undefined) visit(r, {file: path, line: validator.lines});
  };
  const splitter = new LineSplitter(undefined, {keepCr: true}); // a CR LF line end is flagged (G1), not hidden
  let terminated = 0;
  for await (const chunk of stream.chunks)
    for (const line of splitter.push(chunk)) {
      terminated++;
      take(line);
    }
  const {last, endedWithNewline} = splitter.finish();
  if (last !== null) take(last);
  validator.finish(endedWithNewline);
  appendAll(issues, validator.issues);
  return terminated;
}
