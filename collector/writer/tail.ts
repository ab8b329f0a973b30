import type {Files} from "../effects.ts";

export interface TailRepair {
  /** Bytes cut from the end (0 when the file was intact). */
  truncatedBytes: number;
  /** `seq` of the last intact record, or null for an empty file. */
  lastSeq: number | null;
  /** The cut bytes, decoded for the note (first 200 characters). */
  excerpt: string | null;
}

const CHUNK = 1 << 16;

/** Offset just after the last "\n" before `end`, or 0. Reads backwards in chunks. */
async function lastNewlineBefore(files: Files, path: string, end: number): Promise<number> {
  let pos = end;
  while (pos > 0) {
    const start = Math.max(0, pos - CHUNK);
    const buf = await files.readRange(path, start, pos - start);
    const i = buf.lastIndexOf(10);
    if (i !== -1) return start + i + 1;
    pos = start;
  }
  return 0;
}

/**
 * Makes a JSONL file safe to append to after a crash: a final line without "\n", or a final line that is
 * not valid JSON, is cut back to the previous newline (only the last line may be torn; nothing else is
 * touched). Returns what was cut and the last intact `seq` so appending continues the sequence.
 */
export async function repairTail(files: Files, path: string): Promise<TailRepair> {
  const size = await files.size(path);
  let end = size;
  let excerpt: string | null = null;
  const readLine = async (until: number) => {
    const start = await lastNewlineBefore(files, path, until - 1);
    return {start, text: (await files.readRange(path, start, until - start)).toString("utf8")};
  };
  const seqOf = (text: string): number | null | undefined => {
    try {
      const v = JSON.parse(text) as {seq?: unknown};
      return typeof v.seq === "number" ? v.seq : null;
    } catch {
      return undefined;
    }
  };
  if (end > 0 && (await files.readRange(path, end - 1, 1))[0] !== 10) {
    const cut = await lastNewlineBefore(files, path, end);
    excerpt = (await files.readRange(path, cut, Math.min(end - cut, 200))).toString("utf8");
    end = cut;
  }
  let lastSeq: number | null = null;
  if (end > 0) {
    const line = await readLine(end);
    const seq = seqOf(line.text);
    if (seq === undefined) {
      // a complete final line that is not JSON: torn by a crash between two writes; cut it too (only this one)
      excerpt ??= line.text.slice(0, 200);
      end = line.start;
      if (end > 0) lastSeq = seqOf((await readLine(end)).text) ?? null;
    } else lastSeq = seq;
  }
  if (end < size) await files.truncate(path, end);
  return {truncatedBytes: size - end, lastSeq, excerpt};
}
