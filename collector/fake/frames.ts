import type {ScenarioOptions} from "./options.ts";

/** One socket write, due `atMs` after the request was read; `events` = SSE data events it completes. */
export interface Frame {
  atMs: number;
  data: string | Buffer;
  events: number;
  /** Yield to the event loop after this write (so byte-sized writes leave as separate segments). */
  yieldAfter: boolean;
}

export type EndHow = "end" | "fin" | "reset" | "hang";

/** How and when a response ends. */
export interface StreamEnd {
  atMs: number;
  how: EndHow;
}

/** One SSE event of a response before it is rendered: its data payload, or the raw bytes to write when `raw`. */
export interface LogicalEvent {
  atMs: number;
  data: string;
  raw: boolean;
}

export function frame(atMs: number, data: string | Buffer, events: number, yieldAfter = false): Frame {
  return {atMs, data, events, yieldAfter};
}

/** Renders logical events as SSE text and cuts them into writes. */
export function toFrames(events: LogicalEvent[], o: ScenarioOptions): Frame[] {
  const eol = o.lineEnding === "crlf" ? "\r\n" : o.lineEnding === "cr" ? "\r" : "\n";
  const texts: {atMs: number; text: string; events: number}[] = [];
  if (o.sseExtras)
    texts.push({atMs: events[0]?.atMs ?? 0, text: `: stream opened${eol}retry: 1000${eol}${eol}`, events: 0});
  events.forEach((e, i) => {
    if (e.raw) return void texts.push({atMs: e.atMs, text: e.data, events: 0});
    let body = `data: ${e.data}${eol}`;
    if (o.sseExtras) {
      const comma = e.data.indexOf(",");
      if (i % 4 === 1 && comma > 0)
        body = `data: ${e.data.slice(0, comma + 1)}${eol}data: ${e.data.slice(comma + 1)}${eol}`;
      body =
        (i % 2 === 0 ? `: keep-alive${eol}` : "") +
        (i % 3 === 0 ? `event: message${eol}` : "") +
        `id: ${i}${eol}` +
        body;
    }
    texts.push({atMs: e.atMs, text: body + eol, events: 1});
  });
  const frames: Frame[] = [];
  let t = 0;
  const add = (atMs: number, data: string | Buffer, n: number, y = false): void => {
    t = Math.max(t, atMs);
    frames.push(frame(t, data, n, y));
  };
  if (o.buffered) {
    const last = texts[texts.length - 1];
    if (last !== undefined)
      add(
        last.atMs,
        texts.map((x) => x.text).join(""),
        texts.reduce((a, x) => a + x.events, 0)
      );
    return frames;
  }
  if (o.splitEveryByte) {
    for (const x of texts) {
      const b = Buffer.from(x.text);
      for (let i = 0; i < b.length; i++) add(x.atMs, b.subarray(i, i + 1), i === b.length - 1 ? x.events : 0, true);
    }
    return frames;
  }
  if (o.splitOffset !== null) {
    for (const x of texts) {
      const b = Buffer.from(x.text);
      const k = Math.min(Math.max(1, o.splitOffset), b.length - 1);
      if (k < 1) add(x.atMs, b, x.events);
      else {
        add(x.atMs, b.subarray(0, k), 0);
        add(x.atMs + o.splitGapMs, b.subarray(k), x.events);
      }
    }
    return frames;
  }
  const per = Math.max(1, o.eventsPerWrite);
  for (let i = 0; i < texts.length; i += per) {
    const group = texts.slice(i, i + per);
    add(
      group[group.length - 1]!.atMs,
      group.map((x) => x.text).join(""),
      group.reduce((a, x) => a + x.events, 0)
    );
  }
  return frames;
}
