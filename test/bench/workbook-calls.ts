import type { WorkbookInfo } from '../../main/service/contract/workbook-api';
import type { Server } from './sheets-steps';

/** The workstation's workbook endpoints as the benches call them: over real HTTP, as the admin. */
export async function call<T>(
  server: Pick<Server, 'origin'>,
  authorization: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const reply = await fetch(`${server.origin}${path}`, {
    method,
    headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (reply.status >= 300) throw new Error(`${method} ${path} answered ${reply.status}: ${(await reply.text()).slice(0, 300)}`);
  return (await reply.json()) as T;
}

export const info = async (server: Pick<Server, 'origin'>, authorization: string, id: string): Promise<WorkbookInfo> =>
  (await call<{ workbook: WorkbookInfo }>(server, authorization, 'GET', `/workstation/workbooks/${id}/`)).workbook;

/**
 * Polls the workbook until its state leaves `states`, every 25 ms: a job's end is then seen
 * within about 12 ms on average (0.25% of a 5 s job), while polling every 10 ms put 100 requests
 * a second on the server being measured (each a workbook with its counts per column).
 */
export async function waitWhile(
  server: Pick<Server, 'origin'>,
  authorization: string,
  id: string,
  states: string[],
): Promise<WorkbookInfo> {
  for (;;) {
    const now = await info(server, authorization, id);
    if (!states.includes(now.state)) return now;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
