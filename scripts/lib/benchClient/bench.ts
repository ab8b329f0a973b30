import type {Agent} from "node:http";

import type {ServerChild} from "./serverChild.ts";

/** What every measurement of the bench gets: the fake server, a keep-alive pool, the report and the repetitions. */
export interface Bench {
  url: string;
  agent: Agent;
  server: ServerChild;
  /** Prints a line and keeps it for docs/client-benchmark.md. */
  say: (s: string) => void;
  reps: number;
}
