import {readFileSync} from "node:fs";
import {join} from "node:path";

import {afterAll, beforeAll, describe, expect, it} from "vitest";

import {analyzeBundle} from "../../../src/analysis/index.ts";
import {fsBundle} from "../../../src/io/fsBundle.ts";
import {defaultCollectDeps} from "../../../collector/commands/collect.ts";
import {startFakeServer, type FakeServer} from "../../../collector/fake/index.ts";
import {collect} from "../../../collector/run/collect.ts";
import {gate, tempDir, testConfig, testEffects} from "../helpers.ts";

let server: FakeServer;
const t = tempDir();
beforeAll(async () => {
  server = await startFakeServer({port: 0});
});
afterAll(async () => {
  await server.close();
  t.cleanup();
});

describe("client self-monitoring (F25)", () => {
  it("a 200 ms event-loop block mid-run shows in client_metrics, fires G6, and only the schedule view shows the pause", async () => {
    let n = 0;
    const blocking = {
      ...defaultCollectDeps,
      stream: (req: Parameters<typeof defaultCollectDeps.stream>[0]) => {
        // well after the first telemetry window, which the collector discards as start-up
        if (req.agent && ++n === 30) {
          const until = process.hrtime.bigint() + 200_000_000n;
          while (process.hrtime.bigint() < until); // the injected stall
        }
        return defaultCollectDeps.stream(req);
      }
    };
    const config = testConfig(server.url, {
      load: {mode: "rate", values: [100], requests: 60, warmup: 0},
      slo: {percentile: "p50"}, // judged at the median: 5 samples suffice
      gates: {min_samples: 5, max_loop_delay_p99_ms: 5, max_dispatch_lag_p99_ms: 5} // the default G6 thresholds
    });
    const outcome = await collect({config, fx: testEffects(), ...blocking, outParent: t.dir});
    const report = await analyzeBundle(fsBundle(outcome.dir), {keepRows: true});
    expect(gate(report, "G6").status).toBe("warn");
    expect(gate(report, "G6").reason).toMatch(/dispatch lag|event-loop delay/);
    // the raw evidence: the stall detector kept the ~200 ms stall with its length (a window's delay
    // histogram can miss it: one late timer sample, and monitorEventLoopDelay's max was seen at ~1 ms)
    const loops = readFileSync(join(outcome.dir, "client_metrics.jsonl"), "utf8")
      .split("\n")
      .filter((l) => l.includes('"kind":"loop"'))
      .map((l) => JSON.parse(l) as {stalls?: [number, number][]});
    const stalls = loops.flatMap((l) => l.stalls ?? []);
    expect(Math.max(...stalls.map(([, ms]) => ms))).toBeGreaterThan(150);
    expect(gate(report, "G6").reason).toMatch(/late [\d.]+ % of the time/);
    expect(report.verdict).toBe("INCONCLUSIVE");
    const m = report.load_points[0]!.metrics as Record<string, {max: number}>;
    expect(m.dispatch_lag_ms!.max).toBeGreaterThan(150);
    // the requests that fell due during the block waited: counted from the schedule their TTFT includes
    // the wait; counted from dispatch it does not
    const waited = report.rows!.filter((r) => r.phase === "measure" && r.tDispMs! - r.tSchedMs! > 100);
    expect(waited.length).toBeGreaterThan(0);
    for (const r of waited) {
      const fromDispatch = r.tTok1Ms! - r.tDispMs!;
      expect(r.ttftMs!).toBeGreaterThan(fromDispatch + 100);
    }
  });
});
