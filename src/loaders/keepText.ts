import type {BundleSource} from "../analysis/index.ts";

/**
 * Wraps a bundle source so that the text of `paths` is kept as the analyzer reads it: the loader then
 * parses exactly the bytes that were analysed and digested, without opening the files a second time.
 * `text(path)` is undefined for a file the analyzer did not read to the end (absent, or too large).
 */
export function keepText(
  source: BundleSource,
  paths: readonly string[]
): {source: BundleSource; text: (path: string) => string | undefined} {
  const kept = new Map<string, string>();
  const wrapped: BundleSource = {
    ...source,
    open(path) {
      const stream = source.open(path);
      if (stream === null || !paths.includes(path)) return stream;
      async function* chunks() {
        let text = "";
        for await (const chunk of stream!.chunks) {
          text += chunk;
          yield chunk;
        }
        kept.set(path, text);
      }
      return {chunks: chunks(), digest: () => stream.digest()};
    }
  };
  return {source: wrapped, text: (path) => kept.get(path)};
}
