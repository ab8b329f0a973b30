import type {PeerError} from "./types.ts";

/** What to import instead of a tool's CSV export. */
const CSV_INSTEAD =
  "GenAI-Perf: profile_export.json and profile_export_genai_perf.json; AIPerf: profile_export.jsonl and profile_export_aiperf.json";

/**
 * A CSV is no tool's full result: GenAI-Perf's and AIPerf's CSV exports hold rounded aggregates of their JSON
 * files. The error for a `.csv` file that is not JSON inside, else null.
 */
export function csvExportError(name: string, text: string): PeerError | null {
  if (!/\.csv$/i.test(name) || /^\s*[[{]/.test(text)) return null;
  return {
    file: name,
    path: "$",
    expected: `a JSON or YAML result file, got CSV: the CSV exports hold rounded aggregates of the JSON ones (${CSV_INSTEAD})`
  };
}
