import type { ViewerOpenRequest } from '../../../main/service/contract/viewer-api';
import type { WorkbookAnswer, WorkbookState } from '../../../main/service/contract/workbook-api';
import type { ApiClient } from '../api/api-client';

/**
 * "Edit as workbook": stages an export (or an upload) as a workbook and answers its id once its
 * rows are stored. The workbook grid reads sheets that staging has written, so it is opened only
 * after staging, as the Workbooks list opens none before. The service's `workbook` events say
 * when; a transport without events is asked now and then instead.
 */
const WORKBOOKS = '/workstation/workbooks/';
const WAIT_MS = 120_000;
const ASK_EVERY_MS = 500;

export async function stageWorkbook(client: ApiClient, request: ViewerOpenRequest & { name?: string }): Promise<string> {
  const answer = await client.send<WorkbookAnswer>('POST', WORKBOOKS, request);
  const { id } = answer.workbook;
  const stateNow = async (): Promise<WorkbookState> =>
    (await client.get<WorkbookAnswer>(`${WORKBOOKS}${encodeURIComponent(id)}/`)).workbook.state;
  if (answer.workbook.state !== 'staging') return id;
  await new Promise<void>((resolve) => {
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      clearInterval(asking);
      clearTimeout(giveUp);
      stop?.();
      resolve();
    };
    const check = (): void => void stateNow().then((state) => state !== 'staging' && finish(), finish);
    const stop = client.transport.onEvent?.((event) => {
      if (event.type === 'workbook' && event.id === id && event.state !== 'staging') finish();
    }, check);
    // Without events (or between a missed event and the next), asking settles it.
    const asking = setInterval(check, client.transport.onEvent ? ASK_EVERY_MS * 4 : ASK_EVERY_MS);
    // A workbook that never leaves staging opens as it is: the grid says what it can.
    const giveUp = setTimeout(finish, WAIT_MS);
    check();
  });
  return id;
}
