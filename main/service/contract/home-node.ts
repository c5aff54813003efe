/**
 * Where the remote user's part of the tree starts on a deployment (issue 14): the remote's
 * `/api/whoami/` when it has one (this project's own extension, not in the spec), else the
 * profile's `home_hierarchy`, found with the spec's own calls. Plain TypeScript without Node or
 * DOM types: the renderer (the live tree) and Test connection (main/remote) run the same steps,
 * each through its own way of sending a GET, so they can never disagree on where a user sits.
 */

/** One GET's answer as the steps need it; network faults are thrown by `get` itself, never returned. */
export interface HomeAnswer {
  status: number;
  body: unknown;
}

/** Sends one authenticated GET of the remote's /api/ (path, then the query's pairs). */
export type HomeGet = (path: string, query: Record<string, string>) => Promise<HomeAnswer>;

export interface HomeNode {
  pkid: string;
  /** Dot path, as the remote names it when it says so. */
  hierarchy: string;
  /** `whoami`: the remote said it; `profile`: the profile's home hierarchy, found on the remote. */
  source: 'whoami' | 'profile';
}

export type HomeOutcome =
  | { found: true; node: HomeNode }
  /** `no-home`: no whoami and nothing entered; `home-not-found`: entered, but not found or not readable there. */
  | { found: false; reason: 'no-home' | 'home-not-found'; message: string };

/** The spec's form of a pkid (UUID-like hex): entered instead of a dot path, it is read directly. */
const PKID = /^[0-9a-f]{8,}(-[0-9a-f]{4,})*$/i;
const NODES = '/api/data/HierarchyNode/';
const JSON_FORMAT = { format: 'json' };

/** What is wrong with a home hierarchy as typed (a dot path of non-empty names, or a pkid); undefined when nothing. */
export function homeHierarchyProblem(value: string): string | undefined {
  if (value.length > 1024) return 'must be at most 1024 characters';
  if (PKID.test(value)) return undefined;
  if (value.split('.').some((name) => name.trim() === '' || name !== name.trim()))
    return "must be a dot path such as sys.hcs.Telco.Acme, or a hierarchy node's pkid";
  return undefined;
}

/**
 * The user's home node on the remote. `get` throws for what is not an answer (unreachable,
 * timeout, TLS) and, by each caller's choice, for a 401 or a 5xx: those are the remote's own
 * trouble, to be told as such, not a sign that whoami is missing. Any other refusal of whoami
 * (404, 405, 400, 403) means the deployment does not have it, and the profile's home is used.
 */
export async function findHomeNode(get: HomeGet, home: string | null, deployment: string, who: string): Promise<HomeOutcome> {
  const whoami = await get('/api/whoami/', JSON_FORMAT);
  const said = whoami.status === 200 ? pkidOf(whoami.body, 'hierarchy_pkid') : undefined;
  if (said) return { found: true, node: { pkid: said, hierarchy: stringOf(whoami.body, 'hierarchy') ?? said, source: 'whoami' } };
  if (home === null || home.trim() === '') {
    return {
      found: false,
      reason: 'no-home',
      message: `${deployment} does not say where ${who} sits in its hierarchy (it has no /api/whoami/, HTTP ${whoami.status}): enter the profile's home hierarchy, the node ${who} works at on ${deployment} (a dot path such as sys.hcs.Telco.Acme, or the node's pkid), in Settings or with \`remote add --home\`.`,
    };
  }
  const node = PKID.test(home) ? await byPkid(get, home) : await byPath(get, home);
  if (node) return { found: true, node };
  return {
    found: false,
    reason: 'home-not-found',
    message: `${deployment} has no hierarchy node ${home} that ${who} may read: correct the profile's home hierarchy (the node ${who} works at there: a dot path such as sys.hcs.Telco.Acme, or the node's pkid).`,
  };
}

async function byPkid(get: HomeGet, pkid: string): Promise<HomeNode | undefined> {
  const answer = await get(`${NODES}${encodeURIComponent(pkid)}/`, JSON_FORMAT);
  if (answer.status !== 200) return undefined;
  const meta = objectOf(answer.body, 'meta');
  const path = objectOf(meta, 'path');
  return { pkid: pkidOf(meta, 'pkid') ?? pkid, hierarchy: stringOf(path, 'dot') ?? pkid, source: 'profile' };
}

/**
 * A dot path to its node: a node is listed at its parent's hierarchy, so the parent's local list
 * filtered on the last name finds it. A user whose rights start at the home node may not read
 * the parent; then one of the home node's children, read whole, names its ancestors with their
 * pkids (`meta.path.nodes`), the home node among them.
 */
async function byPath(get: HomeGet, home: string): Promise<HomeNode | undefined> {
  const names = home.split('.');
  const last = names[names.length - 1];
  if (names.length > 1) {
    const parent = names.slice(0, -1).join('.');
    const listed = await get(NODES, {
      ...JSON_FORMAT,
      hierarchy: parent,
      traversal: 'local',
      filter_field: 'name',
      filter_condition: 'equals',
      filter_text: last,
      ignore_case: 'false',
      limit: '50',
    });
    const match = resourcesOf(listed).find((instance) => stringOf(objectOf(instance, 'data'), 'name') === last);
    const pkid = pkidOf(objectOf(match, 'meta'), 'pkid');
    if (pkid) return { pkid, hierarchy: home, source: 'profile' };
  }
  const children = await get(NODES, { ...JSON_FORMAT, hierarchy: home, traversal: 'local', limit: '1' });
  const child = pkidOf(objectOf(resourcesOf(children)[0], 'meta'), 'pkid');
  if (!child) return undefined;
  const read = await get(`${NODES}${encodeURIComponent(child)}/`, JSON_FORMAT);
  const lineage = read.status === 200 ? objectOf(objectOf(objectOf(read.body, 'meta'), 'path'), 'nodes') : undefined;
  const ancestor = Array.isArray(lineage) ? (lineage[names.length - 1] as unknown) : undefined;
  const pkid = stringOf(ancestor, 'name') === last ? pkidOf(ancestor, 'pkid') : undefined;
  return pkid ? { pkid, hierarchy: home, source: 'profile' } : undefined;
}

function resourcesOf(answer: HomeAnswer): unknown[] {
  if (answer.status !== 200) return [];
  const resources = objectOf(answer.body, 'resources');
  return Array.isArray(resources) ? (resources as unknown[]) : [];
}

function objectOf(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function stringOf(value: unknown, key: string): string | undefined {
  const found = objectOf(value, key);
  return typeof found === 'string' && found !== '' ? found : undefined;
}

const pkidOf = stringOf;
