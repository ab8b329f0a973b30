/**
 * `inferscope merge` (issue 17): the sealed bundles of one sharded experiment become one normal bundle whose
 * raw records are the union of the shards', each naming its shard and placed on one timeline. Nothing is
 * merged from summaries: the analyzer recomputes every percentile from the raw records, exactly as for a
 * single collector. A merge refuses shards of different experiments, a missing shard and a shard given twice.
 * A sharded case suite runs on shard 0 alone: its answers are shard 0's.
 */
import {createReadStream} from "node:fs";
import {join} from "node:path";
import {createInterface} from "node:readline";

import {
  CaseAnswer,
  ClientRecord,
  FILE_NAMES,
  GpuSample,
  Manifest,
  RequestRecord,
  ScheduleRecord,
  ServerScrape
} from "../../src/analysis/schema/index.ts";
import type {MergeFacts, MergedShard} from "../../src/analysis/schema/shard.ts";
import {sha256File, sha256Hex} from "../../src/io/hash.ts";
import {sealBundle} from "../bundle/seal.ts";
import {entryPhrase, type Effects} from "../effects.ts";
import {JsonlWriter} from "../writer/jsonlWriter.ts";
import {placeShards, type Placement} from "./place.ts";
import {shiftClient, shiftRequest, shiftScrape} from "./shift.ts";

/** A shard set that cannot be merged (exit 2), or a shard bundle that is not intact. */
export class MergeError extends Error {}

/** The files a merge reads from every shard and writes into the merged bundle, in that order. */
const MERGED_FILES = ["config", "requests", "schedule", "client_metrics", "server_metrics", "gpu_metrics"] as const;

/** Whether a shard's manifest lists the case suite's answers (shard 0 runs a sharded suite: run/shard.ts). */
const hasAnswers = (s: Pick<Shard, "manifest">): boolean => s.manifest.files.some((f) => f.path === FILE_NAMES.quality);

interface Shard {
  dir: string;
  manifest: Manifest;
  manifestSha256: string;
}

type ZodLike<T> = {
  safeParse(
    v: unknown
  ): {success: true; data: T} | {success: false; error: {issues: {path: PropertyKey[]; message: string}[]}};
};

/** Reads a shard's manifest and checks every file against its digest. */
async function readShard(fx: Pick<Effects, "files">, dir: string): Promise<Shard> {
  const path = join(dir, FILE_NAMES.manifest);
  const manifestKind = await fx.files.entryKind(path);
  if (manifestKind !== null && manifestKind !== "file")
    throw new MergeError(`${path}: ${entryPhrase(manifestKind)}, not a regular file: not a sealed bundle`);
  let text: string;
  try {
    text = (await fx.files.readFile(path)).toString("utf8");
  } catch (e) {
    throw new MergeError(`${path}: cannot read (${(e as Error).message}): not a sealed bundle`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new MergeError(`${path}: not JSON (${(e as Error).message})`);
  }
  const parsed = Manifest.safeParse(json);
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    throw new MergeError(`${path}: ${i.path.join(".") || "(root)"}: ${i.message}`);
  }
  const listed = new Set(parsed.data.files.map((f) => f.path));
  const absent = MERGED_FILES.map((f) => FILE_NAMES[f]).filter((name) => !listed.has(name));
  if (absent.length > 0)
    throw new MergeError(
      `${path}: lists no ${absent.join(", ")}: a shard bundle as \`collect --shard\` seals it has every one of them`
    );
  for (const f of parsed.data.files) {
    const kind = await fx.files.entryKind(join(dir, f.path));
    if (kind !== null && kind !== "file")
      throw new MergeError(
        `${join(dir, f.path)}: ${entryPhrase(kind)}, not a regular file: the shard is not intact (inferscope verify ${dir})`
      );
    const d = await sha256File(join(dir, f.path)).catch(() => null);
    if (d === null || d.sha256 !== f.sha256)
      throw new MergeError(
        `${join(dir, f.path)}: ${d === null ? "missing" : "its sha256 differs from the manifest's"}: the shard is not intact (inferscope verify ${dir})`
      );
  }
  return {dir, manifest: parsed.data, manifestSha256: sha256Hex(text)};
}

