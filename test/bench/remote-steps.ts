import { performance } from 'node:perf_hooks';
import type { BenchConfig } from './bench-config';
import type { Check } from './bench-targets';
import type { ChildServer } from './child-server';
import type { CleanupStack } from './cleanup-stack';
import type { LoadResult } from './load-protocol';
import { measureExports, type ExportFigures } from './remote-export';
import { openRemoteBenchWorld, PROFILE, type RemoteBenchWorld } from './remote-bench-world';
import { runLoad } from './run-load';
import { millis, perSecond, textTable } from './text-table';

/**
 * BENCH_ONLY=remote (and the end of the full bench): instance GETs of a remote deployment at 8
 * clients, in the same run, straight to the remote, through a bare undici pass-through proxy,
 * and through the workstation's proxy (a live workspace); then a 50 MB export streamed through
 * each, with the proxies' memory watched. The bare proxy is measured before and after the
 * workstation (A B B A, twice), so a drift of this shared VM's speed weighs on both sides alike.
 */
const CLIENTS = 8;
/** A B B A blocks (bare, workstation, workstation, bare): two, so one neighbour's burst weighs a quarter of a side, not half. */
const ROUNDS = 2;
const TARGETS = { ratio: 0.8, rssGrowthMb: 50 } as const;
const log = (line: string): void => void process.stderr.write(`bench: ${line}\n`);

interface PathRun {
  label: string;
  result: LoadResult;
  /** CPU of each process over the run, in % of one core. */
  cpu: Record<'remote' | 'proxy', number | undefined>;
}

/** One A B B A block: the bare proxy's two runs around the workstation's two. */
interface Block {
  bare: PathRun[];
  live: PathRun[];
}

export interface RemoteOutcome {
  checks: Check[];
  text: string;
}

async function measurePath(
  label: string,
  world: RemoteBenchWorld,
  origin: string,
  proxy: ChildServer | undefined,
  headers: Record<string, string>,
  config: BenchConfig,
  cleanup: CleanupStack,
): Promise<PathRun> {
  log(`remote: ${label}, ${CLIENTS} clients, ${config.warmupSeconds} s warm-up + ${config.seconds} s...`);
  const before = { remote: world.remote.cpuSeconds(), proxy: proxy?.cpuSeconds() };
  const started = performance.now();
  const result = await runLoad(
    { origin, paths: world.paths, headers, clients: CLIENTS, warmupSeconds: config.warmupSeconds, seconds: config.seconds },
    cleanup,
  );
  const elapsed = (performance.now() - started) / 1000;
  const percent = (from: number | undefined, to: number | undefined): number | undefined =>
    from === undefined || to === undefined ? undefined : ((to - from) / elapsed) * 100;
  return {
    label,
    result,
    cpu: { remote: percent(before.remote, world.remote.cpuSeconds()), proxy: percent(before.proxy, proxy?.cpuSeconds()) },
  };
}

/** One GET each way before timing: the same bytes, and the workstation's from the remote, not from its own empty store. */
async function checkPaths(world: RemoteBenchWorld): Promise<void> {
  const path = world.paths[0];
  const read = async (
    origin: string,
    headers: Record<string, string>,
  ): Promise<{ status: number; text: string; workspace: string | null }> => {
    const reply = await fetch(`${origin}${path}`, { headers });
    return { status: reply.status, text: await reply.text(), workspace: reply.headers.get('x-workstation-workspace') };
  };
  const direct = await read(world.remote.origin, { authorization: world.remoteAuth });
  const bare = await read(world.bare.origin, { authorization: world.remoteAuth });
  const live = await read(world.workstation.origin, { authorization: world.localAuth, 'x-workstation-workspace': PROFILE });
  const local = await read(world.workstation.origin, { authorization: world.localAuth });
  if (direct.status !== 200) throw new Error(`the remote answered ${path} with ${direct.status}: ${direct.text.slice(0, 200)}`);
  if (bare.text !== direct.text)
    throw new Error(`the bare proxy's answer differs from the remote's: ${bare.status} ${bare.text.slice(0, 200)}`);
  if (live.text !== direct.text || live.workspace !== PROFILE)
    throw new Error(`the workstation's live answer differs from the remote's: ${live.status} ${live.text.slice(0, 200)}`);
  if (local.status !== 404)
    throw new Error(`the workstation's Local store answered ${path} with ${local.status}: the live answers would prove nothing`);
}

export async function runRemoteBench(config: BenchConfig, cleanup: CleanupStack): Promise<RemoteOutcome> {
  log('remote: seeding the remote (demo world, a 50 MB kept export), starting it, the bare proxy and the workstation...');
  const world = await openRemoteBenchWorld(config, cleanup);
  try {
    await checkPaths(world);
    const remoteHeaders = { authorization: world.remoteAuth };
    const liveHeaders = { authorization: world.localAuth, 'x-workstation-workspace': PROFILE };
    const direct = await measurePath('direct to the remote', world, world.remote.origin, undefined, remoteHeaders, config, cleanup);
    const blocks: Block[] = [];
    for (let round = 1; round <= ROUNDS; round += 1) {
      const bare = (n: number): Promise<PathRun> =>
        measurePath(`bare undici proxy (${n})`, world, world.bare.origin, world.bare, remoteHeaders, config, cleanup);
      const live = (n: number): Promise<PathRun> =>
        measurePath(`workstation's proxy (${n})`, world, world.workstation.origin, world.workstation, liveHeaders, config, cleanup);
      const first = await bare(round * 2 - 1);
      const middle = [await live(round * 2 - 1), await live(round * 2)];
      blocks.push({ bare: [first, await bare(round * 2)], live: middle });
    }
    log('remote: 50 MB export straight, through the bare proxy and through the workstation...');
    const exports = await measureExports(world);
    return report(direct, blocks, exports);
  } finally {
    await Promise.all([world.workstation.stop(), world.bare.stop(), world.remote.stop()]);
  }
}

