import type {LoadMode} from "../../schema/config.ts";
import type {LoadPoint} from "../../schema/manifest.ts";
import type {EventKind, RequestRecord, SseEvent, SourceRecord, SourceRequestCounts} from "../../schema/records.ts";
import {redactText, redactValue} from "../../redact/value.ts";
import {boundText} from "../../util/utf8.ts";

/** Seconds (float) to integer ns. */
export const sToNs = (s: number): number => Math.round(s * 1e9);
/** Milliseconds (float) to integer ns. */
export const msToNs = (ms: number): number => Math.round(ms * 1e6);

/** A token-bearing event: bytes and per-event token counts are not recorded by any peer format. */
export const tokenEvent = (tNs: number, kind: EventKind = "content"): SseEvent => [tNs, 0, kind, null];

/** Events at a first-token time followed by chunk gaps (all ns), as vLLM/SGLang/AIPerf record them. */
export function chunkEvents(firstNs: number, gapsNs: readonly number[], kindOf?: (i: number) => EventKind): SseEvent[] {
  const out: SseEvent[] = [tokenEvent(firstNs, kindOf?.(0))];
  let t = firstNs;
  gapsNs.forEach((g, i) => {
    t += g;
    out.push(tokenEvent(t, kindOf?.(i + 1)));
  });
  return out;
}

export type RequestDraft = Partial<Omit<RequestRecord, "id" | "point" | "index">> &
  Pick<RequestRecord, "id" | "point" | "index">;

/**
 * A request record with every unknown field null (never 0) and seq assigned later by `numberRecords`. The
 * error text is the tool's and may quote a credential (a URL with its token, an echoed API key header): it is
 * redacted here, for every importer.
 */
export function requestRecord(d: RequestDraft): RequestRecord {
  const r: RequestRecord = {
    seq: 0,
    repeat: 0,
    phase: "measure",
    timeBase: "request",
    tSchedNs: null,
    tDispNs: null,
    tHdrNs: null,
    tByte1Ns: null,
    tEndNs: null,
    events: [],
    httpStatus: null,
    finishReason: null,
    usage: null,
    usageSource: "none",
    serverTimings: null,
    transportError: null,
    errorMessage: null,
    promptDigest: null,
    responseDigest: null,
    promptTokensIntended: null,
    maxTokens: null,
    salt: null,
    ...d
  };
  if (r.errorMessage !== null) r.errorMessage = boundText(redactText(r.errorMessage));
  return r;
}

/** Assigns seq 0, 1, 2… in order. */
export function numberRecords<T extends {seq: number}>(records: T[]): T[] {
  records.forEach((r, i) => (r.seq = i));
  return records;
}

const trimNumber = (v: number): string => String(Number(v.toPrecision(12)));

/** A load point; its id is `${mode}-${value}` as everywhere else. */
export function loadPoint(
  mode: LoadMode,
  value: number,
  o: Partial<Omit<LoadPoint, "id" | "mode" | "value">> = {}
): LoadPoint {
  return {
    id: `${mode}-${trimNumber(value)}`,
    mode,
    value,
    repeats: 1,
    requests: null,
    durationS: null,
    warmup: 0,
    maxConcurrency: null,
    burstiness: null,
    ...o
  };
}

/**
 * A closed-loop point whose target the source does not record. Its value 1 is a placeholder the schema
 * requires; the id ends in `-unknown`, which the achieved-load gate reads as "target not recorded".
 */
export function unknownPoint(o: Partial<Omit<LoadPoint, "id" | "mode" | "value">> = {}): LoadPoint {
  return {...loadPoint("concurrency", 1, o), id: "concurrency-unknown"};
}

/**
 * A source record: the tool's aggregates verbatim except for credentials, which every importer's source
 * record loses here (an API key in a recorded config, `--api-key` in a recorded command line, a token in a
 * URL: redact/value.ts). Numbers are never touched, so recomputation reads the same aggregates.
 */
export function sourceRecord(d: Omit<SourceRecord, "seq">): SourceRecord {
  return {
    seq: 0,
    ...d,
    toolVersion: d.toolVersion === null ? null : redactText(d.toolVersion),
    aggregates: redactValue(d.aggregates),
    facts: redactValue(d.facts)
  };
}

const countOf = (v: unknown): number | null => (typeof v === "number" && Number.isInteger(v) && v >= 0 ? v : null);

/**
 * A source record's facts.requestCounts from the tool's own counts (completed, failed, incomplete: 0 where the
 * tool waits for every request); a value that is not a count is unknown (null), never 0.
 */
export function requestCounts(completed: unknown, failed: unknown, incomplete: unknown): SourceRequestCounts {
  return {completed: countOf(completed), failed: countOf(failed), incomplete: countOf(incomplete)};
}

/** Epoch seconds (float) to ISO 8601 UTC, or null. Pure: no Date of now, only a conversion. */
export function isoFromEpochS(s: number | null | undefined): string | null {
  if (s == null || !Number.isFinite(s)) return null;
  return isoFromEpochMs(s * 1000);
}

/** Epoch ms to ISO 8601 UTC (proleptic Gregorian), computed without Date. */
export function isoFromEpochMs(msIn: number): string {
  const ms = Math.round(msIn);
  const days = Math.floor(ms / 86_400_000);
  let rem = ms - days * 86_400_000;
  const hh = Math.floor(rem / 3_600_000);
  rem -= hh * 3_600_000;
  const mm = Math.floor(rem / 60_000);
  rem -= mm * 60_000;
  const ss = Math.floor(rem / 1000);
  const mss = rem - ss * 1000;
  // civil-from-days (H. Hinnant)
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  const p = (n: number, w = 2) => String(n).padStart(w, "0");
  return `${p(y, 4)}-${p(m)}-${p(d)}T${p(hh)}:${p(mm)}:${p(ss)}.${p(mss, 3)}Z`;
}

/**
 * A timestamp written without a zone (`2025-10-03T13:13:39.146443`, vLLM's `20240907-082900`) as ISO
 * with a `Z` offset; the caller notes that the zone was not recorded. Null when it does not parse.
 */
export function isoFromLocal(text: string | null | undefined): string | null {
  if (!text) return null;
  const compact = /^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})$/.exec(text);
  if (compact) return `${compact[1]}-${compact[2]}-${compact[3]}T${compact[4]}:${compact[5]}:${compact[6]}.000Z`;
  const iso = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/.exec(text);
  if (!iso) return null;
  const frac = (iso[3] ?? ".000").slice(0, 4).padEnd(4, "0");
  const zone = iso[4] ? (iso[4] === "Z" ? "Z" : iso[4].replace(/^([+-]\d{2})(\d{2})$/, "$1:$2")) : "Z";
  return `${iso[1]}T${iso[2]}${frac}${zone}`;
}
