import {bareHttp, eventCount, eventsPerRead, fetchClient, ok, streams, timingErrors, warm} from "./drivers.ts";
import type {Bench} from "./bench.ts";
import {body, f, median, nextId, pct, QUICK, table, type Row} from "./common.ts";
import {createAgent} from "../../../collector/http/index.ts";
import {measured} from "./measured.ts";

/** (b) SSE events per client CPU-second: ours (full raw capture) vs bare node:http vs fetch, two regimes. */
export async function eventsPerCpu({url, agent, server, say, reps}: Bench): Promise<{paced: number; zero: number}> {
  // (b) events per CPU-second: ours (full raw capture) vs bare node:http vs fetch, two regimes
  const regimes = [
    {name: "paced", concurrency: 100, maxTokens: QUICK ? 100 : 200, options: {ttftMs: 0, tokenIntervalMs: 5}},
    {name: "zero-latency", concurrency: 100, maxTokens: QUICK ? 300 : 1000, options: {ttftMs: 0, tokenIntervalMs: 0}}
  ];
  const rowsB: Row[] = [];
  const evPerCpu: Record<string, Record<string, number>> = {};
  for (const reg of regimes) {
    evPerCpu[reg.name] = {};
    const b = body(reg.maxTokens);
    const headers = {"x-fake-options": JSON.stringify(reg.options)};
    const ours: number[] = [];
    const bare: number[] = [];
    const viaFetch: number[] = [];
    const perRead: number[] = [];
    for (let k = 0; k < reps; k++) {
      const p = await streams(url, agent, {
        concurrency: reg.concurrency,
        perStream: 1,
        maxTokens: reg.maxTokens,
        options: reg.options,
        staggerMs: 0
      });
      // full raw capture includes serialising each record as the writer would
      const ser = await measured(async () => p.results.reduce((a, {r}) => a + JSON.stringify(r).length, 0));
      ours.push(eventCount(p) / (p.cpuS + ser.cpuS));
      perRead.push(eventsPerRead(p));
      await server.events(p.results.map((x) => x.id));
      const hb = await measured(() =>
        Promise.all(
          Array.from({length: reg.concurrency}, () =>
            bareHttp(url + "/chat/completions", agent, b, {...headers, "x-request-id": nextId()})
          )
        )
      );
      bare.push(hb.value.reduce((a, n) => a + n, 0) / hb.cpuS);
      const fb = await measured(() =>
        Promise.all(
          Array.from({length: reg.concurrency}, () =>
            fetchClient(url + "/chat/completions", b, {...headers, "x-request-id": nextId()})
          )
        )
      );
      viaFetch.push(fb.value.reduce((a, n) => a + n, 0) / fb.cpuS);
    }
    evPerCpu[reg.name] = {ours: median(ours), bare: median(bare), fetch: median(viaFetch)};
    rowsB.push({
      cells: [
        reg.name,
        `${reg.concurrency} × ${reg.maxTokens}`,
        f(median(perRead)),
        Math.round(median(ours)).toLocaleString("en-US"),
        Math.round(median(bare)).toLocaleString("en-US"),
        Math.round(median(viaFetch)).toLocaleString("en-US"),
        (median(ours) / median(bare)).toFixed(2),
        (median(ours) / median(viaFetch)).toFixed(2)
      ]
    });
  }
  await server.events([]);
  say(`\n### (b) SSE events per client CPU-second (median of ${reps})\n`);
  say(
    table(
      [
        "regime",
        "streams × tokens",
        "events per read",
        "collector (full capture)",
        "bare node:http",
        "fetch",
        "collector / bare",
        "collector / fetch"
      ],
      rowsB
    )
  );
  return {paced: evPerCpu[regimes[0]!.name]!.ours!, zero: evPerCpu[regimes[1]!.name]!.ours!};
}

/** (c) The most concurrent streams one client core holds with every request succeeding and no event lost. */
export async function streamsPerCore({url, server, say}: Bench): Promise<number> {
  // (c) concurrent streams on one core
  const rowsC: Row[] = [];
  let maxOk = 0;
  for (const n of QUICK ? [1000, 2000] : [1000, 2000, 4000]) {
    const a = createAgent(url, {maxSockets: n + 64});
    await warm(url, a, n);
    const p = await streams(url, a, {
      concurrency: n,
      perStream: 1,
      maxTokens: 20,
      options: {ttftMs: 50, tokenIntervalMs: 100},
      staggerMs: 100
    });
    a.destroy();
    const e = await timingErrors(server, p);
    const good = ok(p);
    if (good === n && e.lost === 0) maxOk = n;
    rowsC.push({
      cells: [
        String(n),
        String(good),
        String(e.lost),
        f(pct(e.perEvent, 0.5), 3),
        f(pct(e.perEvent, 0.99), 3),
        f(p.gateMs),
        f(p.elu),
        f(p.cpuS / p.wallS)
      ]
    });
  }
  say("\n### (c) Concurrent streams on one client core (100 ms per token, 20 tokens)\n");
  say(
    table(
      [
        "streams",
        "succeeded",
        "events lost",
        "per-event error p50",
        "per-event error p99",
        "G6 loop delay p99",
        "ELU",
        "CPU cores used"
      ],
      rowsC
    )
  );
  return maxOk;
}
