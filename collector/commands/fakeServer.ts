import type {Command} from "commander";

import {CliError, EXIT} from "../cliError.ts";
import {listScenarios, resolveScenario} from "../fake/scenarios.ts";
import {startFakeServer, type FakeServer} from "../fake/server.ts";

export interface FakeServerCliOptions {
  port: string;
  host: string;
  scenario: string;
  sendLog?: string;
  options?: string;
  listScenarios?: boolean;
}

/**
 * Runs the fake server until SIGINT/SIGTERM. Prints the listening URL as one line on stdout.
 * Resolves once the server has closed (so the process can exit on its own).
 */
export async function runFakeServer(o: FakeServerCliOptions, out: (line: string) => void = console.log): Promise<void> {
  if (o.listScenarios === true) {
    for (const line of listScenarios()) out(line);
    return;
  }
  const port = Number(o.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new CliError(`fake-server: invalid --port ${JSON.stringify(o.port)}`, {exitCode: EXIT.usage});
  let extra: Record<string, unknown> | undefined;
  if (o.options !== undefined) {
    try {
      extra = JSON.parse(o.options) as Record<string, unknown>;
    } catch {
      throw new CliError(`fake-server: --options is not valid JSON: ${JSON.stringify(o.options)}`, {
        exitCode: EXIT.usage
      });
    }
  }
  try {
    resolveScenario(o.scenario);
  } catch (e) {
    throw new CliError(`fake-server: ${(e as Error).message}`, {exitCode: EXIT.usage});
  }
  let server: FakeServer;
  try {
    server = await startFakeServer({
      port,
      host: o.host,
      scenario: o.scenario,
      ...(extra === undefined ? {} : {options: extra}),
      // A long-running CLI server keeps only the file log (if any), never an unbounded in-memory one.
      recordSendLog: false,
      ...(o.sendLog === undefined ? {} : {sendLogFile: o.sendLog})
    });
  } catch (e) {
    // Bad option values, a port in use, an unwritable send-log path: all usage errors.
    throw new CliError(`fake-server: ${(e as Error).message}`, {exitCode: EXIT.usage, cause: e});
  }
  out(server.url);
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      void server.close().then(resolve);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}

/** `fake-server [--port N] [--scenario NAME] [--host 127.0.0.1] [--send-log FILE] [--options JSON] [--list-scenarios]` */
export function register(program: Command): void {
  program
    .command("fake-server")
    .description("scripted OpenAI-compatible server for tests, failure demos and client calibration")
    .option("--port <n>", "port (0 = a free port)", "0")
    .option("--host <addr>", "address to listen on", "127.0.0.1")
    .option(
      "--scenario <name>",
      "scenario name (see --list-scenarios); requests may override it with x-fake-scenario",
      "default"
    )
    .option("--send-log <file>", "append the server's own send time of every write to this JSONL file")
    .option("--options <json>", 'scenario option overrides, e.g. \'{"ttftMs":0,"tokenIntervalMs":1}\'')
    .option("--list-scenarios", "print the scenario names and exit")
    .action(async (o: FakeServerCliOptions) => {
      await runFakeServer(o);
    });
}
