import {readFileSync, writeFileSync} from "node:fs";
import {cpus} from "node:os";

import {format, resolveConfig} from "prettier";

import {PIN, QUICK} from "./common.ts";
import {externalClients} from "./external.ts";

/** How to read the tables: the last part of docs/client-benchmark.md. */
const READING = `## Reading the numbers

- **Medians are the client; tails are mostly the machine.** With warm keep-alive sockets the p50 timing
  error stays well under a millisecond. The p99 and max columns follow the "longest GC pause" and the
  stalls of a CPU shared with other work (see the load average above): a stall of *d* ms delays every
  event that arrives during it by up to *d* ms.
- **Events per CPU-second.** "paced" streams deliver about one event per socket read, the worst case:
  the cost is then node:http's read path plus the kernel (the collector's own decoding, parsing,
  classification and capture cost is table (f), about a microsecond per event), which is why the collector and the bare
  node:http client land close together. "zero-latency" lets many events share a read, as a busy server
  does; real servers sit between the two.
- **Through \`collect\` (a2), where the time goes.** Three parts on one clock add up to the error. _Setup_
  is node:http creating the request and writing it; measured alone, \`http.request()\` takes about 10 µs
  when it runs back to back and 75–110 µs when the process has just woken from a 60–100 ms wait on the
  response (cold caches and a descheduled vCPU: the same code, ten times slower), and a closed loop at one
  stream always starts its next request right after such a wait. _Request path_ is loopback plus the
  server waking and reading the head; _response path_ is loopback plus the client waking and reading the
  chunk. At one stream each is 0.2–0.3 ms, so the 0.5 ms goal is about one cold wake-up away on this VM.
  At 100 streams the fake server answers every stream on the same timer tick, as a batching engine does:
  a hundred chunks arrive within the same millisecond and one JavaScript thread reads them one after
  another, so the k-th waits for the k − 1 before it; the median error is that queue (the parts' own
  medians stay below 0.3 ms). Going below it needs the streams spread over several client threads, which
  the collector does not do yet.
- **Concurrent streams.** Thousands of streams fit in one client thread (all succeed, nothing lost); the
  per-event error grows with the event rate the loop must absorb, which (e) quantifies.
- **Poisson.** The schedule itself passes the KS test. The pacer sleeps until ~1.5 ms before each deadline
  and polls with setImmediate; its release times and the dispatch times deviate from the exponential
  shape at high rates because two requests cannot be dispatched closer together than the per-request
  CPU cost (~0.1 ms, creating the request and writing it), so the shortest gaps are stretched, and a stall
  releases the overdue requests in a burst. The schedule is saved in the bundle, so schedule-based latencies
  show this and dispatch lag p99 measures it.
- **Client health (e).** Gate G6 has two rules. The worst 500 ms window's loop-delay p99 alone is blind to
  single stalls: timer samples are time-weighted, a 50 ms stall is one late sample among ~500, so the p99
  hardly moves while every event that arrived during the stall is late. So the collector also records
  every stall over 2 ms (a 1 ms timer), and G6 warns when the loop is more than 5 ms behind for more than
  1 % of the time, Σ max(0, d − 5 ms) / T: above 1 %, more than 1 % of events are delayed by more than 5 ms.
  The table shows where each rule fires relative to the measured timing error.
- **Side by side (h).** The only comparison here that includes everything a user pays: start-up, the probe,
  the fingerprint, the bundle writer and the final analysis for InferScope; the interpreter, aiohttp and the
  request function for the peer. The peer row, when present, is vLLM's own chat request function
  (\`vllm/benchmarks/lib/endpoint_request_func.py\`, vLLM @ 02cfb53) driven by \`scripts/peers/vllm_client.py\`
  as \`vllm bench serve --max-concurrency\` drives it, without the rest of vLLM's benchmark (no tokenizer,
  dataset or metrics), so its fixed cost is a lower bound of the full tool's. Where the time goes in
  \`collect\` at 100 streams (\`--cpu-prof\`, 400 × 64 events): about a quarter is fixed (loading the CLI, the
  final analysis reading the bundle back), the rest per event — JSON.parse and classification of each
  payload, node:http's read path, the JSONL writer's serialisation, and garbage collection; no single part
  is large enough that removing it reaches 2×.
- **HTTP client candidates (i).** The same capture behind four ways of reading a response, and a floor that
  reads bytes and counts blank lines with no HTTP parsing or capture at all: with one event per read the floor
  is what a read costs here (kernel, libuv, a Buffer, one callback). In four runs on 2026-12-03 (one under
  \`--max-semi-space-size=32\`, which changed nothing beyond the spread) the fastest client was
  net.Socket + http-parser-js, 1.14–1.33× the collector's node:http path at 100 streams and 0.97–1.25× at one
  stream, with an equal or lower per-event p99; undici's dispatcher 0.93–1.23× and 0.88–1.13×; the floor
  (measured in three of the runs) 1.45–1.94×. The machine's own speed moved about 2× between those runs (the collector measured 28,600–66,300
  events per CPU-second at 100 streams), so only ratios within one run mean anything. What is left above the
  floor is the capture's allocation per event (strings from UTF-8 decoding and eventsource-parser, the parsed
  JSON, the event tuple), which the GC columns show, and the HTTP layer's share is at most the 1.3× between
  clients. The collector still runs node:http: moving it to a socket client needs TLS, the idle-socket rules,
  connect timing and the re-send rule rebuilt on that socket, which is not done yet.
- For scale (issue 3): on this machine vLLM's benchmark client measured a TTFT p50 error of about +67 ms at
  100 streams and handled about 13,700 events per CPU-second; a bare node:http client about 20,000.
`;

