import type {DerivedRequest} from "../derive/request.ts";
import type {MetricId} from "../schema/ids.ts";
import type {QuantileMethod} from "../stats/quantile.ts";

export interface Bilingual {
  en: string;
  zh: string;
}

interface MetricBase {
  /** Stable snake_case id with the unit last; appears in URLs, JSON output and goldens. */
  id: MetricId;
  label: Bilingual;
  unit: string;
  direction: "lower" | "higher" | "none";
  definition: Bilingual;
  /** The formula in one line, shown on the methodology page. */
  formula: string;
  /** Which requests or samples it is computed over. */
  population: string;
  /** Headline metrics appear in index tables and summaries. */
  headline?: boolean;
  /**
   * The metric needs a stream (events, output tokens): a load point of non-streamed requests (embeddings)
   * shows it as not applicable, with the reason (report/point.ts).
   */
  streamsOnly?: true;
  /** Grouping on pages. */
  family: "latency" | "speed" | "throughput" | "quality_of_service" | "load" | "diagnostic";
}

/** One value per successful measured request, summarized as a distribution. */
export interface RequestMetric extends MetricBase {
  kind: "request";
  weighting: "request";
  method: QuantileMethod;
  /** Computed over every measured request (failures too), not only successes. */
  allMeasured?: boolean;
  value: (r: DerivedRequest) => number | null;
}

/** Many samples per request (chunk or token gaps), pooled across requests. */
export interface SampleMetric extends MetricBase {
  kind: "sample";
  weighting: "chunk" | "token";
  method: QuantileMethod;
  samples: (r: DerivedRequest, emit: (value: number) => void) => void;
}

/** One value per load point (and per repeat), from counts and the measurement window. */
export interface RunMetric extends MetricBase {
  kind: "run";
  weighting: "run";
  value: (p: PointTotals) => RunValue;
}

export type MetricDef = RequestMetric | SampleMetric | RunMetric;

export interface RunValue {
  value: number | null;
  /** Why value is null (unknown is not zero). */
  reason?: string;
  /** What a reader must know about a non-null value (a bound, a caveat). */
  note?: string;
}

/** Counts and sums over the measured requests of one load point repeat (or pooled over repeats). */
export interface PointTotals {
  mode: string;
  target: number;
  measured: number;
  /** Measured requests that were not streamed (embeddings). */
  nonStreamed: number;
  successes: number;
  good: number;
  /** Successful requests whose SLO clauses could not all be evaluated (e.g. no token count). */
  unjudged: number;
  shortOutputs: number;
  outputTokens: number;
  inputTokens: number;
  successesMissingOut: number;
  successesMissingIn: number;
  tokenEvents: number;
  multiTokenEvents: number;
  /** Successful requests whose records hold only the first and last token events (imports): not in tokenEvents. */
  chunksUnknown: number;
  /** Length of the measurement window in seconds (null when unknown). */
  windowS: number | null;
  windowReason?: string;
  /** Time-weighted mean of requests in flight across the window. */
  meanInFlight: number | null;
  /** Achieved dispatch rate over the dispatch span, req/s. */
  dispatchRate: number | null;
}
