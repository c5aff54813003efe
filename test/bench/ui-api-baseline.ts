import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import type { ProbeMarks } from './ui-page-probe';

export type ApiRequest = ProbeMarks['requests'][number];

/**
 * The app's requests of one interaction in the order it made them: a request joins the current
 * wave when it started before every request of that wave had finished (the app sent them side
 * by side), else it opens the next wave (the app waited for an answer before sending it).
 */
export function waves(requests: readonly ApiRequest[]): string[][] {
  const sorted = [...requests].sort((a, b) => a.startTime - b.startTime);
  const result: string[][] = [];
  let waveEnd = -Infinity;
  for (const entry of sorted) {
    const path = new URL(entry.url).pathname + new URL(entry.url).search;
    if (result.length > 0 && entry.startTime < waveEnd) {
      result[result.length - 1].push(path);
      waveEnd = Math.min(waveEnd, entry.responseEnd);
    } else {
      result.push([path]);
      waveEnd = entry.responseEnd;
    }
  }
  return result;
}

/**
 * The API behind a UI figure, without the UI: the same requests, same waves, from Node over
 * keep-alive connections (as the browser's are), with the same session cookie. The time is what
 * any client would wait for the data; the UI figure minus this is the page's own share.
 */
export class ApiReplayer {
  private readonly pool: Pool;

  constructor(
    origin: string,
    private readonly cookie: string,
  ) {
    // Six connections per origin, like Chromium.
    this.pool = new Pool(origin, { connections: 6 });
  }

  async replay(requestWaves: readonly string[][]): Promise<number> {
    const started = performance.now();
    for (const wave of requestWaves) await Promise.all(wave.map((path) => this.get(path)));
    return performance.now() - started;
  }

  private async get(path: string): Promise<void> {
    const answer = await this.pool.request({ method: 'GET', path, headers: this.headers() });
    // The body is read whole, as the page's JSON.parse needs it whole.
    await answer.body.arrayBuffer();
    if (answer.statusCode !== 200) throw new Error(`the API baseline GET ${path} answered ${answer.statusCode}`);
  }

  /** One GET answered as JSON, for checks outside the timing. */
  async getJson(path: string): Promise<unknown> {
    const answer = await this.pool.request({ method: 'GET', path, headers: this.headers() });
    const text = await answer.body.text();
    if (answer.statusCode !== 200) throw new Error(`GET ${path} answered ${answer.statusCode}: ${text.slice(0, 200)}`);
    return JSON.parse(text) as unknown;
  }

  private headers(): Record<string, string> {
    return { cookie: this.cookie, 'x-requested-with': 'XMLHttpRequest' };
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
