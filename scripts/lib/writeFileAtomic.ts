import {closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync} from "node:fs";

/**
 * Writes `chunks` to `path` atomically: a temp file beside it, fsync, rename. A failure (or a killed
 * run) never leaves a partial file under `path`, and a failure removes the temp file. `onChunk` sees
 * every byte written, in order (e.g. to hash the file while writing). Returns the bytes written.
 * The scripts' one copy; the collector keeps its own in collector/bundle/seal.ts and collector/effects.ts.
 */
export function writeFileAtomic(
  path: string,
  chunks: Iterable<Uint8Array>,
  onChunk?: (chunk: Uint8Array) => void
): number {
  const tmp = `${path}.${process.pid}.tmp`;
  let bytes = 0;
  try {
    const fd = openSync(tmp, "w");
    try {
      for (const chunk of chunks) {
        let off = 0;
        while (off < chunk.byteLength) off += writeSync(fd, chunk, off, chunk.byteLength - off);
        bytes += chunk.byteLength;
        onChunk?.(chunk);
      }
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, {force: true});
    throw e;
  }
  return bytes;
}
