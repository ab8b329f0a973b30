import {SseReader, StreamAccumulator} from "../../../collector/http/index.ts";
import type {SseEvent} from "../../../src/analysis/schema/records.ts";
import {origin, QUICK} from "./common.ts";

/**
 * CPU per event of the collector's own work on recorded vLLM-style chunks, without sockets: UTF-8
 * decoding + eventsource-parser, then classification, usage bookkeeping and the event tuple.
 */
export function pipelineCost(): {parseNs: number; fullNs: number; jsonNs: number} {
  const chunks = Array.from({length: 2000}, (_, i) =>
    Buffer.from(
      `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"m","choices":[{"index":0,"delta":{"content":" word${i % 50}"},"logprobs":null,"finish_reason":null}],"usage":{"prompt_tokens":5,"completion_tokens":${i + 1},"total_tokens":${i + 6}}}\n\n`
    )
  );
  const rounds = QUICK ? 20 : 100;
  const time = (fn: () => void): number => {
    fn(); // warm
    const t = process.cpuUsage();
    fn();
    const c = process.cpuUsage(t);
    return ((c.user + c.system) * 1000) / (rounds * chunks.length);
  };
  const parseNs = time(() => {
    for (let k = 0; k < rounds; k++) {
      const r = new SseReader(1 << 24, {onEvent: () => {}, onTooLarge: () => {}});
      for (const b of chunks) r.write(b);
    }
  });
  const jsonNs = time(() => {
    for (let k = 0; k < rounds; k++) for (const b of chunks) JSON.parse(b.toString("utf8", 6, b.length - 2));
  });
  const fullNs = time(() => {
    for (let k = 0; k < rounds; k++) {
      const acc = new StreamAccumulator(true);
      const events: SseEvent[] = [];
      let t = 0;
      const r = new SseReader(1 << 24, {
        onEvent: (data, type, bytes) => void events.push([t, bytes, acc.push(data, type), acc.delta]),
        onTooLarge: () => {}
      });
      for (const b of chunks) {
        t = Number(process.hrtime.bigint() - origin);
        r.write(b);
      }
      acc.finish(events);
    }
  });
  return {parseNs, fullNs, jsonNs};
}