/**
 * `--transports`: puts section (i) into the existing docs/client-benchmark.md (replacing an earlier (i), else
 * before the goals), so one section can be re-measured without the external clients of a full run.
 */
export async function spliceSection(section: string): Promise<void> {
  const path = "docs/client-benchmark.md";
  const doc = readFileSync(path, "utf8");
  const start = doc.indexOf("\n### (i) ");
  const goals = doc.indexOf("\n### Goals");
  if (goals < 0) throw new Error(`${path}: no "### Goals" heading to put section (i) before`);
  const end = start < 0 ? goals : doc.indexOf("\n### ", start + 1);
  const next = `${doc.slice(0, start < 0 ? goals : start)}\n${section.trim()}\n${doc.slice(end)}`;
  writeFileSync(path, await format(next, {...(await resolveConfig(path)), parser: "markdown"}));
  console.log(`\nwrote section (i) into ${path}`);
}

/** Writes docs/client-benchmark.md: how the bench measures, its tables, and how to read them. */
export async function writeDoc(sections: string[]): Promise<void> {
  const cpu = cpus();
  const date = new Date().toISOString().slice(0, 10);
  const external = externalClients(process.argv.slice(2))
    .map((c) => ` --external '${c.name}=…'`)
    .join("");
  const doc = `# Client benchmark (\`npm run bench:client\`)

Measured ${date} on ${cpu[0]?.model ?? "unknown CPU"}, ${cpu.length} cores, Node ${process.version}, ${process.platform}/${process.arch}.
Command: \`npm run bench:client${QUICK || PIN || external ? " --" : ""}${QUICK ? " --quick" : ""}${PIN ? " --pin" : ""}${external}\` (section h gives each external command in full). ${
    PIN ? "Client pinned to core 0 and the fake server to the last core with `taskset`." : "No CPU pinning."
  } The machine is shared with other work, so numbers move by ±10–20 % between runs.

How it measures: the fake server (\`inferscope fake-server --scenario zero\`) runs in a child process and
logs its own CLOCK_MONOTONIC time of every write and of each request's receipt (node's 'request' event, before
the body is read); the collector's transport (\`collector/http/stream.ts\`, node:http + eventsource-parser, one
clock reading per socket chunk, taken before node's HTTP parser) records every event. Both processes
read the same monotonic clock, so *collector − server* is the client-side timing error (kernel delivery,
event-loop wait, parsing). TTFT error uses the first content event; per-event error uses every event.
Events per CPU-second divide the events received by the client process's user+system CPU
(\`process.cpuUsage\`), including JSON serialisation of every record ("full raw capture"); the bare node:http
and fetch clients split events and JSON.parse them but keep nothing. Event-loop delay comes from
\`monitorEventLoopDelay({resolution: 1})\`,
the 1 ms resolution subtracted as the collector records it; "G6 loop delay p99" is what gate G6 reads: the worst
500 ms window's p99. Poisson schedules are seeded (mulberry32, seed 42 + rate),
dispatched by \`collector/load/pacer.ts\`; the KS test compares the realised dispatch gaps with the exponential
distribution (\`src/analysis/stats/ks.ts\`).

## Results
${sections.join("\n")}

${READING}`;
  // formatted like the rest of the repository (npm test runs prettier --check on docs/)
  const path = "docs/client-benchmark.md";
  writeFileSync(path, await format(doc, {...(await resolveConfig(path)), parser: "markdown"}));
  console.log(`\nwrote ${path}`);
}
