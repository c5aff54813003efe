import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiClient, type SyncSuccess, type TransactionRef } from './api-client';
import { cleanupServers, LISTENING_LINE, PASSWORD_LINE, startServe, tempDataDir } from './serve-process';
import { getTransaction } from './transactions-api';

/**
 * What a user sees when starting server mode: the lines printed, the port, the one-time admin
 * password, and a clean stop on SIGTERM and SIGINT that leaves the workspace usable.
 */
afterAll(cleanupServers);

const HIERARCHY_LIST = '/api/data/HierarchyNode/?hierarchy=sys';

/** Distinct two-capital codes (the ISO code pattern): AA, AB ... */
const isoCode = (i: number): string => String.fromCharCode(65 + Math.floor(i / 26), 65 + (i % 26));

describe('serve start-up contract', () => {
  it('prints exactly the listening line first, on a real free port', async () => {
    const server = await startServe({ dataDir: tempDataDir() });
    expect(server.stdoutLines[0]).toMatch(LISTENING_LINE);
    expect(server.port).toBeGreaterThan(0);
    const answer = await new ApiClient(server.url).get(HIERARCHY_LIST);
    expect(answer.status).toBe(200);
    expect(await server.stop()).toEqual({ code: 0, signal: null });
  });

  it('prints a random admin password once, and that password works', async () => {
    const dataDir = tempDataDir();
    const first = await startServe({ dataDir, adminPassword: null });
    const passwordLines = first.stdoutLines.filter((line) => PASSWORD_LINE.test(line));
    expect(passwordLines).toHaveLength(1);
    // The listening line is the readiness marker: nothing is printed after it.
    expect(first.stdoutLines.at(-1)).toMatch(LISTENING_LINE);
    const password = PASSWORD_LINE.exec(passwordLines[0])?.[1] ?? '';
    expect(password.length).toBeGreaterThanOrEqual(12);
    const api = new ApiClient(first.url, { username: 'admin', password });
    expect((await api.get(HIERARCHY_LIST)).status).toBe(200);
    expect(await first.stop()).toEqual({ code: 0, signal: null });

    const second = await startServe({ dataDir, adminPassword: null });
    expect(second.stdoutText).not.toMatch(/password/);
    expect(second.stdoutLines).toHaveLength(1);
    expect((await new ApiClient(second.url, { username: 'admin', password }).get(HIERARCHY_LIST)).status).toBe(200);
    expect(await second.stop()).toEqual({ code: 0, signal: null });
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('exits 0 on %s and the workspace reads back after a restart', async (signal) => {
    const dataDir = tempDataDir();
    const server = await startServe({ dataDir });
    const created = await new ApiClient(server.url).post<SyncSuccess>('/api/data/Countries/?hierarchy=sys', {
      data: { country_name: `Signal ${signal}`, iso_code: signal === 'SIGTERM' ? 'XT' : 'XI', international_prefix: '00' },
    });
    expect(created.status).toBe(200);
    expect(await server.stop(signal)).toEqual({ code: 0, signal: null });
    expect(existsSync(join(dataDir, 'workspaces', 'Local.sqlite'))).toBe(true);

    const again = await startServe({ dataDir });
    const read = await new ApiClient(again.url).get<{ data: { country_name: string } }>(created.body.href);
    expect(read.status).toBe(200);
    expect(read.body.data.country_name).toBe(`Signal ${signal}`);
    expect(await again.stop()).toEqual({ code: 0, signal: null });
  });

  it('lets queued nowait transactions finish before exiting on SIGTERM', async () => {
    const dataDir = tempDataDir();
    const server = await startServe({ dataDir });
    const api = new ApiClient(server.url);
    // One request first: it verifies the password, so the burst below is served from the cache.
    expect((await api.get(HIERARCHY_LIST)).status).toBe(200);
    // Fired all at once so that many are still queued in the engine when the signal lands.
    const answers = await Promise.all(
      Array.from({ length: 120 }, (_, i) =>
        api.post<TransactionRef>('/api/data/Countries/?hierarchy=sys&nowait=true', {
          data: { country_name: `Queued ${i}`, iso_code: isoCode(i), international_prefix: '00' },
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 202));
    const refs = answers.map((answer) => answer.body.transaction_id);
    expect(await server.stop('SIGTERM')).toEqual({ code: 0, signal: null });

    const again = await startServe({ dataDir });
    // A clean stop leaves nothing for the start-up recovery to cancel.
    expect(again.stdoutText).not.toMatch(/interrupted transaction/);
    const reader = new ApiClient(again.url);
    const statuses: string[] = [];
    for (const id of refs) statuses.push((await getTransaction(reader, id)).status);
    expect(new Set(statuses)).toEqual(new Set(['Success']));
    await again.stop();
  });
});
