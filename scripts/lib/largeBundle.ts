/**
 * Large synthetic bundles for scale tests and benchmarks (provenance "synthetic"): N requests of one load
 * point of any shape (closed loop, constant rate, Poisson, gamma), each with E SSE events (optionally with
 * the raw payloads bundle v2 keeps), written as a stream so that no array of N records is held, plus the
 * schedule.jsonl of an open loop and the lifecycle notes a collector writes. Nothing here is a measurement.
 */
import {closeSync, mkdirSync, openSync, writeSync} from "node:fs";
import {join} from "node:path";

import {stringify as toYaml} from "yaml";

import {sealBundle} from "../../collector/bundle/seal.ts";
import {arrivalOffsets} from "../../collector/load/schedule.ts";
import {MEASURE_VERSION, RunConfigSpec, SCHEMA_VERSION, type LoadMode} from "../../src/analysis/schema/index.ts";
import {sha256Hex} from "../../src/io/hash.ts";
import {SYNTH_ENVIRONMENT, loadPoint} from "./synth.ts";

export interface LargeBundleSpec {
  dir: string;
  requests: number;
  /** SSE events per request: 1 = one content event of one token; ≥ 5 = role, E − 4 one-token contents, finish, usage, [DONE]. */
  events: number;
  shape: LoadMode;
  /** Concurrency (closed loop) or rate in req/s (open loop). */
  value: number;
  /** Keep each event's raw payload as bundle v2 does (~170 bytes of a vLLM chat chunk). */
  payloads: boolean;
}

/** Raw payloads as a vLLM chat stream sends them. */
const payload = (i: number, kind: "role" | "content" | "finish" | "usage" | "done"): string => {
  const head = `{"id":"chatcmpl-r${i}","object":"chat.completion.chunk","created":1764547200,"model":"synthetic","choices":`;
  if (kind === "done") return "[DONE]";
  if (kind === "usage") return `${head}[],"usage":{"prompt_tokens":512,"total_tokens":558,"completion_tokens":46}}`;
  const delta =
    kind === "role" ? '{"role":"assistant","content":""}' : kind === "finish" ? "{}" : '{"content":" word"}';
  return `${head}[{"index":0,"delta":${delta},"logprobs":null,"finish_reason":${kind === "finish" ? '"length"' : "null"}}]}`;
};

/** Buffered appends to one file. */
function writer(path: string) {
  const fd = openSync(path, "w");
  let buf = "";
  return {
    line(s: string) {
      buf += s;
      if (buf.length > 1 << 22) {
        writeSync(fd, buf);
        buf = "";
      }
    },
    close() {
      writeSync(fd, buf);
      closeSync(fd);
    }
  };
}

/**
 * Writes and seals the bundle; returns the bytes the raw payloads took (0 without them). Over 80 lines on
 * purpose: one pass writes every file of a million-request bundle, and its hot loop shares the writers' state.
 */
