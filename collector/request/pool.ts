import type {Agent} from "node:http";

import type {RunConfig} from "../../src/analysis/schema/config.ts";
import {CliError, EXIT} from "../cliError.ts";
import type {Files} from "../effects.ts";
import {createAgent, type CreateConnection} from "../http/agent.ts";

export interface Pool {
  /** The run's connections: keep-alive (`connection: reuse`) or one per request. */
  agent: Agent;
  /** A one-off pool that opens a fresh connection (for the one permitted re-send). */
  fresh: () => Agent;
}

/** The connection pool of a run's target, from its config (TLS trust read from `tls.ca_file`). */
export async function openPool(
  config: RunConfig,
  files: Pick<Files, "readFile">,
  createConnection?: CreateConnection
): Promise<Pool> {
  const t = config.target;
  let ca: Buffer | undefined;
  if (t.tls.ca_file !== undefined) {
    try {
      ca = await files.readFile(t.tls.ca_file);
    } catch (e) {
      throw new CliError(`target.tls.ca_file: cannot read ${t.tls.ca_file}: ${(e as Error).message}`, {
        exitCode: EXIT.usage
      });
    }
  }
  const make = (keepAlive: boolean) =>
    createAgent(t.base_url, {
      keepAlive,
      idleMs: t.keep_alive_ms,
      ...(ca === undefined ? {} : {ca}),
      ...(t.tls.insecure ? {rejectUnauthorized: false} : {}),
      ...(createConnection === undefined ? {} : {createConnection})
    });
  return {agent: make(t.connection === "reuse"), fresh: () => make(false)};
}
