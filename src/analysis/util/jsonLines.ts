/** One non-blank line of a JSON Lines text: its 1-based number and its value, or why it did not parse. */
export type JsonLine = {line: number; value: unknown; error: null} | {line: number; value: undefined; error: Error};

/**
 * Parses a JSON Lines text held whole in memory (peer result files, offline scoring inputs), one value per
 * line, numbered from 1 so that every reader reports `file:line`. Blank lines are skipped; a CR before the
 * LF is dropped; a line that does not parse carries the parser's error and the rest still parse. `parse`
 * is JSON.parse unless the reader needs more (exact big integers). A bundle's JSONL is streamed instead
 * (ingest/jsonl.ts with util/lines.ts LineSplitter): it may not fit in one string.
 */
export function jsonLines(text: string, parse: (line: string) => unknown = JSON.parse): JsonLine[] {
  const out: JsonLine[] = [];
  const raw = text.split("\n");
  for (let i = 0; i < raw.length; i++) {
    const line = raw[i]!.replace(/\r$/, "");
    if (line.trim() === "") continue;
    try {
      out.push({line: i + 1, value: parse(line), error: null});
    } catch (e) {
      out.push({line: i + 1, value: undefined, error: e as Error});
    }
  }
  return out;
}
