import {describe, expect, it} from "vitest";

import type {Exec} from "../../../collector/effects.ts";
import {parseChronyTracking, parseTimedatectl, probeTimeSync} from "../../../collector/env/timeSync.ts";

/** `chronyc tracking` as chrony's documentation prints it (chrony.tuxfamily.org, chronyc manual, "tracking"). */
const CHRONY = `Reference ID    : CB00710F (ntp1.example.net)
Stratum         : 3
Ref time (UTC)  : Fri Jan 27 09:49:17 2017
System time     : 0.000006523 seconds slow of NTP time
Last offset     : -0.000006747 seconds
RMS offset      : 0.000035822 seconds
Frequency       : 3.225 ppm slow
Residual freq   : -0.000 ppm
Skew            : 0.129 ppm
Root delay      : 0.013639022 seconds
Root dispersion : 0.001100737 seconds
Update interval : 64.9 seconds
Leap status     : Normal
`;

/** chronyd running without a reachable source. */
const CHRONY_UNSYNCED = `Reference ID    : 00000000 ()
Stratum         : 0
Ref time (UTC)  : Thu Jan 01 00:00:00 1970
System time     : 0.000000000 seconds fast of NTP time
Leap status     : Not synchronised
`;

/** `timedatectl show` (systemd) prints key=value lines. */
const TIMEDATECTL = `Timezone=Etc/UTC
LocalRTC=no
CanNTP=yes
NTP=yes
NTPSynchronized=yes
TimeUSec=Wed 2026-12-02 10:00:00 UTC
RTCTimeUSec=Wed 2026-12-02 10:00:00 UTC
`;

const fakeExec =
  (answers: Record<string, {code: number; stdout: string} | "missing">): Exec =>
  async (cmd) => {
    const a = answers[cmd] ?? "missing";
    return a === "missing"
      ? {ok: false, notFound: true, error: `${cmd} not found`}
      : {ok: true, code: a.code, stdout: a.stdout, stderr: ""};
  };

describe("host time synchronisation (issue 17)", () => {
  it("reads chrony's offset (6.523 µs slow = −0.006523 ms) and leap status", () => {
    const r = parseChronyTracking(CHRONY)!;
    expect(r.synchronized).toBe(true);
    expect(r.offsetMs).toBeCloseTo(-0.006523, 9);
    expect(parseChronyTracking(CHRONY_UNSYNCED)).toEqual({synchronized: false, offsetMs: null});
    expect(parseChronyTracking("506 Cannot talk to daemon")).toBeNull();
  });

  it("reads timedatectl's NTPSynchronized", () => {
    expect(parseTimedatectl(TIMEDATECTL)).toBe(true);
    expect(parseTimedatectl(TIMEDATECTL.replace("NTPSynchronized=yes", "NTPSynchronized=no"))).toBe(false);
    expect(parseTimedatectl("Timezone=UTC\n")).toBeNull();
  });

  it("asks chronyc first, then timedatectl, and is unknown — never synchronised — when neither answers", async () => {
    const chrony = await probeTimeSync(fakeExec({chronyc: {code: 0, stdout: CHRONY}}));
    expect(chrony).toMatchObject({source: "chronyc", synchronized: true, reason: null});
    const td = await probeTimeSync(
      fakeExec({chronyc: {code: 1, stdout: "506 Cannot talk to daemon"}, timedatectl: {code: 0, stdout: TIMEDATECTL}})
    );
    expect(td).toEqual({source: "timedatectl", synchronized: true, offsetMs: null, raw: TIMEDATECTL, reason: null});
    const none = await probeTimeSync(fakeExec({}));
    expect(none).toEqual({
      source: null,
      synchronized: null,
      offsetMs: null,
      raw: null,
      reason: "chronyc not found; timedatectl not found"
    });
  });
});
