/**
 * Versions of the contracts. Bump deliberately:
 * - SCHEMA_VERSION: the bundle file layout and record shapes (a new folder in evidence/schema/).
 * - MEASURE_VERSION: what the collector's timestamps mean (where a time is taken, what counts as an event).
 *   Numbers measured under different measure versions are never put side by side.
 * - ANALYZER_VERSION: the meaning of a derived metric or gate (a change is a re-analysis, never a re-run).
 * - QUALITY_VERSION: the meaning of a quality scorer's verdicts.
 * - REPORT_VERSION: the shape of the Report and of `analyze --json` (docs/report-schema.md says when to bump).
 */
export const SCHEMA_VERSION = 2 as const;
/**
 * 2: connect and TLS recorded apart; connections reused by default; tCallNs marks the client's own start; a
 * chunk's arrival is read when the socket delivers it, before node's HTTP parser.
 */
export const MEASURE_VERSION = "2";
/** Every measure version this analyzer reads (an import's is `import-<tool>`); another one is not compared as if known. */
export const KNOWN_MEASURE_VERSIONS: readonly string[] = ["1", MEASURE_VERSION];
/**
 * 2: the counted-token end of a request, empty-text tokens, hung streams, prefill span, dispatch lag from tCall, … (docs/methodology).
 * 3: the prefix-cache ceiling in G13, reasoning-model metrics and G31, trace and sessions in G5/G21 (issue 16).
 * 4: a hung stream holds its slot in flight until it closed (G5, achieved concurrency); the answer's decode span
 *    starts at its first token, a held-back one included; G8 does not count a jump of the running count after the last text as streamed;
 *    G1 checks the manifest's record counts.
 * 5: energy over each repeat's window (not the span across repeats), negative power unknown; the roofline reads the
 *    active parameters' share whenever stated; mixed serving cards get no bound or price; unknown hardware ids warn.
 * 6: G3 judges an import without per-request results (or with a sample of them) by the source tool's own counts.
 * 7: G9, G16 and G19 are not evaluable without a successful request to inspect (they passed on none); SGLang's
 *    re-tokenized count is read under bench_serving's key.
 * 8: G1 fails on a file the analysis reads that the manifest does not list, on bytes that are not UTF-8, on a
 *    record nested too deep to read, on a bad final line ending in a newline and on a torn tail under "complete",
 *    and warns on an unknown measure version; a finish chunk alone is a one-token answer only when the server
 *    counted one token; G29 is not evaluable without a recorded terminal marker.
 * 9: G30 fails the load point that holds a request id another record carries (only the bundle failed, its points
 *    stayed VALID); G1 fails an error text over 4 KiB of UTF-8 and an HTTP status that is not three digits.
 */
export const ANALYZER_VERSION = "9";
/** 2: GSM8K strict and flexible are lm-evaluation-harness's strict-match and flexible-extract; the old reading is gsm8k_lenient. */
export const QUALITY_VERSION = "2";
/** 1: the first published schema of the Report and of `analyze --json` (evidence/schema/{report,analyze}.v1.schema.json). */
export const REPORT_VERSION = 1 as const;
