import type {RunConfig, SearchSpec} from "../../src/analysis/schema/config.ts";
import type {Slice} from "../../src/analysis/schema/shard.ts";
import type {LoadPoint, Manifest, RequestRecord} from "../../src/analysis/schema/index.ts";
import type {Gsm8kSource} from "../cases/gsm8k.ts";
import type {SuiteSetup} from "../cases/suite.ts";
import type {Effects} from "../effects.ts";
import type {CreateConnection} from "../http/agent.ts";
import type {RunControl} from "../load/control.ts";
import type {Pacer} from "../load/pacer.ts";
import type {PlannedPoint} from "../load/plan.ts";
import type {Progress} from "../load/progress.ts";
import type {Redactor} from "../redact.ts";
import type {Pool} from "../request/pool.ts";
import type {RequestTarget} from "../request/send.ts";
import type {StreamFn} from "../request/types.ts";

export type BundleStatus = Manifest["status"];

/** A search probe's verdict as the collector needs it; `summary` is opaque (handed back as `lower`). */
export interface ProbeJudgement {
  status: "pass" | "fail" | "not_evaluable";
  margin: number | null;
  reason: string;
  summary: unknown;
}

/**
 * Judges one probe of the search `search` (its index in `load`) from the request records written for it
 * (measured ones count), against the summary of the nearest lower probe measured before it (null: none).
 */
export type ProbeJudge = (
  search: SearchSpec,
  records: readonly Omit<RequestRecord, "seq">[],
  point: LoadPoint,
  lower: unknown
) => ProbeJudgement;

export interface CollectOptions {
  config: RunConfig;
  fx: Effects;
  stream: StreamFn;
  pacer: (clock: () => bigint) => Pacer;
  /** Parent folder of the bundle (`--out`), else config.output.dir. */
  outParent?: string | null;
  hostLabel?: string | null;
  progress?: Progress;
  /** Where GSM8K is downloaded from (tests point it at a local server). */
  gsm8kSource?: Gsm8kSource;
  /** How sockets are made (tests inject connect delays); default node's own. */
  createConnection?: CreateConnection;
  /**
   * The judge of a load search's probes (`load: {mode: search}`), injected by commands/collect.ts from the
   * analyzer (src/analysis/search), so the collector and the analyzer share one definition of "the SLO
   * holds at this probe". Required when the config has a search.
   */
  judgeProbe?: ProbeJudge;
  /**
   * Text files added to the bundle just before it is sealed (role attachment, redacted), e.g. the log of
   * the server an experiment launched.
   */
  attachments?: () => Promise<{name: string; text: string}[]>;
  /** Issue 17: this run is one shard of an experiment (`--shard K/N`), started at `startAtMs` (wall, ms). */
  shard?: ShardRun | null;
}

/** The shards' phase barrier (collector/run/barrier.ts). */
export interface BarrierOptions {
  /** The folder shared by every shard; each experiment (plan digest) and phase gets its own subfolder. */
  dir: string;
  /** How long a shard waits for the others before it starts alone (noted; G32 then judges the spread). */
  timeoutMs: number;
  /** How often a shard rewrites its heartbeat, and how long a peer's may stand still before it is taken as
   * gone; both derived from the timeout unless given (collector/run/liveness.ts). */
  heartbeatMs?: number;
  silentMs?: number;
}

/** Which shard of an experiment a run is, and the absolute time all shards start their load at. */
export interface ShardRun {
  slice: Slice;
  startAtMs: number | null;
  /** Where the shards meet before the first measured phase and each after it (`--barrier-dir`), or null: no barrier. */
  barrier?: BarrierOptions | null;
}

export interface CollectOutcome {
  dir: string;
  status: BundleStatus;
  statusReason: string | null;
  manifest: Manifest | null;
  /** Set when evidence could not be written (the CLI exits 5). */
  writeFailure: string | null;
  interrupted: boolean;
}

/** One run as it goes: its options plus what collect() set up (plan, redactor, clock origin, pool, stop switch). */
export interface RunContext extends CollectOptions {
  points: PlannedPoint[];
  suite: SuiteSetup | null;
  apiKey: string | null;
  redact: Redactor;
  origin: bigint;
  startWall: number;
  /** ns since the run's origin (of `t`, default now). */
  rel: (t?: bigint) => number;
  control: RunControl;
  pool: Pool;
  target: RequestTarget;
  graceMs: number;
}

/** Where a bundle's identity lives: its folder name, its short id (also the run id in request ids). */
export interface BundleIdentity {
  bundleId: string;
  runId: string;
  dir: string;
}
