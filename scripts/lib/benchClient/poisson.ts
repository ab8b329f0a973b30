import {streamRequest, type StreamResult} from "../../../collector/http/index.ts";
import {createPacer} from "../../../collector/load/pacer.ts";
import {exponentialCdf, ksTest, mulberry32} from "../../../src/analysis/stats/index.ts";
import type {Bench} from "./bench.ts";
import {body, f, ms, nextId, nowNs, origin, pct, QUICK, table, type Row} from "./common.ts";
import {measured} from "./measured.ts";

/** (d) Poisson arrivals (seeded, mulberry32) through the pacer: lateness, dispatch lag, KS tests of the gaps. */
/** The columns of table (d). */
const POISSON_COLUMNS = [
  "rate (req/s)",
  "requests",
  "pacer late p50 (ms)",
  "pacer late p99 (ms)",
  "dispatch lag p50 (ms)",
  "dispatch lag p99 (ms)",
  "KS D / p: schedule",
  "KS D / p: pacer release",
  "KS D / p: dispatch",
  "achieved rate",
  "G6 loop delay p99"
];

export async function poissonArrivals({url, agent, server, say}: Bench): Promise<void> {
  // (d) Poisson arrivals through the pacer
  const rowsD: Row[] = [];
  for (const {rate, n} of QUICK
    ? [
        {rate: 1, n: 8},
        {rate: 100, n: 300},
        {rate: 1000, n: 2000}
      ]
    : [
        {rate: 1, n: 30},
        {rate: 100, n: 1000},
        {rate: 1000, n: 5000}
      ]) {
    const rng = mulberry32(42 + rate);
    const sched: number[] = [];
    let t = 0;
    for (let i = 0; i < n; i++) {
      t += (-Math.log(1 - rng()) / rate) * 1e9;
      sched.push(Math.round(t));
    }
    const pacer = createPacer({origin, spinMs: 1.5});
    const start = nowNs() + 20e6;
    const lates: number[] = [];
    const released: number[] = [];
    const run = await measured(async () => {
      const pending: Promise<StreamResult>[] = [];
      for (const s of sched) {
        const {lateNs} = await pacer.waitUntil(start + s);
        lates.push(lateNs);
        released.push(nowNs());
        pending.push(
          streamRequest({
            url: url + "/chat/completions",
            headers: {"x-fake-options": '{"ttftMs":5,"tokenIntervalMs":1}', "x-request-id": nextId()},
            body: body(4),
            origin,
            agent,
            timeouts: {connectMs: 10_000, headersMs: 30_000, idleMs: 30_000}
          })
        );
      }
      return Promise.all(pending);
    });
    await server.events([]);
    const disp = run.value.map((r) => r.tDispNs!).filter((x) => x !== null);
    const lag = run.value.map((r, i) => ms(r.tDispNs! - (start + sched[i]!)));
    const gapsOf = (ts: number[]): number[] => ts.slice(1).map((x, i) => (x - ts[i]!) / 1e9);
    const ksOf = (ts: number[]): string => {
      const k = ksTest(gapsOf(ts), exponentialCdf(rate));
      return k === undefined ? "—" : `${k.d.toFixed(3)} / ${k.p.toFixed(2)}`;
    };
    rowsD.push({
      cells: [
        String(rate),
        String(n),
        f(pct(lates.map(ms), 0.5), 3),
        f(pct(lates.map(ms), 0.99), 3),
        f(pct(lag, 0.5), 3),
        f(pct(lag, 0.99), 3),
        ksOf(sched),
        ksOf(released),
        ksOf(disp),
        f((n - 1) / ((disp[disp.length - 1]! - disp[0]!) / 1e9), 1),
        f(run.gateMs)
      ]
    });
  }
  say("\n### (d) Poisson arrivals (seeded, mulberry32) through the pacer\n");
  say(table(POISSON_COLUMNS, rowsD));
}