/** The shards in index order, or why they are not the complete set of one experiment. */
export function checkShardSet(shards: readonly Shard[]): Shard[] {
  const first = shards[0]!;
  const ident = (s: Shard) => {
    if (s.manifest.shard === undefined)
      throw new MergeError(
        `${s.dir}: not a shard (its manifest has no \`shard\`): only bundles collected with --shard merge`
      );
    return s.manifest.shard;
  };
  const plan = ident(first);
  const byIndex = new Map<number, Shard>();
  for (const s of shards) {
    const id = ident(s);
    if (id.planSha256 !== plan.planSha256 || id.count !== plan.count)
      throw new MergeError(
        `${s.dir} belongs to another experiment than ${first.dir} (plan ${id.planSha256.slice(0, 12)}… of ${id.count} shards, not ${plan.planSha256.slice(0, 12)}… of ${plan.count})`
      );
    if ((id.group ?? 1) !== (plan.group ?? 1))
      throw new MergeError(
        `${s.dir} deals its plan in units of ${id.group ?? 1} ordinal(s), ${first.dir} in units of ${plan.group ?? 1}: not shards of one experiment`
      );
    const twice = byIndex.get(id.index);
    if (twice !== undefined) throw new MergeError(`shard ${id.index} given twice: ${twice.dir} and ${s.dir}`);
    byIndex.set(id.index, s);
  }
  const missing = Array.from({length: plan.count}, (_, k) => k).filter((k) => !byIndex.has(k));
  if (missing.length > 0)
    throw new MergeError(
      `shard${missing.length > 1 ? "s" : ""} ${missing.join(", ")} of ${plan.count} missing: a merge needs every shard of the experiment`
    );
  const ordered = [...byIndex.entries()].sort((a, b) => a[0] - b[0]).map(([, s]) => s);
  const answering = ordered.slice(1).find(hasAnswers);
  if (answering !== undefined)
    throw new MergeError(
      `${answering.dir}: shard ${ident(answering).index} holds case-suite answers (${FILE_NAMES.quality}), but shard 0 alone runs the suite of a sharded experiment: not a shard as \`collect --shard\` writes it`
    );
  return ordered;
}

/**
 * The merged bundle's load points: every shard's, which are one list. A search adds its probes as it goes,
 * each chosen from one verdict for all shards, so every shard that ran to its end lists the same probes; a
 * shard that was stopped or failed may list fewer, the first ones of the same list (never other ones).
 */
export function mergedPoints(shards: readonly Pick<Shard, "dir" | "manifest">[]): Manifest["loadPoints"] {
  const ids = (s: Pick<Shard, "manifest">) => s.manifest.loadPoints.map((p) => p.id);
  const longest = shards.reduce((a, b) => (ids(b).length > ids(a).length ? b : a));
  const all = ids(longest);
  for (const s of shards) {
    const mine = ids(s);
    const prefix = mine.every((id, i) => id === all[i]);
    if (!prefix || (mine.length < all.length && s.manifest.status === "complete"))
      throw new MergeError(
        `${s.dir} ran the load points ${mine.join(", ") || "(none)"}, ${longest.dir} ran ${all.join(", ")}: the shards of one experiment run the same points`
      );
  }
  return longest.manifest.loadPoints;
}

/** Every record of one JSONL file, validated, with file:line in any error. */
async function* records<T>(path: string, schema: ZodLike<T>): AsyncGenerator<T> {
  const lines = createInterface({input: createReadStream(path), crlfDelay: Infinity});
  let n = 0;
  for await (const line of lines) {
    n++;
    if (line.trim() === "") continue;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch (e) {
      throw new MergeError(`${path}:${n}: not JSON (${(e as Error).message})`);
    }
    const r = schema.safeParse(v);
    if (!r.success) {
      const i = r.error.issues[0]!;
      throw new MergeError(`${path}:${n}: ${i.path.join(".") || "(root)"}: ${i.message}`);
    }
    yield r.data;
  }
}

const withoutSeq = <T extends {seq: number}>(r: T): Omit<T, "seq"> => {
  const {seq: _seq, ...rest} = r;
  return rest;
};