const meanRate = (runs: PathRun[]): number => runs.reduce((sum, run) => sum + run.result.perSecond, 0) / runs.length;

function report(direct: PathRun, blocks: Block[], exports: ExportFigures[]): RemoteOutcome {
  const runs = [direct, ...blocks.flatMap((block) => [block.bare[0], ...block.live, block.bare[1]])];
  const bare = meanRate(blocks.flatMap((block) => block.bare));
  const live = meanRate(blocks.flatMap((block) => block.live));
  const ratio = live / bare;
  const pct = (value: number): string => `${(value * 100).toFixed(1)}%`;
  const cpu = (value: number | undefined): string => (value === undefined ? '-' : `${value.toFixed(0)}%`);
  // Warm-up included in both the CPU and the time, so this is the mean cost of a request to the proxy process.
  const perRequest = (run: PathRun): string =>
    run.cpu.proxy === undefined ? '-' : `${((run.cpu.proxy / 100 / run.result.perSecond) * 1e6).toFixed(0)} µs`;
  const loadTable = textTable(
    ['path', 'clients', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'remote CPU', 'proxy CPU', 'proxy CPU/req', 'generator CPU'],
    runs.map((run) => [
      run.label,
      String(CLIENTS),
      perSecond(run.result.perSecond),
      millis(run.result.p50Ms),
      millis(run.result.p99Ms),
      String(run.result.errors),
      cpu(run.cpu.remote),
      cpu(run.cpu.proxy),
      perRequest(run),
      cpu(run.result.generatorCpuPercent),
    ]),
    new Set([1, 2, 3, 4, 5, 6, 7, 8, 9]),
  );
  const exportTable = textTable(
    ['50 MB export', 'MB/s', 'bytes whole', 'proxy RSS before MB', 'proxy RSS peak MB', 'growth MB'],
    exports.map((e) => [
      e.label,
      e.mbPerSecond.toFixed(0),
      e.whole ? 'yes' : 'NO',
      e.rssBeforeMb === undefined ? '-' : e.rssBeforeMb.toFixed(0),
      e.rssPeakMb === undefined ? '-' : e.rssPeakMb.toFixed(0),
      e.growthMb === undefined ? '-' : e.growthMb.toFixed(1),
    ]),
    new Set([1, 3, 4, 5]),
  );
  const workstationExport = exports.find((e) => e.id === 'workstation');
  const growth = workstationExport?.growthMb ?? Number.POSITIVE_INFINITY;
  const checks: Check[] = [
    {
      subject: "instance GET through the workstation's proxy",
      target: `req/s >= ${pct(TARGETS.ratio)} of the bare undici proxy (means of ${ROUNDS} A B B A blocks)`,
      measured: `${perSecond(live)}/s vs ${perSecond(bare)}/s = ${pct(ratio)}`,
      pass: ratio >= TARGETS.ratio,
    },
    {
      subject: "50 MB export through the workstation's proxy",
      target: `RSS growth < ${TARGETS.rssGrowthMb} MB`,
      measured: `${growth.toFixed(1)} MB`,
      pass: growth < TARGETS.rssGrowthMb,
    },
    ...exports.map((e) => ({
      subject: `50 MB export, ${e.label}`,
      target: 'every byte, unchanged',
      measured: e.whole ? 'sha256 equal' : 'different bytes',
      pass: e.whole,
    })),
    ...runs.map((run) => ({
      subject: `instance GET, ${run.label}`,
      target: 'no failed requests',
      measured: `${run.result.errors} errors${run.result.errorSamples.length ? ` (${run.result.errorSamples.join('; ')})` : ''}`,
      pass: run.result.errors === 0,
    })),
  ];
  const perBlock = blocks.map((block) => pct(meanRate(block.live) / meanRate(block.bare))).join(', ');
  const scale = `Workstation / bare per A B B A block: ${perBlock}. For scale: the bare proxy reaches ${pct(bare / direct.result.perSecond)} of direct, the workstation's proxy ${pct(live / direct.result.perSecond)}.`;
  const lines = checks.map((c) => `${c.pass ? 'PASS' : 'FAIL'}  ${c.subject}: ${c.measured} (target ${c.target})`);
  return {
    checks,
    text: `Remote (a second serve on 127.0.0.1 with the demo world, instance GETs of ${PROFILE}'s lines, phones, subscribers and numbers):\n${loadTable}\n${scale}\n${exportTable}\n${lines.join('\n')}`,
  };
}
