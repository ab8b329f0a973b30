import {SpecCounters} from "./specMetrics.ts";

/** Counters of the fake server, rendered as Prometheus text with vLLM metric names. */
export class FakeMetrics {
  running = 0;
  waiting = 0;
  promptTokens = 0;
  generationTokens = 0;
  requestsFinished = 0;
  readonly ttftBounds: readonly number[] = [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
  readonly ttftCounts: number[] = this.ttftBounds.map(() => 0);
  ttftSum = 0;
  ttftCount = 0;
  /** Speculative-decoding counters (fake/specMetrics.ts), under the emulated engine's names. */
  readonly spec = new SpecCounters();
  /**
   * Prefix-cache counters in prompt tokens: looked up, and served from the cache. Exported only once the
   * emulated cache is on (the server's options or a request's), so a server without one keeps its old /metrics.
   */
  prefixCacheOn = false;
  prefixCacheQueries = 0;
  prefixCacheHits = 0;

  /** vLLM's per-request phase histograms (queue, prefill, decode), observed when a request finishes. */
  readonly phaseBounds: readonly number[] = [0.01, 0.05, 0.1, 0.5, 1, 5];
  readonly phases = {
    queue: new PhaseHistogram(this.phaseBounds),
    prefill: new PhaseHistogram(this.phaseBounds),
    decode: new PhaseHistogram(this.phaseBounds)
  };

  observePhases(queueS: number, prefillS: number, decodeS: number): void {
    this.phases.queue.observe(queueS);
    this.phases.prefill.observe(prefillS);
    this.phases.decode.observe(decodeS);
  }

  /** One request's prefix-cache lookup: `queried` prompt tokens, `hits` of them served from the cache. */
  observePrefixCache(queried: number, hits: number): void {
    this.prefixCacheOn = true;
    this.prefixCacheQueries += queried;
    this.prefixCacheHits += hits;
  }

  observeTtft(seconds: number): void {
    this.ttftSum += seconds;
    this.ttftCount++;
    for (let i = 0; i < this.ttftBounds.length; i++) if (seconds <= this.ttftBounds[i]!) this.ttftCounts[i]!++;
  }

  render(model: string): string {
    const l = `model_name=${JSON.stringify(model)}`;
    const lines = [
      "# HELP vllm:num_requests_running Number of requests in model execution batches.",
      "# TYPE vllm:num_requests_running gauge",
      `vllm:num_requests_running{${l}} ${this.running}`,
      "# HELP vllm:num_requests_waiting Number of requests waiting to be processed.",
      "# TYPE vllm:num_requests_waiting gauge",
      `vllm:num_requests_waiting{${l}} ${this.waiting}`,
      "# HELP vllm:kv_cache_usage_perc KV-cache usage. 1 means 100 percent usage.",
      "# TYPE vllm:kv_cache_usage_perc gauge",
      `vllm:kv_cache_usage_perc{${l}} ${Math.min(1, this.running * 0.01)}`,
      "# HELP vllm:prompt_tokens_total Number of prefill tokens processed.",
      "# TYPE vllm:prompt_tokens_total counter",
      `vllm:prompt_tokens_total{${l}} ${this.promptTokens}`,
      "# HELP vllm:generation_tokens_total Number of generation tokens processed.",
      "# TYPE vllm:generation_tokens_total counter",
      `vllm:generation_tokens_total{${l}} ${this.generationTokens}`,
      "# HELP vllm:request_success_total Count of successfully processed requests.",
      "# TYPE vllm:request_success_total counter",
      `vllm:request_success_total{${l}} ${this.requestsFinished}`,
      "# HELP vllm:time_to_first_token_seconds Histogram of time to first token in seconds.",
      "# TYPE vllm:time_to_first_token_seconds histogram"
    ];
    this.ttftBounds.forEach((b, i) =>
      lines.push(`vllm:time_to_first_token_seconds_bucket{le="${b}",${l}} ${this.ttftCounts[i]}`)
    );
    lines.push(`vllm:time_to_first_token_seconds_bucket{le="+Inf",${l}} ${this.ttftCount}`);
    lines.push(`vllm:time_to_first_token_seconds_sum{${l}} ${this.ttftSum}`);
    lines.push(`vllm:time_to_first_token_seconds_count{${l}} ${this.ttftCount}`);
    for (const [phase, h] of Object.entries(this.phases)) h.render(`vllm:request_${phase}_time_seconds`, l, lines);
    const prefix = this.prefixCacheOn ? this.prefixCacheLines(l) : [];
    return lines.concat(prefix, this.spec.render(l)).join("\n") + "\n";
  }

  /**
   * vLLM v1's prefix-cache counters, in tokens: vllm-project/vllm vllm/v1/metrics/loggers.py (PrometheusStatLogger,
   * commit 005a810) declares Counter `vllm:prefix_cache_queries` ("Prefix cache queries, in terms of number of
   * queried tokens.") and `vllm:prefix_cache_hits` ("Prefix cache hits, in terms of number of cached tokens."),
   * which prometheus_client exposes with the `_total` suffix of a counter.
   */
  private prefixCacheLines(l: string): string[] {
    return [
      "# HELP vllm:prefix_cache_queries_total Prefix cache queries, in terms of number of queried tokens.",
      "# TYPE vllm:prefix_cache_queries_total counter",
      `vllm:prefix_cache_queries_total{${l}} ${this.prefixCacheQueries}`,
      "# HELP vllm:prefix_cache_hits_total Prefix cache hits, in terms of number of cached tokens.",
      "# TYPE vllm:prefix_cache_hits_total counter",
      `vllm:prefix_cache_hits_total{${l}} ${this.prefixCacheHits}`
    ];
  }
}

/** One Prometheus histogram (cumulative buckets, _sum, _count). */
class PhaseHistogram {
  readonly bounds: readonly number[];
  readonly counts: number[];
  sum = 0;
  count = 0;

  constructor(bounds: readonly number[]) {
    this.bounds = bounds;
    this.counts = bounds.map(() => 0);
  }

  observe(seconds: number): void {
    this.sum += seconds;
    this.count++;
    for (let i = 0; i < this.bounds.length; i++) if (seconds <= this.bounds[i]!) this.counts[i]!++;
  }

  render(name: string, labels: string, lines: string[]): void {
    lines.push(`# TYPE ${name} histogram`);
    this.bounds.forEach((b, i) => lines.push(`${name}_bucket{le="${b}",${labels}} ${this.counts[i]}`));
    lines.push(`${name}_bucket{le="+Inf",${labels}} ${this.count}`);
    lines.push(`${name}_sum{${labels}} ${this.sum}`);
    lines.push(`${name}_count{${labels}} ${this.count}`);
  }
}
