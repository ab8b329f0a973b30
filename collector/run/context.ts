import type {RunConfig} from "../../src/analysis/schema/config.ts";
import type {Manifest} from "../../src/analysis/schema/index.ts";
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
   * Text files added to the bundle just before it is sealed (role attachment, redacted), e.g. the log of
   * the server an experiment launched.
   */
  attachments?: () => Promise<{name: string; text: string}[]>;
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
