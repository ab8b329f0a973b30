import {describe, expect, it} from "vitest";
import {z} from "zod";

import {checkEvents, RequestRecordIngest} from "../../../src/analysis/ingest/fastEvents.ts";
import {RequestRecord, SseEvent} from "../../../src/analysis/schema/index.ts";
import {mulberry32} from "../../../src/analysis/stats/prng.ts";

const Reference = z.array(SseEvent);

const CANDIDATES: unknown[] = [
  0,
  -5,
  1.5,
  2 ** 53,
  -(2 ** 53),
  Number.MAX_SAFE_INTEGER,
  "3",
  null,
  true,
  "content",
  "role",
  "usage",
  "done",
  "bogus",
  "",
  [],
  {},
  7,
  100
];

describe("fast events check agrees with the zod schema", () => {
  it("accepts and rejects exactly what z.array(SseEvent) does, on 5,000 seeded random arrays", () => {
    const rng = mulberry32(2026);
    const pick = () => CANDIDATES[Math.floor(rng() * CANDIDATES.length)];
    for (let trial = 0; trial < 5000; trial++) {
      const events: unknown[] = [];
      const n = Math.floor(rng() * 4);
      for (let i = 0; i < n; i++) {
        const valid = rng() < 0.6;
        const len = valid ? 4 : Math.floor(rng() * 6);
        const event: unknown[] = [
          Math.floor(rng() * 1e9),
          Math.floor(rng() * 500),
          ["content", "role", "empty", "usage", "done"][i % 5],
          rng() < 0.5 ? null : 1
        ];
        // bundle v2 keeps the event's first payload bytes as an optional fifth element
        if (rng() < 0.3) event.push(rng() < 0.8 ? '{"choices":[]}' : pick());
        events.push(valid ? event : Array.from({length: len}, pick));
      }
      const value = rng() < 0.05 ? pick() : events;
      expect(checkEvents(value) === null, JSON.stringify(value)).toBe(Reference.safeParse(value).success);
    }
  });

  it("reports the offending event and element as a path", () => {
    const r = RequestRecordIngest.safeParse({
      events: [
        [1, 2, "content", null],
        [3, 4, "nope", null]
      ]
    });
    expect(r.success).toBe(false);
    expect(r.error!.issues.find((i) => i.path[0] === "events")).toMatchObject({
      path: ["events", 1, 2],
      message: 'unknown event kind "nope"'
    });
  });

  it("has the same shape as RequestRecord apart from the events check", () => {
    expect(Object.keys(RequestRecordIngest.shape).sort()).toEqual(Object.keys(RequestRecord.shape).sort());
  });
});
