import type {Manifest} from "../../src/analysis/schema/index.ts";
import {isoOf} from "../bundle/manifest.ts";
import type {ServerProbe} from "../env/probe.ts";
import {openSockets} from "../request/pool.ts";
import {joinUrl, serverRoot} from "../request/url.ts";
import {createClientMonitor} from "../telemetry/client.ts";
import {sampleGpus} from "../telemetry/gpu.ts";
import {scrapeOnce} from "../telemetry/prometheus.ts";
import {startSampler, type Sampler} from "../telemetry/sampler.ts";
import type {BundleWriter} from "../writer/bundleWriter.ts";
import type {RunContext} from "./context.ts";

const ANCHOR_EVERY_MS = 10_000;

/**
 * Starts the run's samplers: client health, clock anchors every 10 s, server /metrics (when on, or auto
 * and the probe could read it) and GPU telemetry. `final` takes the last client sample; `lastScrape` one more
 * /metrics scrape once the load has ended, so the last load point's counter deltas have an end reading
 * (speculative-decoding counters, histogram deltas) instead of waiting for the next interval.
 */
export function startTelemetry(
  c: RunContext,
  writer: BundleWriter,
  probe: ServerProbe,
  anchors: Manifest["clockAnchors"]
) {
  const {config, fx} = c;
  const list: Sampler[] = [];
  const interval = config.telemetry.interval_ms;
  const sockets = () => openSockets(c.pool.agent);
  const monitor = createClientMonitor({inFlight: () => c.control.inFlight, openSockets: sockets}, c.rel(), c.origin);
  c.control.onBusy(monitor);
  let first = true;
  list.push(
    startSampler({
      intervalMs: interval,
      clock: fx.clock,
      tick: () => {
        if (first) {
          first = false; // the first window would only cover start-up
          monitor.sample(c.rel());
          return;
        }
        writer.client.append(monitor.sample(c.rel()));
      }
    })
  );
  list.push(
    startSampler({
      intervalMs: ANCHOR_EVERY_MS,
      clock: fx.clock,
      tick: () => {
        const a = {wall: isoOf(fx.clock.wallMs()), tNs: c.rel()};
        if (a.tNs > 0) {
          anchors.push(a);
          writer.note(a.tNs, "clock_anchor", {wall: a.wall});
        }
      }
    })
  );
  const server = serverSamplers(c, writer, probe);
  for (const s of server.list) list.push(s);
  return {
    list,
    lastScrape: server.lastScrape,
    final: () => {
      writer.client.append(monitor.sample(c.rel()));
      monitor.close();
    }
  };
}

/** The samplers of the server's /metrics and of the GPUs, as configured, and a one-off last scrape. */
function serverSamplers(
  c: RunContext,
  writer: BundleWriter,
  probe: ServerProbe
): {list: Sampler[]; lastScrape: () => Promise<void>} {
  const {config, fx} = c;
  const list: Sampler[] = [];
  let lastScrape = async (): Promise<void> => undefined;
  const interval = config.telemetry.interval_ms;
  const metrics = config.telemetry.server_metrics;
  if (metrics === "on" || (metrics === "auto" && probe.metricsOk)) {
    const url = config.target.metrics_url ?? joinUrl(serverRoot(config.target.base_url), "/metrics");
    const scrape = async (): Promise<void> => {
      writer.server.append(await scrapeOnce(fx, url, c.origin, Math.max(interval * 4, 2000), c.redact));
    };
    lastScrape = scrape;
    list.push(startSampler({intervalMs: interval, clock: fx.clock, tick: scrape}));
  }
  if (config.telemetry.gpu !== "off") {
    let gone = false;
    list.push(
      startSampler({
        intervalMs: interval,
        clock: fx.clock,
        tick: async () => {
          if (gone) return;
          const tNs = c.rel();
          const g = await sampleGpus(fx.exec, Math.max(interval * 4, 2000));
          writer.gpu.append({tNs, ok: g.ok, error: g.error, gpus: g.gpus});
          if (g.notFound) gone = true; // recorded once as unavailable, never as zeros
        }
      })
    );
  }
  return {list, lastScrape};
}
