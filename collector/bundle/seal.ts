import {join} from "node:path";

import {FILE_NAMES, Manifest, ROLE_BY_NAME, type FileEntry, type FileRole} from "../../src/analysis/schema/index.ts";
import {sha256File} from "../../src/io/hash.ts";
import {realFiles, type Files} from "../effects.ts";

/** sha256, size and newline count of a file, streamed. */
export async function digestFile(path: string): Promise<{bytes: number; sha256: string; lines: number}> {
  let lines = 0;
  const d = await sha256File(path, (buf) => {
    for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) lines++;
  });
  return {...d, lines};
}

/**
 * Seals a bundle: digests every data file, validates the manifest and writes it last, atomically
 * (through the Files effect: temp file, fsync, rename, fsync of the folder).
 * `files` lists the data files (relative paths) with optional roles; JSONL record counts are line counts.
 */
export async function sealBundle(
  dir: string,
  manifest: Omit<Manifest, "files">,
  files: readonly (string | {path: string; role: FileRole})[],
  fs: Pick<Files, "writeAtomic"> = realFiles
): Promise<Manifest> {
  const entries: FileEntry[] = [];
  for (const f of files) {
    const path = typeof f === "string" ? f : f.path;
    const role = typeof f === "string" ? (ROLE_BY_NAME.get(path) ?? "attachment") : f.role;
    const d = await digestFile(join(dir, path));
    entries.push({path, role, bytes: d.bytes, sha256: d.sha256, records: path.endsWith(".jsonl") ? d.lines : null});
  }
  entries.sort((a, b) => a.path.localeCompare(b.path));
  const full = Manifest.parse({...manifest, files: entries});
  await fs.writeAtomic(join(dir, FILE_NAMES.manifest), `${JSON.stringify(full, null, 2)}\n`);
  return full;
}
