import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createService } from '../../main/service';
import { startHttpServer } from '../../main/host/http-server';

/**
 * The service as `serve` runs it, in a child process of the sheets bench, with the event loop's
 * delay measured inside (perf_hooks.monitorEventLoopDelay): the bench asks over IPC for the
 * figures of each job, `reset` before it and `stats` after. Argument: the data folder.
 */
async function main(): Promise<void> {
  const dataDir = process.argv[2];
  const service = await createService({ dataDir, adminPassword: process.env.WORKSTATION_ADMIN_PASSWORD });
  const host = await startHttpServer({ service, port: 0 });
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  process.on('message', (message: string) => {
    if (message === 'reset') {
      delay.reset();
      process.send?.({ type: 'reset' });
    } else if (message === 'stats') {
      process.send?.({ type: 'stats', p99Ms: delay.percentile(99) / 1e6, maxMs: delay.max / 1e6 });
    }
  });
  process.stdout.write(`listening on ${host.url}\n`);
}

void main();
