import {z} from "zod";

import {expecting, issueLines, jsonlValues, strictKeys, throwIssues, tokenCount} from "./dataset.ts";

/**
 * Mooncake-style request traces (issue 16), parsed without I/O. The format is the one kvcache-ai/Mooncake
 * publishes (FAST25-release/README.md; FAST25-release/traces/conversation_trace.jsonl and synthetic_trace.jsonl):
 * one JSON object per line with exactly four keys,
 *   {"timestamp": 27482, "input_length": 6955, "output_length": 52, "hash_ids": [46, 47, …, 2353, 2354]}
 * timestamp: the arrival in ms since the trace's first request (lines share a timestamp when requests arrive
 * together); input_length, output_length: tokens; hash_ids: one remapped id per 512-token block of the prompt, so
 * requests that share leading ids share that prefix. The released files carry no other key, so any other key
 * (e.g. the session_id or delay of later derived formats) is an error here, not silently ignored. That
 * ceil(input_length / block) equals hash_ids.length is not checked: the block size is the run config's
 * (workload.source.block_tokens).
 */

export interface TraceLine {
  /** 1-based line in the file */
  line: number;
  /** arrival, ms since the trace start */
  timestampMs: number;
  /** prompt tokens */
  inputLength: number;
  /** output tokens the request produced */
  outputLength: number;
  /** one id per prompt block (Mooncake: 512 tokens), in prompt order */
  hashIds: number[];
}

const TRACE_KEYS = ["timestamp", "input_length", "output_length", "hash_ids"] as const;

const nonNegInt = expecting("a non-negative integer");

const TraceRecord = z.strictObject(
  {
    timestamp: z.number(expecting("a non-negative number (ms)")).nonnegative(expecting("a non-negative number (ms)")),
    input_length: tokenCount(),
    output_length: tokenCount(),
    hash_ids: z.array(z.number(nonNegInt).int(nonNegInt).nonnegative(nonNegInt), expecting("an array of block ids"))
  },
  strictKeys(TRACE_KEYS)
);

/**
 * The lines of a Mooncake-style trace, in file order. Timestamps must not decrease (a line earlier than the one
 * before is an error naming both lines). Throws every problem at once (`file:line: …`); an empty trace is an
 * error too.
 */
export function parseTrace(text: string, file: string): TraceLine[] {
  const issues: string[] = [];
  const out: TraceLine[] = [];
  for (const {line, value} of jsonlValues(text, file, issues)) {
    const r = TraceRecord.safeParse(value);
    if (!r.success) {
      for (const s of issueLines(file, line, r.error)) issues.push(s);
      continue;
    }
    const prev = out.at(-1);
    const t = r.data.timestamp;
    if (prev !== undefined && t < prev.timestampMs)
      issues.push(
        `${file}:${line}: timestamp ${t} is earlier than ${prev.timestampMs} on line ${prev.line} (timestamps must not decrease)`
      );
    out.push({
      line,
      timestampMs: t,
      inputLength: r.data.input_length,
      outputLength: r.data.output_length,
      hashIds: r.data.hash_ids
    });
  }
  throwIssues(issues);
  if (out.length === 0) throw new Error(`${file}:1: empty trace: no lines`);
  return out;
}
