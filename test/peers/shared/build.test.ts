import {describe, expect, it} from "vitest";

import {isoFromEpochMs, isoFromLocal} from "../../../src/analysis/peers/shared/build.ts";

describe("peer parsing helpers", () => {
  it("ISO conversions without a clock: epoch ms, zone-less local stamps read as UTC", () => {
    for (const ms of [0, 1704851704000, 1772470696679.25, -86_400_000])
      expect(isoFromEpochMs(ms)).toBe(new Date(Math.round(ms)).toISOString());
    expect(isoFromLocal("20240907-082900")).toBe("2024-09-07T08:29:00.000Z");
    expect(isoFromLocal("2025-10-03T13:13:39.146443")).toBe("2025-10-03T13:13:39.146Z");
    expect(isoFromLocal("2025-08-01T10:00:00+00:00")).toBe("2025-08-01T10:00:00.000+00:00");
    expect(isoFromLocal("yesterday")).toBeNull();
  });
});
