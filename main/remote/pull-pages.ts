import { isJsonObject, type JsonObject } from '../service/api-types';
import type { HomeAnswer } from '../service/contract/home-node';
import { ApiError } from '../service/errors';
import { RemoteFault } from './remote-faults';
import { objectOf, textOf } from './json-fields';

/**
 * What a pull reads of a remote is checked before a line of it reaches the mirror. A page that
 * is not the JSON list it should be (a proxy's HTML page, JSON cut off, a compressed body nobody
 * asked for, another shape) once read as an empty list: the pull "succeeded" with 0 lines and
 * replaced the mirror, and every offline check after it ran against nothing. Now any of those
 * fails the whole pull with `remote-bad-answer`, and the last mirror stays as it was.
 */
export interface RemoteAnswer extends HomeAnswer {
  /** The answer's Content-Type and Content-Encoding, as the remote sent them. */
  contentType?: string;
  encoding?: string;
  /** Set when the body was not JSON that parses (then `body` is its text): why. */
  unparsable?: string;
}

export type RemoteGet = (path: string, query: Record<string, string>) => Promise<RemoteAnswer>;

export const PAGE = 2000;

export function badAnswer(deployment: string, what: string, problem: string): RemoteFault {
  return new RemoteFault(
    502,
    'remote-bad-answer',
    `${deployment} answered ${what} with ${problem}. The pull stopped and the mirror is as it was before it; if a proxy stands between, check the profile's base URL, then pull again.`,
  );
}

export function refused(what: string, answer: { status: number; body: unknown }): ApiError {
  const said = textOf(answer.body, 'message') ?? textOf(objectOf(answer.body, 'error'), 'message') ?? `HTTP ${answer.status}`;
  return new ApiError(502, 'remote-refused', `The remote refused ${what}: ${said}`);
}

/** What is wrong with a JSON answer before its shape is looked at: its encoding, its type, its syntax. */
function jsonProblem(answer: RemoteAnswer): string | undefined {
  const encoding = (answer.encoding ?? '').trim().toLowerCase();
  if (encoding !== '' && encoding !== 'identity') return `a ${encoding}-compressed body, which was not asked for`;
  const type = (answer.contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json') return `an answer of type ${type === '' ? '(none)' : type}, not JSON (a sign-in or error page?)`;
  if (answer.unparsable !== undefined) return `JSON that does not parse (cut off?): ${answer.unparsable}`;
  return undefined;
}

/** One instance (or transaction) read by its pkid: its JSON object; a 404 that is the remote's own JSON fault is `gone`. */
export function readAnswer(deployment: string, what: string, answer: RemoteAnswer): JsonObject | 'gone' {
  // A 404 says the instance is gone only when it is the remote's JSON fault, not a proxy's page.
  const problem = jsonProblem(answer);
  if (answer.status === 404 && problem === undefined) return 'gone';
  if (answer.status !== 200) throw refused(`to read ${what}`, answer);
  if (problem !== undefined) throw badAnswer(deployment, `the read of ${what}`, problem);
  if (!isJsonObject(answer.body) || !isJsonObject(answer.body.data))
    throw badAnswer(deployment, `the read of ${what}`, 'JSON that is not an instance (no data object)');
  return answer.body;
}

/** A list page: its resources and the total it says the list holds. */
export function listPage(deployment: string, what: string, answer: RemoteAnswer): { resources: JsonObject[]; total: number } {
  if (answer.status !== 200) throw refused(`to list ${what}`, answer);
  const problem = jsonProblem(answer);
  if (problem !== undefined) throw badAnswer(deployment, `a page of ${what}`, problem);
  const body = answer.body;
  const list = isJsonObject(body) ? body.resources : undefined;
  const total = objectOf(body, 'pagination')?.total;
  if (!Array.isArray(list) || typeof total !== 'number' || !Number.isInteger(total) || total < 0)
    throw badAnswer(deployment, `a page of ${what}`, 'JSON that is not the list shape (no resources list, or no pagination total)');
  if (!list.every((resource) => isJsonObject(resource) && isJsonObject(resource.meta)))
    throw badAnswer(deployment, `a page of ${what}`, 'a list whose resources are not instances (each with its meta)');
  return { resources: list as JsonObject[], total };
}

export interface ListScope {
  deployment: string;
  get: RemoteGet;
  signal?: AbortSignal;
  /** The node the list is read at, and how it is walked (`down`, or `up` for what lies above). */
  hierarchy: string;
}

/**
 * Every resource of a model's list at one node and traversal, page after page, checked: each
 * page the list shape, each saying the same total, and as many resources as that total.
 */
export async function* listed(scope: ListScope, modelType: string, traversal: string, summary: boolean): AsyncGenerator<JsonObject> {
  const what = `${modelType} (${traversal} from ${scope.hierarchy})`;
  const page = (skip: number): Promise<RemoteAnswer> => {
    const asked = scope.get(`/api/${modelType}/`, {
      format: 'json',
      hierarchy: scope.hierarchy,
      traversal,
      skip: String(skip),
      limit: String(PAGE),
      summary: summary ? 'true' : 'false',
    });
    // Awaited below; this only keeps a page asked for ahead, and then not wanted, from failing unseen.
    asked.catch(() => undefined);
    return asked;
  };
  let next = page(0);
  let total: number | undefined;
  let count = 0;
  for (let skip = 0; ; skip += PAGE) {
    scope.signal?.throwIfAborted();
    const answer = listPage(scope.deployment, `${what}, skip ${skip}`, await next);
    if (total !== undefined && answer.total !== total)
      throw badAnswer(
        scope.deployment,
        `the list of ${what}`,
        `a total that changed while it was read (${total}, then ${answer.total}): it was being changed; pull again`,
      );
    total = answer.total;
    count += answer.resources.length;
    const more = answer.resources.length >= PAGE && count < total;
    // The next page is asked for before this one is written: the remote answers it while the mirror writes.
    if (more) next = page(skip + PAGE);
    for (const resource of answer.resources) yield resource;
    if (!more) break;
  }
  if (count !== total)
    throw badAnswer(scope.deployment, `the list of ${what}`, `${count} resources in its pages where its total says ${total}`);
}

/** What the remote's list of a model at one node and traversal says it holds (one page of one resource). */
export async function listedTotal(scope: ListScope, modelType: string, traversal: string): Promise<number> {
  const answer = await scope.get(`/api/${modelType}/`, {
    format: 'json',
    hierarchy: scope.hierarchy,
    traversal,
    skip: '0',
    limit: '1',
    summary: 'true',
  });
  return listPage(scope.deployment, `${modelType} (${traversal} from ${scope.hierarchy})`, answer).total;
}
