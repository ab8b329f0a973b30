import {join} from "node:path";

import {
  FILE_NAMES,
  type ClientRecord,
  type GpuSample,
  type CaseAnswer,
  type RequestRecord,
  type ScheduleRecord,
  type ServerScrape
} from "../../src/analysis/schema/index.ts";
import type {Files} from "../effects.ts";
import {JsonlWriter} from "./jsonlWriter.ts";
import type {TailRepair} from "./tail.ts";

type NoteRecord = Extract<ClientRecord, {kind: "note"}>;

interface Writers {
  requests: JsonlWriter<RequestRecord>;
  schedule: JsonlWriter<ScheduleRecord>;
  client_metrics: JsonlWriter<ClientRecord>;
  server_metrics: JsonlWriter<ServerScrape>;
  gpu_metrics: JsonlWriter<GpuSample>;
}

export interface BundleWriterOptions {
  fsyncIntervalMs: number;
  /** How often buffered records are handed to the file system (default 100 ms, at most fsyncIntervalMs). */
  flushIntervalMs?: number;
  onError?: (error: Error, path: string) => void;
  /** Also open quality.jsonl (runs with a case suite). */
  quality?: boolean;
}

/** How often buffered records are handed to the file system unless told otherwise (ms). */
export const DEFAULT_FLUSH_INTERVAL_MS = 100;

/** The flush interval a writer with these options uses: what a killed collector can lose (recorded in the manifest). */
export const flushIntervalOf = (o: Pick<BundleWriterOptions, "fsyncIntervalMs" | "flushIntervalMs">): number =>
  Math.min(o.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS, o.fsyncIntervalMs);

/** The JSONL files a collected bundle always has. */
export const BUNDLE_JSONL = ["requests", "schedule", "client_metrics", "server_metrics", "gpu_metrics"] as const;
/** JSONL files a collected bundle has only sometimes (quality.jsonl: runs with a case suite); sealed when present. */
export const OPTIONAL_JSONL = ["quality"] as const;

/**
 * The durable side of a run: one append-only writer per JSONL file, a flush timer and an fsync timer
 * (the fsync interval is the durability bound recorded in the manifest).
 */
export class BundleWriter {
  readonly dir: string;
  readonly requests: JsonlWriter<RequestRecord>;
  readonly schedule: JsonlWriter<ScheduleRecord>;
  readonly client: JsonlWriter<ClientRecord>;
  readonly server: JsonlWriter<ServerScrape>;
  readonly gpu: JsonlWriter<GpuSample>;
  /** quality.jsonl (the case suite's raw answers), when opened with {quality: true}. */
  readonly quality: JsonlWriter<CaseAnswer> | null;
  /** Tail repairs done when an existing bundle was reopened (resume). */
  readonly repairs: {file: string; repair: TailRepair}[];
  #timers: NodeJS.Timeout[] = [];
  #error: {error: Error; path: string} | null = null;

  private constructor(
    dir: string,
    w: Writers,
    repairs: BundleWriter["repairs"],
    quality: JsonlWriter<CaseAnswer> | null
  ) {
    this.dir = dir;
    this.quality = quality;
    this.requests = w.requests;
    this.schedule = w.schedule;
    this.client = w.client_metrics;
    this.server = w.server_metrics;
    this.gpu = w.gpu_metrics;
    this.repairs = repairs;
  }

  static async open(files: Files, dir: string, options: BundleWriterOptions): Promise<BundleWriter> {
    let self: BundleWriter | null = null;
    const onError = (error: Error, path: string) => {
      if (self && !self.#error) self.#error = {error, path};
      options.onError?.(error, path);
    };
    const writers: Partial<Record<string, unknown>> = {};
    const repairs: BundleWriter["repairs"] = [];
    for (const role of BUNDLE_JSONL) {
      const name = FILE_NAMES[role];
      const {writer, repair} = await JsonlWriter.open(files, join(dir, name), {onError});
      writers[role] = writer;
      if (repair && repair.truncatedBytes > 0) repairs.push({file: name, repair});
    }
    let quality: JsonlWriter<CaseAnswer> | null = null;
    if (options.quality) {
      const name = FILE_NAMES.quality;
      const {writer, repair} = await JsonlWriter.open<CaseAnswer>(files, join(dir, name), {onError});
      quality = writer;
      if (repair && repair.truncatedBytes > 0) repairs.push({file: name, repair});
    }
    self = new BundleWriter(dir, writers as unknown as Writers, repairs, quality);
    const flushMs = flushIntervalOf(options);
    self.#timers.push(setInterval(() => void self!.flush(), flushMs));
    self.#timers.push(setInterval(() => void self!.sync(), options.fsyncIntervalMs));
    return self;
  }

  get all(): JsonlWriter<{seq: number}>[] {
    const all = [
      this.requests,
      this.schedule,
      this.client,
      this.server,
      this.gpu,
      ...(this.quality ? [this.quality] : [])
    ];
    return all as unknown as JsonlWriter<{seq: number}>[];
  }

  /** The first write error, if any (the run must stop: exit 5). */
  get failure(): {error: Error; path: string} | null {
    return this.#error;
  }

  note(
    tNs: number,
    event: string,
    detail: Record<string, unknown> = {},
    point: string | null = null,
    repeat: number | null = null
  ): void {
    this.client.append({kind: "note", tNs, event, point, repeat, detail} satisfies Omit<NoteRecord, "seq">);
  }

  async flush(): Promise<void> {
    await Promise.all(this.all.map((w) => w.flush()));
  }

  async sync(): Promise<void> {
    await Promise.all(this.all.map((w) => w.sync()));
  }

  /** Stops the timers, writes and fsyncs everything, closes the files. */
  async close(): Promise<void> {
    for (const t of this.#timers) clearInterval(t);
    this.#timers = [];
    await Promise.all(this.all.map((w) => w.close()));
  }
}
