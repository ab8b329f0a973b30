/**
 * Writes a hand-built (synthetic) sweep bundle into evidence/ so the site has something to show
 * before real collections exist. Its provenance says so. npm run fixtures:evidence
 */
import {join} from "node:path";

import {closedLoop, loadPoint, loopSamples, writeSynthBundle} from "./lib/synth.ts";

const dir = join(import.meta.dirname, "..", "evidence", "20261101-synthetic-fixture-model-sweep-hand-built");
const points = [1, 2, 4];
let seq = 0;
let start = 0;
const requests = points.flatMap((c) => {
  const rs = closedLoop(
    `concurrency-${c}`,
    30,
    c,
    (i) => ({
      ttftMs: 35 + 12 * c + (i % 7) * 2,
      tokens: 64,
      intervalMs: 7 + c * 1.5 + (i % 4) * 0.3,
      dispatchLagMs: 0.15
    }),
    {startMs: start, firstSeq: seq}
  );
  seq += rs.length;
  start = Math.max(...rs.map((r) => r.tEndNs!)) / 1e6 + 500;
  return rs;
});
await writeSynthBundle({
  dir,
  id: "20261101-synthetic-fixture-model-sweep-hand-built",
  config: {
    name: "sweep",
    target: {base_url: "http://127.0.0.1:8000/v1", model: "fixture-model", engine: "synthetic"},
    workload: {prompt_tokens: 128, max_tokens: 64, ignore_eos: true},
    load: {mode: "concurrency", values: points, requests: 30, warmup: 0}
  },
  points: points.map((c) => loadPoint("concurrency", c, 30)),
  requests,
  client: loopSamples(Math.ceil(start), 1.1),
  note: "HAND-BUILT FIXTURE, not a measurement: synthetic timings written by scripts/makeSampleEvidence.ts so the site has a sample until real collections land"
});
console.log(`wrote ${dir}`);
