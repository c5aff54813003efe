import { performance } from 'node:perf_hooks';
import type { BenchConfig } from './bench-config';
import type { ChildServer } from './child-server';
import type { CleanupStack } from './cleanup-stack';
import type { LoadResult } from './load-protocol';
import { runLoad } from './run-load';

export interface HttpMeasurement {
  result: LoadResult;
  /** The server process's CPU over the job, in % of one core (warm-up included). */
  serverCpuPercent: number | undefined;
}

/** One load job against one server, with the server's CPU use beside the generator's figures. */
export async function measureHttp(
  server: ChildServer,
  paths: string[],
  authorization: string,
  clients: number,
  config: BenchConfig,
  cleanup: CleanupStack,
): Promise<HttpMeasurement> {
  process.stderr.write(`bench: ${server.label}, ${clients} clients, ${config.warmupSeconds} s warm-up + ${config.seconds} s...\n`);
  const cpuBefore = server.cpuSeconds();
  const started = performance.now();
  const result = await runLoad(
    { origin: server.origin, paths, headers: { authorization }, clients, warmupSeconds: config.warmupSeconds, seconds: config.seconds },
    cleanup,
  );
  const elapsedSeconds = (performance.now() - started) / 1000;
  const cpuAfter = server.cpuSeconds();
  const serverCpuPercent = cpuBefore === undefined || cpuAfter === undefined ? undefined : ((cpuAfter - cpuBefore) / elapsedSeconds) * 100;
  return { result, serverCpuPercent };
}
