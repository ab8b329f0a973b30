import {join} from "node:path";

import {FILE_NAMES, type ClientRecord, type Manifest} from "../../src/analysis/schema/index.ts";
import {sealBundle} from "./seal.ts";
import type {Effects} from "../effects.ts";
import {JsonlWriter} from "../writer/jsonlWriter.ts";
import {repairTail} from "../writer/tail.ts";

/** The manifest as known at the start of a run, kept in the bundle until it is sealed (crash recovery). */
export const DRAFT_FILE = "run.draft.json";

export interface FinishOptions {
  fx: Pick<Effects, "files" | "clock">;
  dir: string;
  draft: Omit<Manifest, "files">;
  /** Data files to digest, relative to dir. */
  files: readonly string[];
  /** Cut torn tails (after a write failure or a crash) and note each cut in client_metrics.jsonl. */
  repairTails: boolean;
  origin: bigint;
  /** Extra notes to append before sealing (e.g. resume). */
  notes?: {event: string; detail: Record<string, unknown>}[];
}

/**
 * Closes a bundle: optionally repairs torn tails (with a "tail_truncated" note for each), appends notes,
 * then digests every file and writes manifest.json last (atomically). Never throws for I/O: returns the
 * error text instead so the caller can exit 5 with a clear message.
 */
export async function finishBundle(o: FinishOptions): Promise<{manifest: Manifest | null; error: string | null}> {
  const {fx, dir} = o;
  const rel = () => Number(fx.clock.nowNs() - o.origin);
  try {
    const notes: Omit<Extract<ClientRecord, {kind: "note"}>, "seq">[] = [];
    if (o.repairTails) {
      for (const f of o.files) {
        if (!f.endsWith(".jsonl") || !(await fx.files.exists(join(dir, f)))) continue;
        const r = await repairTail(fx.files, join(dir, f));
        if (r.truncatedBytes > 0)
          notes.push({
            kind: "note",
            tNs: rel(),
            event: "tail_truncated",
            point: null,
            repeat: null,
            detail: {file: f, bytes: r.truncatedBytes, lastSeq: r.lastSeq}
          });
      }
    }
    for (const n of o.notes ?? [])
      notes.push({kind: "note", tNs: rel(), event: n.event, point: null, repeat: null, detail: n.detail});
    if (notes.length > 0) {
      const {writer} = await JsonlWriter.open<ClientRecord>(fx.files, join(dir, FILE_NAMES.client_metrics));
      for (const n of notes) writer.append(n);
      await writer.close();
      if (writer.error) throw writer.error;
    }
    const present: string[] = [];
    for (const f of o.files) if (await fx.files.exists(join(dir, f))) present.push(f);
    const manifest = await sealBundle(dir, o.draft, present, fx.files);
    await fx.files.remove(join(dir, DRAFT_FILE));
    return {manifest, error: null};
  } catch (e) {
    return {manifest: null, error: `the bundle could not be sealed: ${(e as Error).message}`};
  }
}

/** Reads clock anchors back from "clock_anchor" notes (crash recovery). */
export function anchorsFromNotes(text: string): Manifest["clockAnchors"] {
  const out: Manifest["clockAnchors"] = [];
  for (const line of text.split("\n")) {
    if (!line.includes('"clock_anchor"')) continue;
    try {
      const r = JSON.parse(line) as {kind?: string; event?: string; tNs?: number; detail?: {wall?: string}};
      if (
        r.kind === "note" &&
        r.event === "clock_anchor" &&
        typeof r.tNs === "number" &&
        typeof r.detail?.wall === "string"
      )
        out.push({wall: r.detail.wall, tNs: r.tNs});
    } catch {
      // a torn line: skipped
    }
  }
  return out;
}
