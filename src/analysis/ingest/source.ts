/**
 * How the pure analyzer reads a bundle: the edge (site loader, CLI) opens files and computes digests;
 * the analyzer only sees text chunks and the observed digest. Nothing here touches a file system.
 */
export interface FileStream {
  /** The file's text, in chunks of any size (decoded as UTF-8 by the edge). */
  chunks: AsyncIterable<string> | Iterable<string>;
  /** Observed byte size and sha256, valid once `chunks` has been fully consumed. */
  digest(): {bytes: number; sha256: string};
  /**
   * The first bytes that are not UTF-8 (the edge decoded them as U+FFFD), valid once `chunks` has been consumed:
   * the 1-based line, the byte offset in the file and the byte's value; null when the file is valid UTF-8. An edge
   * that cannot tell (in-memory text) leaves it out.
   */
  encodingError?(): {line: number; offset: number; byte: number} | null;
}

export interface BundleSource {
  /** Folder name of the bundle. */
  id: string;
  /** Relative paths of every file present in the bundle folder. */
  files: readonly string[];
  /** Entries that are not regular files (symlinks, devices…), never read, with why. */
  skipped?: readonly {path: string; reason: string}[];
  /** Sub-folders of the bundle folder (relative paths), where the edge knows them. */
  folders?: readonly string[];
  open(path: string): FileStream | null;
}

/** A source over in-memory files (tests, imports before writing): digests supplied by the caller. */
export function memorySource(
  id: string,
  files: Record<string, string>,
  digest: (text: string) => {bytes: number; sha256: string}
): BundleSource {
  return {
    id,
    files: Object.keys(files).sort(),
    open: (path) => {
      const text = files[path];
      return text === undefined ? null : {chunks: [text], digest: () => digest(text)};
    }
  };
}
