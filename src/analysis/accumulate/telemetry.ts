import type {ClientRecord, GpuSample, ServerScrape} from "../schema/records.ts";
import {phaseScrape, type PhaseScrape} from "../telemetry/serverTime.ts";

export interface ClientFacts {
  samples: number;
  /** Every loop sample: end of its window and length (ns), delay p99 (ms). Gates look at the windows of each point. */
  loop: {
    tNs: number;
    windowNs: number;
    /** The part of the window the loop monitors ran (the whole window before issue 17). */
    monitoredNs: number;
    p99Ms: number | null;
    stalls: [number, number][] | null;
  }[];
  loopDelayP99MaxMs: number | null;
  loopDelayMaxMs: number | null;
  eluMax: number | null;
  eluMean: number | null;
  /** Lifecycle notes; `shard` names the shard of a merged bundle's note (null otherwise). */
  notes: {
    event: string;
    tNs: number;
    point: string | null;
    repeat: number | null;
    shard: number | null;
    detail: Record<string, unknown>;
  }[];
}

export interface TelemetryFacts {
  scrapes: number;
  failed: number;
  firstError: string | null;
  /** Why the telemetry source does not exist on the host (e.g. "nvidia-smi not found"), or null. */
  unavailable: string | null;
}

/** The client's own health log (event-loop delay, ELU, notes), folded into ClientFacts. */
export class ClientAccumulator {
  readonly facts: ClientFacts = {
    samples: 0,
    loop: [],
    loopDelayP99MaxMs: null,
    loopDelayMaxMs: null,
    eluMax: null,
    eluMean: null,
    notes: []
  };
  #eluSum = 0;
  #eluN = 0;

  add(r: ClientRecord): void {
    const c = this.facts;
    if (r.kind === "note") {
      c.notes.push({
        event: r.event,
        tNs: r.tNs,
        point: r.point,
        repeat: r.repeat,
        shard: r.shard ?? null,
        detail: r.detail
      });
      return;
    }
    c.samples++;
    c.loop.push({
      tNs: r.tNs,
      windowNs: r.windowNs,
      monitoredNs: r.monitoredNs ?? r.windowNs,
      p99Ms: r.loopDelayP99Ms,
      stalls: r.stalls ?? null
    });
    if (r.loopDelayP99Ms !== null) c.loopDelayP99MaxMs = Math.max(c.loopDelayP99MaxMs ?? 0, r.loopDelayP99Ms);
    if (r.loopDelayMaxMs !== null) c.loopDelayMaxMs = Math.max(c.loopDelayMaxMs ?? 0, r.loopDelayMaxMs);
    if (r.elu !== null) {
      c.eluMax = Math.max(c.eluMax ?? 0, r.elu);
      this.#eluSum += r.elu;
      this.#eluN++;
    }
  }

  finish(): ClientFacts {
    this.facts.eluMean = this.#eluN ? this.#eluSum / this.#eluN : null;
    return this.facts;
  }
}

/** Server or GPU scrapes: how many, how many failed and the first error; the series kept only when asked. */
export class TelemetryAccumulator<T extends ServerScrape | GpuSample> {
  readonly facts: TelemetryFacts = {scrapes: 0, failed: 0, firstError: null, unavailable: null};
  readonly series: T[] = [];
  /** Server scrapes: the queue/prefill/decode and waiting series, always kept (a few numbers a scrape). */
  readonly phases: PhaseScrape[] = [];
  readonly #gpu: boolean;
  readonly #keep: boolean;

  constructor(kind: "server" | "gpu", keepSeries: boolean) {
    this.#gpu = kind === "gpu";
    this.#keep = keepSeries;
  }

  add(r: T): void {
    const t = this.facts;
    if (this.#keep) this.series.push(r);
    // the GPU tool absent (nvidia-smi not installed): recorded once as unavailable, telemetry not captured;
    // a scrape that failed (an HTTP 404 "Not Found" included) is a gap and counts
    if (
      this.#gpu &&
      !r.ok &&
      r.error !== null &&
      /^(nvidia-smi|amd-smi|rocm-smi) not found$|\bENOENT\b/.test(r.error)
    ) {
      t.unavailable = r.error;
      return;
    }
    t.scrapes++;
    if (!this.#gpu) {
      const p = phaseScrape(r as ServerScrape);
      if (p !== null) this.phases.push(p);
    }
    if (!r.ok) {
      t.failed++;
      t.firstError ??= r.error;
    }
  }
}
