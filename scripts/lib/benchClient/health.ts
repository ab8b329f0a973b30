import {createAgent} from "../../../collector/http/index.ts";
import type {Bench} from "./bench.ts";
import {f, pct, QUICK, table, type Row} from "./common.ts";
import {eventCount, streams, timingErrors, warm} from "./drivers.ts";

export interface HealthResult {
  misses: number;
  badRuns: number;
  gateFirst: boolean;
  gateAt: string;
  errAt: string;
}

/** (e) Client health: gate G6 versus the timing error, as load rises, judged run by run. */
/** The columns of table (e). */
const HEALTH_COLUMNS = [
  "streams",
  "run",
  "events/s",
  "G6 loop delay p99 (ms)",
  "loop delay max (ms)",
  "per-event error p99 (ms)",
  "ELU",
  "longest GC pause (ms)",
  "time > 5 ms behind (%)",
  "p99 rule",
  "stall > 1 %",
  "G6",
  "timing error",
  ""
];

export async function clientHealth({url, server, say}: Bench): Promise<HealthResult> {
  // (e) client health: gate G6 (worst-window loop-delay p99 > 5 ms) versus the timing error, as load rises.
  // Judged run by run: a run whose per-event error p99 exceeds 5 ms while the gate passes is a miss.
  const rowsE: Row[] = [];
  let misses = 0;
  let conservative = 0;
  let badRuns = 0;
  let altMisses = 0;
  let altConservative = 0;
  const repsE = QUICK ? 1 : 2;
  const levelsE = QUICK ? [50, 100, 200, 400] : [25, 50, 100, 150, 200, 300, 400, 800];
  const firstGate: number[] = [];
  const firstBad: number[] = [];
  for (const n of levelsE) {
    for (let k = 0; k < repsE; k++) {
      const a = createAgent(url, {maxSockets: n + 64});
      await warm(url, a, n);
      const p = await streams(url, a, {
        concurrency: n,
        perStream: 1,
        maxTokens: 100,
        options: {ttftMs: 10, tokenIntervalMs: 5},
        staggerMs: 5
      });
      a.destroy();
      const e = await timingErrors(server, p);
      const err99 = pct(e.perEvent, 0.99);
      // G6 warns when either rule fires: the worst window's loop-delay p99 > 5 ms, or the loop ran
      // more than 5 ms late for more than 1 % of the time (src/analysis/gates/client.ts)
      const p99Rule = p.gateMs > 5;
      const alt = p.stallPct > 1;
      const gate = p99Rule || alt;
      const bad = err99 !== null && err99 > 5;
      if (bad) badRuns++;
      if (bad && !gate) misses++;
      if (gate && !bad) conservative++;
      if (bad && !p99Rule) altMisses++;
      if (p99Rule && !bad) altConservative++;
      if (gate) firstGate[k] ??= n;
      if (bad) firstBad[k] ??= n;
      rowsE.push({
        cells: [
          String(n),
          String(k + 1),
          Math.round(eventCount(p) / p.wallS).toLocaleString("en-US"),
          f(p.gateMs),
          f(p.loopMaxMs, 1),
          f(err99, 3),
          f(p.elu),
          f(p.gcMaxMs, 1),
          f(p.stallPct, 2),
          p99Rule ? "warn" : "pass",
          alt ? "warn" : "pass",
          gate ? "warn" : "pass",
          bad ? "> 5 ms" : "≤ 5 ms",
          bad && !gate ? "**G6 missed**" : ""
        ]
      });
    }
  }
  const gateFirst = misses === 0;
  say(
    "\n### (e) Client health: gate G6 (loop-delay p99 > 5 ms in the worst 500 ms window, or the loop > 5 ms late for more than 1 % of the time) versus timing error (5 ms per token, 100 tokens)\n"
  );
  say(table(HEALTH_COLUMNS, rowsE));
  const firsts = (xs: number[]): string => (xs.length === 0 ? "—" : xs.map((x) => x ?? "—").join(" / "));
  say(
    `\nRuns with timing error p99 > 5 ms: ${badRuns}; G6 (either rule) missed ${misses} of them and warned on ${conservative} runs whose error was ≤ 5 ms. ` +
      `The loop-delay p99 rule alone would have missed ${altMisses} and warned on ${altConservative} runs whose error was ≤ 5 ms. ` +
      `G6 first warned at ${firsts(firstGate)} streams (per repetition); the error first exceeded 5 ms at ${firsts(firstBad)} streams.`
  );
  const gateAt = firsts(firstGate);
  const errAt = firsts(firstBad);
  return {misses, badRuns, gateFirst, gateAt, errAt};
}
