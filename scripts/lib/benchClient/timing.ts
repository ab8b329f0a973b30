import {max} from "d3-array";

import {collectTiming} from "../collectTiming.ts";
import type {Bench} from "./bench.ts";
import {f, medianOf, pct, QUICK, table, type Row} from "./common.ts";
import {ok, streams, timingErrors, warm, type Phase} from "./drivers.ts";

export type Accuracy = Record<number, {ttft50: number | null; ttft99: number | null; tok99: number | null}>;

/** (a) Timing error, collector − server send time, at 1, 100 and 1,000 streams (warm sockets; median over repetitions). */
export async function timingAccuracy({url, agent, server, say, reps}: Bench): Promise<Accuracy> {
  // (a) timing error at 1, 100 and 1,000 streams (warm keep-alive sockets; median over repetitions)
  const levels = [
    {concurrency: 1, perStream: QUICK ? 15 : 40, maxTokens: 20, interval: 5},
    {concurrency: 100, perStream: 1, maxTokens: 100, interval: 10},
    {concurrency: 1000, perStream: 1, maxTokens: QUICK ? 20 : 40, interval: 50}
  ];
  const rowsA: Row[] = [];
  const accuracy: Record<number, {ttft50: number | null; ttft99: number | null; tok99: number | null}> = {};
  for (const l of levels) {
    const options = {ttftMs: 20, tokenIntervalMs: l.interval};
    const runs: {e: Awaited<ReturnType<typeof timingErrors>>; p: Phase}[] = [];
    for (let k = 0; k < reps; k++) {
      await warm(url, agent, l.concurrency);
      const p = await streams(url, agent, {...l, options, staggerMs: l.interval});
      runs.push({e: await timingErrors(server, p), p});
    }
    const m = (fn: (x: {e: Awaited<ReturnType<typeof timingErrors>>; p: Phase}) => number | null): number | null =>
      medianOf(runs.map(fn));
    accuracy[l.concurrency] = {
      ttft50: m(({e}) => pct(e.ttft, 0.5)),
      ttft99: m(({e}) => pct(e.ttft, 0.99)),
      tok99: m(({e}) => pct(e.perEvent, 0.99))
    };
    rowsA.push({
      cells: [
        String(l.concurrency),
        `${l.interval} ms × ${l.maxTokens}`,
        `${runs[0]!.p.results.length} × ${reps}`,
        String(runs.reduce((a, {e}) => a + e.perEvent.length, 0)),
        f(accuracy[l.concurrency]!.ttft50, 3),
        f(accuracy[l.concurrency]!.ttft99, 3),
        f(
          m(({e}) => pct(e.perEvent, 0.5)),
          3
        ),
        f(accuracy[l.concurrency]!.tok99, 3),
        f(
          m(({e}) => pct(e.perEvent, 1)),
          1
        ),
        f(m(({p}) => p.gateMs)),
        f(
          max(runs, ({p}) => p.gcMaxMs)!,
          1
        ),
        String(runs.reduce((a, {e}) => a + e.lost, 0)),
        String(runs.reduce((a, {p}) => a + p.results.length - ok(p), 0))
      ]
    });
  }
  say(
    `\n### (a) Timing error, collector − server send time (ms; median over ${reps} run${reps > 1 ? "s" : ""}, warm sockets)\n`
  );
  say(
    table(
      [
        "streams",
        "token interval × tokens",
        "requests × runs",
        "events",
        "TTFT p50",
        "TTFT p99",
        "per-event p50",
        "per-event p99",
        "per-event max",
        "G6 loop delay p99",
        "longest GC pause",
        "lost",
        "failed"
      ],
      rowsA
    )
  );
  return accuracy;
}

/** (a2) The same definition through collect() itself, in both connection modes (issue 10 item 5). */
export async function collectAccuracy({url, server, say, reps}: Bench): Promise<Record<string, number | null>> {
  // (a2) the same definition through collect() itself, in both connection modes (issue 10 item 5)
  const collectRows: Row[] = [];
  const collectAcc: Record<string, number | null> = {};
  for (const mode of ["reuse", "per_request"] as const)
    for (const httpClient of ["node_http", "socket"] as const)
      for (const concurrency of [1, 100]) {
        const runs: Awaited<ReturnType<typeof collectTiming>>[] = [];
        for (let k = 0; k < reps; k++)
          runs.push(
            await collectTiming({
              url,
              mode,
              httpClient,
              concurrency,
              requests: concurrency === 1 ? (QUICK ? 20 : 40) : QUICK ? 200 : 400,
              fakeOptions: {ttftMs: 20, tokenIntervalMs: concurrency === 1 ? 5 : 10},
              serverTimes: (ids) => server.times(ids)
            })
          );
        const p50 = medianOf(runs.map((r) => pct(r.errors, 0.5)));
        collectAcc[`${httpClient === "socket" ? "socket:" : ""}${mode}-${concurrency}`] = p50;
        collectRows.push({
          cells: [
            mode,
            httpClient,
            String(concurrency),
            `${runs[0]!.requests} × ${reps}`,
            f(p50, 3),
            f(medianOf(runs.map((r) => pct(r.errors, 0.99))), 3),
            f(medianOf(runs.map((r) => pct(r.setupMs, 0.5))), 3),
            f(medianOf(runs.map((r) => pct(r.requestPathMs, 0.5))), 3),
            f(medianOf(runs.map((r) => pct(r.responsePathMs, 0.5))), 3),
            String(runs.reduce((a, r) => a + r.reused, 0)),
            String(runs.reduce((a, r) => a + r.failed, 0))
          ]
        });
      }
  say(
    `\n### (a2) Timing error through \`collect\`, both connection modes and both HTTP clients (ms; median over ${reps} run${reps > 1 ? "s" : ""})\n`
  );
  say(
    "error = (client first token − client start `tCallNs`) − (server first-token send − server receipt, its first sight of the request); per_request also subtracts the recorded connect time (`tConnNs − tCallNs`); http_client is `target.http_client` (node_http: node:http's client; socket: the collector's bare-socket client). The whole collector runs: request builder, pool, telemetry monitors, writer. The error is the sum of three parts, each on the shared clock: setup (tDispNs − tCallNs: request creation, the connect in per_request, the write), request path (server receipt − tDispNs: loopback, the server waking and reading the head) and response path (client first-token time − server first-token send: loopback, the client waking and reading).\n"
  );
  say(
    table(
      [
        "connections",
        "http_client",
        "streams",
        "requests × runs",
        "error p50",
        "error p99",
        "setup p50",
        "request path p50",
        "response path p50",
        "reused",
        "unmatched"
      ],
      collectRows
    )
  );
  return collectAcc;
}
