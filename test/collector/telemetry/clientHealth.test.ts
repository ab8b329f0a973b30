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
        if (req.agent && ++n === 10) {
          const until = process.hrtime.bigint() + 200_000_000n;
          while (process.hrtime.bigint() < until); // the injected stall
        }
        return defaultCollectDeps.stream(req);
      }
    };
    const config = testConfig(server.url, {
      load: {mode: "rate", values: [100], requests: 40, warmup: 0},
      gates: {min_samples: 5, max_loop_delay_p99_ms: 5, max_dispatch_lag_p99_ms: 5} // the default G6 thresholds
    });
    const outcome = await collect({config, fx: testEffects(), ...blocking, outParent: t.dir});
    const report = await analyzeBundle(fsBundle(outcome.dir));
    expect(gate(report, "G6").status).toBe("warn");
    expect(gate(report, "G6").reason).toMatch(/dispatch lag|event-loop delay/);
    // the raw evidence: one client_metrics window saw the ~200 ms stall
    const loops = readFileSync(join(outcome.dir, "client_metrics.jsonl"), "utf8")
      .split("\n")
      .filter((l) => l.includes('"kind":"loop"'))
      .map((l) => JSON.parse(l) as {loopDelayMaxMs: number | null; stalls?: [number, number][]});
    expect(Math.max(...loops.map((l) => l.loopDelayMaxMs ?? 0))).toBeGreaterThan(150);
    // …and the stall detector kept that stall with its length
    const stalls = loops.flatMap((l) => l.stalls ?? []);
    expect(Math.max(...stalls.map(([, ms]) => ms))).toBeGreaterThan(150);
    expect(gate(report, "G6").reason).toMatch(/late [\d.]+ % of the time/);
    expect(report.verdict).toBe("INCONCLUSIVE");
    const m = report.load_points[0]!.metrics as Record<string, {max: number}>;
    expect(m.ttft_ms!.max).toBeGreaterThan(150); // counted from the schedule: the requests due during the block waited
    expect(m.ttft_dispatch_ms!.max).toBeLessThan(m.ttft_ms!.max - 100);
    expect(m.dispatch_lag_ms!.max).toBeGreaterThan(150);
  });
});
