import {chmodSync, writeFileSync} from "node:fs";
import {join} from "node:path";

import {REPO_ROOT} from "../helpers.ts";

/**
 * Writes a fake `docker` executable into `dir` that records every call (calls.jsonl) and emulates the
 * subcommands the docker launcher uses: `run` starts the fake server detached on the published host port,
 * `update --restart=…`, `stop` (like a daemon that honours a restart policy: a container whose policy is not
 * "no" comes back after a stop — the pessimistic case teardown must survive), `rm -f`, `inspect`, `logs`.
 */
export function writeFakeDocker(dir: string): string {
  const path = join(dir, "docker");
  const script = `#!${process.execPath}
const fs = require("node:fs");
const path = require("node:path");
const {spawn} = require("node:child_process");
const state = process.env.FAKE_DOCKER_DIR;
const argv = process.argv.slice(2);
fs.appendFileSync(path.join(state, "calls.jsonl"), JSON.stringify(argv) + "\\n");
const file = (name) => path.join(state, name + ".json");
const read = (name) => (fs.existsSync(file(name)) ? JSON.parse(fs.readFileSync(file(name), "utf8")) : null);
const write = (name, c) => fs.writeFileSync(file(name), JSON.stringify(c));
const kill = (pid) => { try { process.kill(-pid, "SIGKILL"); } catch {} };
const start = (c) => {
  const log = fs.openSync(path.join(state, c.name + ".log"), "a");
  const child = spawn(${JSON.stringify(process.execPath)}, ["collector/cli.ts", "fake-server", "--port", String(c.hostPort), "--options", '{"ttftMs":5,"tokenIntervalMs":2}'], {cwd: ${JSON.stringify(REPO_ROOT)}, detached: true, stdio: ["ignore", log, log]});
  child.unref();
  c.pid = child.pid; c.status = "running";
  fs.appendFileSync(path.join(state, "pids.log"), child.pid + "\\n");
};
const [cmd, ...rest] = argv;
const name = rest[rest.length - 1];
if (cmd === "run") {
  const opt = (flag) => { const i = rest.indexOf(flag); return i === -1 ? null : rest[i + 1]; };
  const env = rest.filter((a, i) => rest[i - 1] === "--env");
  const c = {name: opt("--name"), restart: opt("--restart") || "no", hostPort: Number(opt("--publish").split(":")[1]), env};
  start(c); write(c.name, c); console.log("f00d" + c.pid);
} else if (cmd === "update") {
  const c = read(name); if (!c) { console.error("Error: No such container: " + name); process.exit(1); }
  c.restart = rest.find((a) => a.startsWith("--restart=")).split("=")[1]; write(name, c);
} else if (cmd === "stop") {
  const c = read(name); if (!c) { console.error("Error: No such container: " + name); process.exit(1); }
  kill(c.pid); c.status = "exited";
  if (c.restart !== "no") start(c); // the daemon brings it back
  write(name, c);
} else if (cmd === "rm") {
  const c = read(name); if (c) { kill(c.pid); fs.unlinkSync(file(name)); }
} else if (cmd === "inspect") {
  const c = read(name); if (!c) { console.error("Error: No such object: " + name); process.exit(1); }
  console.log(c.status + " 0");
} else if (cmd === "logs") {
  // like a server that prints its configuration at start: the environment it was given, secrets included
  const c = read(name); if (c) process.stdout.write(c.env.map((e) => "env " + e + "\\n").join(""));
  const p = path.join(state, name + ".log"); process.stdout.write(fs.existsSync(p) ? fs.readFileSync(p, "utf8") : "");
} else { console.error("fake docker: unsupported " + cmd); process.exit(125); }
`;
  writeFileSync(path, script);
  chmodSync(path, 0o755);
  return path;
}
