import {createHash, type Hash} from "node:crypto";
import {createReadStream} from "node:fs";

/**
 * The one sha256 of the code base (bundle manifests, signatures, prompt digests, redaction marks, imports,
 * scripts and tests). A leaf: node:crypto and node:fs only, so the collector's floors may import it too
 * (eslint.config.js names this file in the collector's allow-list); src/analysis stays free of crypto.
 */

/** sha256 of bytes, or of a string's UTF-8 bytes, as lowercase hex. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** An incremental sha256 for a caller that streams the bytes itself (hashing while decoding or writing). */
export function sha256Hasher(): Hash {
  return createHash("sha256");
}

/** sha256 and size of a file, streamed (bounded memory); `onChunk` sees every chunk, in order. */
export async function sha256File(
  path: string,
  onChunk?: (chunk: Buffer) => void
): Promise<{bytes: number; sha256: string}> {
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const buf of createReadStream(path) as AsyncIterable<Buffer>) {
    hash.update(buf);
    bytes += buf.length;
    onChunk?.(buf);
  }
  return {bytes, sha256: hash.digest("hex")};
}
