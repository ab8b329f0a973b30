/**
 * The folder the shards of one experiment share (`--barrier-dir`): one subfolder per experiment, named by its
 * plan digest, holding the phase barriers (collector/run/barrier.ts), the `left` markers, the heartbeats
 * (liveness.ts) and a sharded search's probes (searchExchange.ts).
 */
import {join} from "node:path";

/** The folder of one experiment's barriers. */
export const experimentFolder = (dir: string, planSha256: string): string => join(dir, planSha256.slice(0, 16));
