import { performance } from 'node:perf_hooks';
import { Client } from 'undici';
import { dispatchGet } from './dispatch-get';
import { summarise } from './latency-stats';
import { isLoadJob, type LoadJob, type LoadResult } from './load-protocol';

/**
 * The load generator, run as its own process (forked by run-load.ts) so its event loop and CPU
 * never share the server's. N clients, each one keep-alive connection issuing requests back to
 * back; only requests started after the warm-up are timed.
 */
class Recorder {
  readonly latencies: number[] = [];
  bytes = 0;
  errors = 0;
  readonly errorSamples = new Set<string>();

  error(message: string): void {
    this.errors += 1;
    if (this.errorSamples.size < 5) this.errorSamples.add(message);
  }
}

async function clientLoop(
  client: Client,
  job: LoadJob,
  offset: number,
  window: { from: number; end: number },
  recorder: Recorder,
): Promise<void> {
  let next = offset;
  while (performance.now() < window.end) {
    const path = job.paths[next % job.paths.length];
    next += 1;
    const started = performance.now();
    try {
      // The whole body is received and counted, as a real client would read it.
      const { status, bytes } = await dispatchGet(client, path, job.headers);
      const elapsed = performance.now() - started;
      if (status !== 200) recorder.error(`HTTP ${status} on ${path}`);
      else if (started >= window.from) {
        recorder.latencies.push(elapsed);
        recorder.bytes += bytes;
      }
    } catch (error) {
      recorder.error(error instanceof Error ? error.message : String(error));
    }
  }
}

export async function runJob(job: LoadJob): Promise<LoadResult> {
  const clients = Array.from({ length: job.clients }, () => new Client(job.origin, { pipelining: 1, keepAliveTimeout: 30_000 }));
  const recorder = new Recorder();
  const cpuStart = process.cpuUsage();
  const started = performance.now();
  const window = { from: started + job.warmupSeconds * 1000, end: started + (job.warmupSeconds + job.seconds) * 1000 };
  const stride = Math.max(1, Math.floor(job.paths.length / job.clients));
  try {
    await Promise.all(clients.map((client, index) => clientLoop(client, job, index * stride, window, recorder)));
  } finally {
    await Promise.all(clients.map((client) => client.close()));
  }
  const cpu = process.cpuUsage(cpuStart);
  const elapsedMs = performance.now() - started;
  const summary = summarise(recorder.latencies, job.seconds);
  return {
    ...summary,
    errors: recorder.errors,
    errorSamples: [...recorder.errorSamples],
    meanResponseBytes: summary.count > 0 ? recorder.bytes / summary.count : 0,
    generatorCpuPercent: ((cpu.user + cpu.system) / 1000 / elapsedMs) * 100,
  };
}

// One job per process: the parent sends it, gets the result back, and the process exits.
process.once('message', (message: unknown) => {
  if (!isLoadJob(message) || !process.send) {
    process.stderr.write('load generator: expected one load job over IPC\n');
    process.exit(2);
  }
  runJob(message).then(
    (result) => process.send?.(result, () => process.exit(0)),
    (error: unknown) => {
      process.stderr.write(`load generator: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
});
