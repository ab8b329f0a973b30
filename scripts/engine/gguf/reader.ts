import {closeSync, openSync, readSync} from "node:fs";

import {GgufTruncatedError, readGguf} from "../../../collector/env/gguf/reader.ts";
import type {GgufFile, GgufTensorInfo} from "./types.ts";

/** The pure parser lives with the collector (it reads model headers at the fingerprint); the file reading stays here. */
export {readGguf, readGgufHeader} from "../../../collector/env/gguf/reader.ts";

/** Reads only as much of a GGUF file as its header needs (starting with 4 MiB, doubling). */
export function readGgufFile(path: string): GgufFile {
  const fd = openSync(path, "r");
  try {
    for (let size = 4 << 20; ; size *= 2) {
      const buf = Buffer.alloc(size);
      const n = readSync(fd, buf, 0, size, 0);
      try {
        return readGguf(buf.subarray(0, n));
      } catch (e) {
        if (!(e instanceof GgufTruncatedError) || n < size) throw e;
      }
    }
  } finally {
    closeSync(fd);
  }
}

/** Reads one tensor's raw bytes from a GGUF file. */
export function readTensorBytes(path: string, file: GgufFile, tensor: GgufTensorInfo, byteSize: number): Buffer {
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.alloc(byteSize);
    readSync(fd, buf, 0, byteSize, file.dataOffset + tensor.offset);
    return buf;
  } finally {
    closeSync(fd);
  }
}