/** The worst status of the shards (one interrupted shard makes the experiment interrupted). */
function mergedStatus(shards: readonly Shard[]): {status: Manifest["status"]; reason: string | null} {
  const rank: Record<Manifest["status"], number> = {complete: 0, interrupted: 1, partial: 2};
  let worst: Shard = shards[0]!;
  for (const s of shards) if (rank[s.manifest.status] > rank[worst.manifest.status]) worst = s;
  const status = worst.manifest.status;
  const reasons = shards
    .filter((s) => s.manifest.status !== "complete")
    .map(
      (s) =>
        `shard ${s.manifest.shard!.index}: ${s.manifest.status}${s.manifest.statusReason ? ` (${s.manifest.statusReason})` : ""}`
    );
  return {status, reason: reasons.length > 0 ? reasons.join("; ") : null};
}

/** Copies one JSONL file of every given shard into `writer`, each record through `map`. */
async function copyInto<T extends {seq: number}, U extends {seq: number}>(
  writer: JsonlWriter<U>,
  shards: readonly {dir: string; k: number}[],
  name: string,
  schema: ZodLike<T>,
  map: (r: Omit<T, "seq">, k: number) => Omit<U, "seq">
): Promise<void> {
  let n = 0;
  for (const {dir, k} of shards) {
    for await (const r of records(join(dir, name), schema)) {
      writer.append(map(withoutSeq(r as T & {seq: number}), k) as never);
      // wait for the disk now and then, so a large shard is never held in memory
      if (++n % 4096 === 0) await writer.flush();
    }
  }
}

/** The merged bundle's name: the shard's, with "shardKofN" replaced by "Nshards". */
function mergedId(shard0: Manifest): string {
  const {count} = shard0.shard!;
  const id = shard0.bundleId.replace(new RegExp(`-shard0of${count}-`), `-${count}shards-`);
  return id === shard0.bundleId ? `${shard0.bundleId}-${count}shards` : id;
}

/** Writes the union of the shards' records into `dir`, each placed on the merged timeline. */
async function writeRecords(fx: Effects, dir: string, shards: readonly Shard[], places: readonly Placement[]) {
  const all = shards.map((s, k) => ({dir: s.dir, k}));
  const dt = (k: number) => places[k]!.offsetNs;
  const config = await fx.files.readFile(join(shards[0]!.dir, FILE_NAMES.config));
  await fx.files.writeAtomic(join(dir, FILE_NAMES.config), config.toString("utf8"));
  const open = async <T extends {seq: number}>(name: string) =>
    (await JsonlWriter.open<T>(fx.files, join(dir, name))).writer;
  const writers = {
    requests: await open<RequestRecord>(FILE_NAMES.requests),
    schedule: await open<ScheduleRecord>(FILE_NAMES.schedule),
    client: await open<ClientRecord>(FILE_NAMES.client_metrics),
    server: await open<ServerScrape>(FILE_NAMES.server_metrics),
    gpu: await open<GpuSample>(FILE_NAMES.gpu_metrics)
  };
  await copyInto(writers.requests, all, FILE_NAMES.requests, RequestRecord, (r, k) => shiftRequest(r, dt(k), k));
  await copyInto(writers.schedule, all, FILE_NAMES.schedule, ScheduleRecord, (r, k) => ({...r, shard: k}));
  await copyInto(writers.client, all, FILE_NAMES.client_metrics, ClientRecord, (r, k) =>
    shiftClient(r as never, dt(k), k)
  );
  // one server's telemetry, once: the scrapes of shard 0 (every shard scraped the same server)
  const first = all.slice(0, 1);
  await copyInto(writers.server, first, FILE_NAMES.server_metrics, ServerScrape, (r) => shiftScrape(r, dt(0)));
  await copyInto(writers.gpu, first, FILE_NAMES.gpu_metrics, GpuSample, (r) => shiftScrape(r, dt(0)));
  // the case suite's raw answers, shard 0's (it alone runs the suite); they hold no time of the run
  const answers = hasAnswers(shards[0]!) ? await open<CaseAnswer>(FILE_NAMES.quality) : null;
  if (answers !== null) await copyInto(answers, first, FILE_NAMES.quality, CaseAnswer, (r) => r);
  for (const w of [...Object.values(writers), ...(answers === null ? [] : [answers])]) {
    await w.close();
    if (w.error) throw w.error;
  }
}