// eslint-disable-next-line max-lines-per-function -- one pass writes every file (see above)
export async function writeLargeBundle(s: LargeBundleSpec): Promise<{payloadBytes: number; pointId: string}> {
  if (!(s.events === 1 || s.events >= 5)) throw new Error(`events must be 1 or at least 5, got ${s.events}`);
  mkdirSync(s.dir, {recursive: true});
  const open = s.shape !== "concurrency";
  const point = loadPoint(s.shape, s.value, s.requests);
  const tokens = s.events === 1 ? 1 : s.events - 4;
  const config = RunConfigSpec.parse({
    name: "large",
    target: {base_url: "http://127.0.0.1:8000/v1", model: "synthetic"},
    workload: {prompt_tokens: 512, max_tokens: tokens},
    load: {
      mode: s.shape,
      values: [s.value],
      requests: s.requests,
      warmup: 0,
      ...(s.shape === "gamma" ? {burstiness: 1} : {})
    }
  });
  const configText = toYaml(config);
  const cw = writer(join(s.dir, "config.resolved.yaml"));
  cw.line(configText);
  cw.close();

  let payloadBytes = 0;
  const ev = (t: number, bytes: number, kind: Parameters<typeof payload>[1], delta: number | null, i: number) => {
    const tuple = `${t},${bytes},"${kind}",${delta}`;
    if (!s.payloads) return `[${tuple}]`;
    const p = `,${JSON.stringify(payload(i, kind))}`;
    payloadBytes += p.length;
    return `[${tuple}${p}]`;
  };
  let state = 12345;
  const rnd = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 4294967296;
  };
  const requests = writer(join(s.dir, "requests.jsonl"));
  const schedule = open ? writer(join(s.dir, "schedule.jsonl")) : null;
  const free = new Float64Array(open ? 0 : s.value); // closed loop: when each slot frees
  const offsets = open
    ? arrivalOffsets({
        mode: s.shape as Exclude<LoadMode, "concurrency">,
        rate: s.value,
        burstiness: 1,
        seed: 7,
        count: s.requests
      })
    : null;
  const start = 1_000_000; // phase start on the run's clock (ns)
  const prefix = "large";
  let lastEnd = 0;
  for (let i = 0; i < s.requests; i++) {
    let sched: number;
    let slot = 0;
    if (offsets) {
      const off = offsets.next().value as number;
      sched = start + off;
      schedule!.line(
        `{"seq":${i},"point":"${point.id}","repeat":0,"index":${i},"phase":"measure","offsetNs":${off},"requestId":"${prefix}-${point.id}-r0-m${i}"}\n`
      );
    } else {
      for (let k = 1; k < free.length; k++) if (free[k]! < free[slot]!) slot = k;
      sched = Math.max(start, Math.round(free[slot]!));
    }
    const disp = sched + 20_000 + Math.floor(rnd() * 20_000);
    const hdr = disp + 1_000_000;
    let t = disp + 30_000_000 + Math.floor(rnd() * 20_000_000);
    const events: string[] = [];
    if (s.events === 1) events.push(ev(t, 124, "content", tokens, i));
    else {
      events.push(ev(hdr + 50_000, 80, "role", 0, i));
      for (let k = 0; k < s.events - 4; k++) {
        events.push(ev(t, 124, "content", 1, i));
        t += 8_000_000 + Math.floor(rnd() * 4_000_000);
      }
      events.push(ev(t, 90, "finish", 0, i), ev(t + 100_000, 160, "usage", 0, i), ev(t + 200_000, 14, "done", null, i));
      t += 200_000;
    }
    const end = t + 100_000;
    if (!offsets) free[slot] = end;
    lastEnd = Math.max(lastEnd, end);
    requests.line(
      `{"seq":${i},"id":"${prefix}-${point.id}-r0-m${i}","point":"${point.id}","repeat":0,"index":${i},"phase":"measure","timeBase":"run","tSchedNs":${sched},"tCallNs":${sched + 10_000},"tDispNs":${disp},"tHdrNs":${hdr},"tByte1Ns":${hdr + 40_000},"tEndNs":${end},"events":[${events.join(",")}],"httpStatus":200,"finishReason":"length","usage":{"promptTokens":512,"completionTokens":${tokens},"reasoningTokens":null,"cachedTokens":0},"usageSource":"server_final","serverTimings":null,"transportError":null,"errorMessage":null,"promptDigest":"${"a".repeat(64)}","responseDigest":"${"b".repeat(64)}","promptTokensIntended":512,"maxTokens":${tokens},"salt":"s${i}"}\n`
    );
  }
  requests.close();
  schedule?.close();
  // the lifecycle notes and healthy event-loop samples every second over the run
  const client = writer(join(s.dir, "client_metrics.jsonl"));
  let seq = 0;
  const note = (tNs: number, event: string, detail: string) =>
    client.line(
      `{"seq":${seq++},"kind":"note","tNs":${tNs},"event":"${event}","point":"${point.id}","repeat":0,"detail":${detail}}\n`
    );
  note(start, "phase_start", `{"phase":"measure"${open ? `,"scheduled":${s.requests}` : ""}}`);
  if (open) note(start, "plan_end", `{"phase":"measure","scheduled":${s.requests}}`);
  for (let t = start + 1e9; t < lastEnd + 1e9; t += 1e9)
    client.line(
      `{"seq":${seq++},"kind":"loop","tNs":${t},"windowNs":1000000000,"loopDelayP50Ms":0.5,"loopDelayP99Ms":1,"loopDelayMaxMs":1.5,"elu":0.2,"inFlight":null,"openSockets":null,"rssBytes":null,"cpuUserUs":null,"cpuSystemUs":null}\n`
    );
  note(lastEnd, "phase_end", `{"phase":"measure","sent":${s.requests}}`);
  client.close();
  await sealBundle(
    s.dir,
    {
      schemaVersion: SCHEMA_VERSION,
      bundleId: `large-${point.id}`,
      measureVersion: MEASURE_VERSION,
      status: "complete",
      statusReason: null,
      startedAt: "2026-11-01T00:00:00.000Z",
      finishedAt: "2026-11-01T01:00:00.000Z",
      monotonicOriginNs: "1000",
      timeUnit: "ns",
      clockAnchors: [{wall: "2026-11-01T00:00:00.000Z", tNs: 0}],
      collector: {name: "inferscope-synth", version: "0", lockfileSha256: null, gitCommit: null, node: null},
      configSha256: sha256Hex(configText),
      durability: {fsyncIntervalMs: null},
      prng: null,
      loadPoints: [point],
      labels: {},
      environment: SYNTH_ENVIRONMENT,
      provenance: {
        kind: "synthetic",
        note: `scale input: ${s.requests} ${s.shape} requests (scripts/lib/largeBundle.ts)`
      }
    },
    ["config.resolved.yaml", "requests.jsonl", "client_metrics.jsonl", ...(open ? ["schedule.jsonl"] : [])]
  );
  return {payloadBytes, pointId: point.id};
}
