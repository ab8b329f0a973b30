import type {Agent} from "node:http";

import type {HttpClient, RunConfig} from "../../src/analysis/schema/config.ts";
import {CliError, EXIT} from "../cliError.ts";
import type {Files} from "../effects.ts";
import {createAgent, type CreateConnection} from "../http/agent.ts";
import {SocketPool} from "../http/socketPool.ts";
import type {Connections} from "../http/streamTypes.ts";

export interface Pool {
  /**
   * The run's connections: keep-alive (`connection: reuse`) or one per request, through node:http's agent or
   * the bare-socket pool (`http_client`); streamRequest picks the transport from it.
   */
  readonly agent: Connections;
  /** A one-off pool that opens a fresh connection (for the one permitted re-send). */
  fresh: () => Connections;
  /** How connections are used now, and why it differs from the config (null when it does not). */
  readonly connection: "reuse" | "per_request";
  /** The transport the connections use (read from the pool itself, so the manifest states what ran). */
  readonly httpClient: HttpClient;
  readonly note: string | null;
  /** Switches to one connection per request for the rest of the run (the server does not keep connections). */
  perRequest(reason: string): void;
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
  const make = (keepAlive: boolean): Connections => {
    const o = {
      keepAlive,
      idleMs: t.keep_alive_ms,
      ...(ca === undefined ? {} : {ca}),
      ...(t.tls.insecure ? {rejectUnauthorized: false} : {}),
      ...(createConnection === undefined ? {} : {createConnection})
    };
    return t.http_client === "socket" ? new SocketPool(t.base_url, o) : createAgent(t.base_url, o);
  };
  let agent = make(t.connection === "reuse");
  let connection = t.connection;
  let note: string | null = null;
  return {
    get agent() {
      return agent;
    },
    get connection() {
      return connection;
    },
    get httpClient() {
      return agent instanceof SocketPool ? "socket" : "node_http";
    },
    get note() {
      return note;
    },
    fresh: () => make(false),
    perRequest(reason) {
      if (connection === "per_request") return;
      agent.destroy();
      agent = make(false);
      connection = "per_request";
      note = reason;
    }
  };
}

/** Sockets the pool keeps open for reuse now. */
export function parkedSockets(agent: Connections): number {
  if (agent instanceof SocketPool) return agent.parked;
  return count(agent.freeSockets);
}

/** Sockets the pool holds open now, in use or parked. */
export function openSockets(agent: Connections): number {
  if (agent instanceof SocketPool) return agent.open;
  return count(agent.sockets) + count(agent.freeSockets);
}

function count(group: Agent["sockets"]): number {
  let n = 0;
  for (const list of Object.values(group)) n += list?.length ?? 0;
  return n;
}
