import { fork } from 'node:child_process';
import { join } from 'node:path';
import { stopChild } from './child-process-stop';
import type { CleanupStack } from './cleanup-stack';
import { isLoadResult, type LoadJob, type LoadResult } from './load-protocol';

/** Runs one load job in a fresh generator process and returns what it measured. */
export function runLoad(job: LoadJob, cleanup: CleanupStack): Promise<LoadResult> {
  const child = fork(join(__dirname, 'load-generator.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  cleanup.push('stop load generator', () => stopChild(child, 1_000));
  // Generous: a stalled server must fail the bench, not hang it.
  const limitMs = (job.warmupSeconds + job.seconds) * 1000 + 30_000;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stopChild(child, 1_000);
      reject(new Error(`the load generator did not finish within ${limitMs / 1000} s`));
    }, limitMs);
    child.once('message', (message: unknown) => {
      clearTimeout(timer);
      if (isLoadResult(message)) resolve(message);
      else reject(new Error('the load generator answered with something that is not a result'));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the load generator exited (code ${code}) without a result`));
    });
    child.send(job);
  });
}
