import { Client } from 'undici';
import { MIRRORED } from '../../main/remote/sync-pull';
import { SessionJar } from '../../main/remote/session-jar';

/**
 * BENCH_ONLY=sync, the pull's baseline: a bare undici client reading, one after the other, the
 * list pages a whole `sync pull` reads (main/remote/sync-pull.ts), signed in as the profile's
 * user with a session as the workstation's proxy is (same cookies, same `accept` header). The
 * pages follow the pull's code: the transactions' first page (`watermarkNow`), then `pages()` of
 * the hierarchy nodes and of each model of MIRRORED in its order, `down` and, for those also read
 * above the user's node, `up`, each `skip` by PAGE until a page is short; the same query
 * parameters in the same order. The bench also checks this list against the requests an untimed
 * pull made through a recording proxy, so a change to the pull's pages cannot go unnoticed.
 * Each answer is read whole and parsed (the client must count a page's resources to know where
 * the model ends), and nothing is written: what reading the pages costs, and no more.
 */

/** sync-pull.ts's page size (its `PAGE`, not exported). */
export const PULL_PAGE = 2000;
const NODE_MODEL = 'data/HierarchyNode';
const HEADERS = { accept: 'application/json' };

export interface BareSession {
  client: Client;
  jar: SessionJar;
  /** The user's node, from the remote's whoami, as the pull finds it. */
  homePkid: string;
}

export interface BareRead {
  seconds: number;
  /** Each GET's path and query, in order. */
  urls: string[];
  /** Resources read per model type. */
  counts: Record<string, number>;
  bytes: number;
  /** CPU of this process (the client) over the read. */
  cpuSeconds: number;
}

/** Signs in as the pull's proxy does (/noninteractivelogin/, a session cookie), and finds the home node: untimed. */
export async function openBareSession(origin: string, username: string, password: string): Promise<BareSession> {
  const client = new Client(origin, { keepAliveTimeout: 10_000 });
  const jar = new SessionJar();
  const login = await client.request({
    method: 'POST',
    path: '/noninteractivelogin/',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  await login.body.dump();
  jar.absorb(login.headers);
  if (login.statusCode !== 200 || !jar.signedIn) throw new Error(`the bare client's sign-in answered ${login.statusCode}`);
  const whoami = await client.request({
    method: 'GET',
    path: '/api/whoami/?format=json',
    headers: { ...HEADERS, cookie: jar.cookieHeader() },
  });
  const body = (await whoami.body.json()) as { hierarchy_pkid?: string };
  if (whoami.statusCode !== 200 || typeof body.hierarchy_pkid !== 'string')
    throw new Error(`the remote's whoami answered ${whoami.statusCode} without a hierarchy_pkid`);
  return { client, jar, homePkid: body.hierarchy_pkid };
}

/** The pull's list pages, read one after the other. */
export async function readPullPages(session: BareSession): Promise<BareRead> {
  const { client, jar, homePkid } = session;
  const urls: string[] = [];
  const counts: Record<string, number> = {};
  let bytes = 0;
  const get = async (path: string, query: Record<string, string>): Promise<number> => {
    const url = `${path}?${new URLSearchParams(query).toString()}`;
    urls.push(url);
    const answer = await client.request({ method: 'GET', path: url, headers: { ...HEADERS, cookie: jar.cookieHeader() } });
    jar.absorb(answer.headers);
    const text = await answer.body.text();
    bytes += Buffer.byteLength(text);
    if (answer.statusCode !== 200) throw new Error(`GET ${url} answered ${answer.statusCode}: ${text.slice(0, 200)}`);
    const { resources } = JSON.parse(text) as { resources?: unknown[] };
    return Array.isArray(resources) ? resources.length : 0;
  };
  const cpu = process.cpuUsage();
  const started = performance.now();
  await get('/api/tool/Transaction/', {
    format: 'json',
    hierarchy: homePkid,
    order_by: 'submitted_time',
    direction: 'desc',
    limit: '200',
    summary: 'true',
  });
  for (const model of [{ modelType: NODE_MODEL, whole: false, above: false }, ...MIRRORED]) {
    counts[model.modelType] = 0;
    for (const traversal of model.above ? ['down', 'up'] : ['down']) {
      for (let skip = 0; ; skip += PULL_PAGE) {
        const read = await get(`/api/${model.modelType}/`, {
          format: 'json',
          hierarchy: homePkid,
          traversal,
          skip: String(skip),
          limit: String(PULL_PAGE),
          summary: model.whole ? 'false' : 'true',
        });
        counts[model.modelType] += read;
        if (read < PULL_PAGE) break;
      }
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return { seconds, urls, counts, bytes, cpuSeconds: (used.user + used.system) / 1e6 };
}

/**
 * The list pages among a pull's recorded requests (`GET <path>?<query>`): those with a `limit`;
 * the rest are its single reads (whoami, the home node). `difference` is set when the bare
 * client's pages are not exactly these, in this order: the first that differs.
 */
export function pagesDiffer(recorded: string[], bare: string[]): { listed: string[]; singles: string[]; difference?: string } {
  const gets = recorded.filter((request) => request.startsWith('GET ')).map((request) => request.slice(4));
  const listed = gets.filter((url) => /[?&]limit=/.test(url));
  const singles = gets.filter((url) => !/[?&]limit=/.test(url));
  for (let at = 0; at < Math.max(listed.length, bare.length); at += 1) {
    if (listed[at] !== bare[at])
      return {
        listed,
        singles,
        difference: `page ${at + 1}: the pull read ${listed[at] ?? 'nothing'}, the bare client ${bare[at] ?? 'nothing'}`,
      };
  }
  return { listed, singles };
}
