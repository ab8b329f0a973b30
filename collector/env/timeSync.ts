/**
 * The host's clock synchronisation (issue 17): how far this host's wall clock may be from the other shards'.
 * `chronyc tracking` reports the offset from NTP time; `timedatectl show` only whether the clock is
 * synchronised. Neither answering is "unknown", never "synchronised".
 */
import type {TimeSync} from "../../src/analysis/schema/shard.ts";
import type {Exec} from "../effects.ts";

const TIMEOUT_MS = 3000;
const RAW_MAX = 2000;

/**
 * `chronyc tracking`: "System time : 0.000012345 seconds fast of NTP time" (slow: behind) and
 * "Leap status : Normal" ("Not synchronised" when chronyd has no source).
 */
export function parseChronyTracking(text: string): Pick<TimeSync, "synchronized" | "offsetMs"> | null {
  const leap = /^Leap status\s*:\s*(.+)$/m.exec(text)?.[1]?.trim() ?? null;
  const sys = /^System time\s*:\s*([0-9.]+)\s+seconds\s+(fast|slow)\s+of NTP time/m.exec(text);
  if (leap === null && sys === null) return null;
  const offsetMs = sys === null ? null : Number(sys[1]) * 1000 * (sys[2] === "slow" ? -1 : 1);
  const synchronized = leap === null ? null : !/not synchronised/i.test(leap);
  return {synchronized, offsetMs: synchronized === false ? null : offsetMs};
}

/** `timedatectl show`: "NTPSynchronized=yes|no". */
export function parseTimedatectl(text: string): boolean | null {
  const v = /^NTPSynchronized=(yes|no)$/m.exec(text)?.[1];
  return v === undefined ? null : v === "yes";
}

/** Asks chronyc, then timedatectl; unknown with the reasons when neither answers. */
export async function probeTimeSync(exec: Exec): Promise<TimeSync> {
  const reasons: string[] = [];
  const chrony = await exec("chronyc", ["tracking"], {timeoutMs: TIMEOUT_MS});
  if (chrony.ok && chrony.code === 0) {
    const parsed = parseChronyTracking(chrony.stdout);
    if (parsed !== null) return {source: "chronyc", ...parsed, raw: chrony.stdout.slice(0, RAW_MAX), reason: null};
    reasons.push("chronyc tracking: unrecognised output");
  } else reasons.push(chrony.ok ? `chronyc exited ${chrony.code}` : chrony.error);
  const td = await exec("timedatectl", ["show"], {timeoutMs: TIMEOUT_MS});
  if (td.ok && td.code === 0) {
    const synced = parseTimedatectl(td.stdout);
    if (synced !== null)
      return {
        source: "timedatectl",
        synchronized: synced,
        offsetMs: null,
        raw: td.stdout.slice(0, RAW_MAX),
        reason: null
      };
    reasons.push("timedatectl show: no NTPSynchronized line");
  } else reasons.push(td.ok ? `timedatectl exited ${td.code}` : td.error);
  return {source: null, synchronized: null, offsetMs: null, raw: null, reason: reasons.join("; ")};
}
