/**
 * A real memoryd server for the tests that need one: `memoryd serve` (the
 * repository's .venv/bin/memoryd, or MEMORYD_BIN) as a child process on a free
 * loopback port, with a data directory of its own.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** dist/test/ -> the repository root. */
const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const LISTENING = /memoryd listening on [^\s:]+:(\d+)/;
const START_TIMEOUT_MS = 120_000;

/** A running memoryd: its address, its log so far, and how to stop it. */
export interface RealServer {
  readonly address: string;
  readonly log: string[];
  /** Stops the server (SIGTERM) and removes its data directory; resolves to its exit code. */
  stop(): Promise<number | null>;
}

/** The memoryd executable: MEMORYD_BIN, else the repository's .venv/bin/memoryd. */
export function memorydBin(): string {
  const bin = process.env["MEMORYD_BIN"] ?? join(ROOT, ".venv", "bin", "memoryd");
  if (!existsSync(bin)) {
    throw new Error(`no memoryd at ${bin}: run 'make install' at the repository root, or set MEMORYD_BIN`);
  }
  return bin;
}

/** Starts `memoryd serve --port 0` and resolves once it logs the port it listens on. */
export async function startServer(): Promise<RealServer> {
  const bin = memorydBin();
  const dataDir = await mkdtemp(join(tmpdir(), "memoryd-ts-"));
  const child: ChildProcess = spawn(bin, ["serve", "--host", "127.0.0.1", "--port", "0", "--data-dir", dataDir], {
    env: { ...process.env, MEMORYD_LOG_LEVEL: "INFO" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const log: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const port = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`memoryd did not start in time:\n${log.join("")}`)), START_TIMEOUT_MS);
    const read = (chunk: Buffer) => {
      log.push(chunk.toString());
      const match = LISTENING.exec(log.join(""));
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`memoryd exited with ${String(code)} before it listened:\n${log.join("")}`));
    });
  }).catch(async (error: unknown) => {
    child.kill("SIGKILL");
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  });
  return {
    address: `127.0.0.1:${port}`,
    log,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
      }
      const code = await exited;
      await rm(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}
