import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { PROFILE, EXPORT_BYTES, type RemoteBenchWorld } from './remote-bench-world';

/**
 * The 50 MB export of the remote bench: the remote's kept export downloaded straight, through
 * the bare proxy and through the workstation, read by this process as a client would (chunk by
 * chunk, hashed), with the proxy's resident memory sampled from /proc every 20 ms. Its growth
 * is the peak during the download minus the RSS just before it.
 */
export interface ExportFigures {
  id: 'direct' | 'bare' | 'workstation';
  label: string;
  mbPerSecond: number;
  /** The bytes arrived whole: as many as the remote keeps, with its sha256. */
  whole: boolean;
  rssBeforeMb?: number;
  rssPeakMb?: number;
  growthMb?: number;
}

const rssMbOf = (pid: number): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

async function download(
  origin: string,
  path: string,
  headers: Record<string, string>,
  pid: number | undefined,
): Promise<{ seconds: number; bytes: number; sha256: string; before?: number; peak?: number }> {
  const before = pid === undefined ? undefined : rssMbOf(pid);
  let peak = before;
  const sampler = pid === undefined ? undefined : setInterval(() => (peak = Math.max(peak ?? 0, rssMbOf(pid))), 20);
  const started = performance.now();
  try {
    const reply = await fetch(`${origin}${path}`, { headers });
    if (reply.status !== 200 || !reply.body)
      throw new Error(`the export download answered ${reply.status}: ${(await reply.text()).slice(0, 200)}`);
    const hash = createHash('sha256');
    let bytes = 0;
    for await (const chunk of reply.body) {
      hash.update(chunk);
      bytes += chunk.byteLength;
    }
    return {
      seconds: (performance.now() - started) / 1000,
      bytes,
      sha256: hash.digest('hex'),
      before,
      peak: pid === undefined ? undefined : Math.max(peak ?? 0, rssMbOf(pid)),
    };
  } finally {
    clearInterval(sampler);
  }
}

export async function measureExports(world: RemoteBenchWorld): Promise<ExportFigures[]> {
  const ways = [
    {
      id: 'direct',
      label: 'straight from the remote',
      origin: world.remote.origin,
      headers: { authorization: world.remoteAuth },
      pid: undefined,
    },
    {
      id: 'bare',
      label: 'through the bare undici proxy',
      origin: world.bare.origin,
      headers: { authorization: world.remoteAuth },
      pid: world.bare.pid,
    },
    {
      id: 'workstation',
      label: "through the workstation's proxy",
      origin: world.workstation.origin,
      headers: { authorization: world.localAuth, 'x-workstation-workspace': PROFILE },
      pid: world.workstation.pid,
    },
  ] as const;
  const figures: ExportFigures[] = [];
  for (const way of ways) {
    const got = await download(way.origin, world.exportPath, way.headers, way.pid);
    figures.push({
      id: way.id,
      label: way.label,
      mbPerSecond: got.bytes / 1024 / 1024 / got.seconds,
      whole: got.bytes === EXPORT_BYTES && got.sha256 === world.exportSha256,
      rssBeforeMb: got.before,
      rssPeakMb: got.peak,
      growthMb: got.before === undefined || got.peak === undefined ? undefined : got.peak - got.before,
    });
  }
  return figures;
}
