import { fileKeyOf, pushRerunOf, pushTarget, rememberFile, timeText, type PushRerun } from './cli-rerun';
import { localAdmin, unlockProfile, workstationCall } from './cli-remote';
import { Run } from './cli-workbook';
import type { MemoryVault } from './remote/credential-vault';
import type { Service } from './service';
import type { RemoteProfile, SyncPushAnswer } from './service/contract/workstation-api';

/**
 * `workstation sync push <profile> <file.xlsx> | --workbook <id>`: stages the file for the
 * profile (or takes a staged workbook) and pushes it through POST /workstation/sync/<profile>/push/.
 * Run again on the same file content (main/cli-rerun.ts), it resumes the push an interruption
 * left, or says the file was pushed already and sends nothing.
 */
export interface PushValues {
  workbook?: string;
  hierarchy?: string;
  json?: boolean;
}

const err = (text: string): void => void process.stderr.write(`${text}\n`);
const processOutput = { stdout: (text: string) => process.stdout.write(text), stderr: (text: string) => process.stderr.write(text) };

async function pushCall(
  service: Service,
  profile: string,
  workbook: string,
): Promise<{ status: number; body: SyncPushAnswer & { message?: string } }> {
  const answer = await service.handleAs(localAdmin(service), {
    method: 'POST',
    url: `/workstation/sync/${encodeURIComponent(profile)}/push/`,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ workbook }),
  });
  const text = typeof answer.body === 'string' ? answer.body : Buffer.from(answer.body).toString('utf8');
  return { status: answer.status, body: JSON.parse(text) as SyncPushAnswer & { message?: string } };
}

/** What a run on a file pushed already prints: nothing is sent, exit 0. */
function alreadyPushed(rerun: Extract<PushRerun, { kind: 'done' }>, profile: string, file: string, json: boolean): number {
  if (json) {
    const document = {
      workbook: rerun.workbookId,
      already_pushed: true,
      remote_transaction_id: rerun.transactionId,
      pushed_at: rerun.at,
      loaded: rerun.rows,
    };
    process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  } else
    process.stdout.write(
      `${file}: already pushed in ${rerun.transactionId} at ${timeText(rerun.at)} (workbook ${rerun.workbookId}, ${rerun.rows} row(s) loaded on ${profile}); nothing sent\n`,
    );
  return 0;
}

/** The workbook to push: the one this file's content was staged as, or the file staged now. */
async function workbookOf(
  service: Service,
  vault: MemoryVault,
  profile: string,
  file: string,
  values: PushValues,
): Promise<{ id: string } | { code: number }> {
  const { profile: found } = await workstationCall<{ profile: RemoteProfile }>(
    service,
    'GET',
    `/workstation/remote-profiles/${encodeURIComponent(profile)}/`,
  );
  const key = await fileKeyOf(file, pushTarget(found.id), values.hierarchy);
  const rerun: PushRerun = key ? pushRerunOf(service.store, key) : { kind: 'new' };
  if (rerun.kind === 'done') return { code: alreadyPushed(rerun, found.name, file, values.json === true) };
  await unlockProfile(service, vault, profile);
  if (rerun.kind === 'resume') {
    err(`resuming the unfinished push of ${file} (workbook ${rerun.workbookId}, stopped when ${rerun.state}): nothing is staged again`);
    return { id: rerun.workbookId };
  }
  if (rerun.kind === 'again') {
    err(`${file} was staged as workbook ${rerun.workbookId} already: pushing that workbook (rows loaded before are not sent again)`);
    return { id: rerun.workbookId };
  }
  const staged = await new Run(service, processOutput, 'push', profile).stageFile(file, values.hierarchy);
  if (key) rememberFile(service.store, key, staged.id);
  return { id: staged.id };
}

export async function pushCommand(
  service: Service,
  vault: MemoryVault,
  profile: string,
  file: string | undefined,
  values: PushValues,
): Promise<number> {
  let id = values.workbook;
  try {
    if (file !== undefined) {
      const chosen = await workbookOf(service, vault, profile, file, values);
      if ('code' in chosen) return chosen.code;
      id = chosen.id;
    } else await unlockProfile(service, vault, profile);
  } catch (error) {
    err(`workstation: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  err(`pushing workbook ${id ?? ''} to ${profile}...`);
  const { status, body } = await pushCall(service, profile, id ?? '');
  if (status !== 200) {
    err(`workstation: ${body.message ?? `HTTP ${status}`}`);
    return 2;
  }
  if (values.json) process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
  else {
    const lines = [
      `${body.resumed ? 'resumed an interrupted push: ' : ''}${body.pushed} row(s) pushed${body.remote_transaction_id ? ` in remote transaction ${body.remote_transaction_id}` : ''}`,
      `workbook ${body.workbook}: ${body.loaded} loaded, ${body.failed} failed; kept back: ${body.conflicts} in conflict, ${body.errors} in error`,
      ...body.changed_since_plan.map(
        (change) =>
          `  changed since the last plan: ${change.sheet} row ${change.row}: ${change.was} -> ${change.now}${change.message ? ` (${change.message})` : ''}`,
      ),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  return body.failed + body.conflicts + body.errors > 0 ? 1 : 0;
}