/** What the merged manifest says about its shards. */
function mergeFacts(shards: readonly Shard[], places: readonly Placement[]): MergeFacts {
  const m0 = shards[0]!.manifest;
  return {
    planSha256: m0.shard!.planSha256,
    count: m0.shard!.count,
    ...(m0.shard!.group === undefined ? {} : {group: m0.shard!.group}),
    telemetryFrom: 0,
    shards: shards.map((s, k): MergedShard => ({
      index: k,
      bundleId: s.manifest.bundleId,
      manifestSha256: s.manifestSha256,
      host: s.manifest.environment.host.hostname,
      offsetNs: places[k]!.offsetNs,
      offsetUncertaintyMs: places[k]!.uncertaintyMs,
      startLateNs: s.manifest.shard!.startLateNs,
      timeSync: s.manifest.shard!.timeSync
    }))
  };
}

/** The merged manifest before its files are digested: shard 0's, placed on the merged timeline. */
function mergedManifest(shards: readonly Shard[], places: readonly Placement[]): Omit<Manifest, "files"> {
  const m0 = shards[0]!.manifest;
  const {status, reason} = mergedStatus(shards);
  const {files: _files, shard: _shard, ...base} = m0;
  const zero = shards[places.findIndex((p) => p.offsetNs === 0)]!.manifest;
  const finished = shards.map((s) => s.manifest.finishedAt);
  const note = `merged by \`inferscope merge\` from ${shards.length} shards (${shards.map((s) => s.manifest.bundleId).join(", ")}); the server and GPU telemetry are shard 0's`;
  return {
    ...base,
    loadPoints: mergedPoints(shards),
    bundleId: mergedId(m0),
    status,
    statusReason: reason,
    startedAt: zero.startedAt,
    finishedAt: finished.includes(null) ? null : finished.reduce((a, b) => (Date.parse(a!) > Date.parse(b!) ? a : b))!,
    monotonicOriginNs: zero.monotonicOriginNs,
    clockAnchors: shards
      .flatMap((s, k) => s.manifest.clockAnchors.map((a) => ({wall: a.wall, tNs: a.tNs + places[k]!.offsetNs})))
      .sort((a, b) => a.tNs - b.tNs),
    merge: mergeFacts(shards, places),
    provenance: {
      kind: "collected",
      note: m0.provenance.kind === "collected" && m0.provenance.note ? `${m0.provenance.note}\n${note}` : note
    }
  };
}

/**
 * Merges the shard bundles in `dirs` into a new bundle under `outParent`; returns its folder and manifest.
 * Throws MergeError for a shard set that cannot be merged; I/O errors propagate (the caller exits 5).
 */
export async function mergeShards(
  fx: Effects,
  dirs: readonly string[],
  outParent: string,
  /** Why a shard whose digests hold is still not intact (its records judged as a whole), or null. */
  checkShard: (dir: string) => Promise<string | null> = async () => null
): Promise<{dir: string; manifest: Manifest}> {
  if (dirs.length === 0) throw new MergeError("merge needs the shard bundles to merge");
  const read: Shard[] = [];
  for (const d of dirs) read.push(await readShard(fx, d));
  const shards = checkShardSet(read);
  for (const s of shards) {
    const why = await checkShard(s.dir);
    if (why !== null) throw new MergeError(why);
  }
  const places = placeShards(
    shards.map((s) => ({
      anchors: s.manifest.clockAnchors,
      timeSync: s.manifest.shard!.timeSync,
      host: s.manifest.environment.host.hostname
    }))
  );
  const draft = mergedManifest(shards, places);
  const dir = join(outParent, draft.bundleId);
  try {
    await fx.files.mkdirNew(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST")
      throw new MergeError(`refusing to overwrite the existing folder ${dir}`);
    throw e;
  }
  try {
    await writeRecords(fx, dir, shards, places);
    const manifest = await sealBundle(
      dir,
      draft,
      [...MERGED_FILES.map((f) => FILE_NAMES[f]), ...(hasAnswers(shards[0]!) ? [FILE_NAMES.quality] : [])],
      fx.files
    );
    return {dir, manifest};
  } catch (e) {
    // The folder is this merge's own (created above): a shard record that is not valid or a full disk
    // leaves no half-written, unsealed bundle behind, and the same merge can run again once fixed.
    await fx.files.removeTree(dir).catch(() => undefined);
    throw e;
  }
}
