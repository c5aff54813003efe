import type { JsonObject } from '../service/api-types';
import { isJsonObject } from '../service/api-types';
import { findHomeNode, type HomeNode } from '../service/contract/home-node';
import type { SyncPullAnswer } from '../service/contract/workstation-api';
import { businessKeyOf } from '../service/domain/business-key';
import { ApiError } from '../service/errors';
import { requireModel } from '../service/models/registry';
import type { NodeRow } from '../service/store/nodes-repo';
import { isoMicrosAt } from '../service/store/ids';
import { childrenOf } from './remote-transactions';
import { objectOf, textOf } from './json-fields';
import { guardMassDelete, removalsFrom, scopeCounts, snapshotOf } from './mirror-counts';
import { openMirror, openNextMirror, removeDatabaseFiles, replaceMirror, type MirrorStore } from './mirror-workspace';
import { listed, listedTotal, listPage, PAGE, readAnswer, refused, type ListScope, type RemoteGet } from './pull-pages';

/**
 * `sync pull`: copies into a profile's mirror what offline checks need of its remote, through
 * the spec's own API as the profile's user: the hierarchy below the user's node (and the nodes
 * above it, by name), and the instances of the models a workbook's validation consults
 * (MIRRORED). The first pull, and any pull after the home node changed, copies everything into a
 * new file that replaces the mirror once complete. A later pull reads only what changed: the
 * remote's transactions since the last pull (newest first, `order_by=submitted_time`), then
 * each instance they touched, read again or, gone, removed; then each model whose count in the
 * mirror is not what the remote's list says (instances a workflow made or removed beside the one
 * its transaction names: a line relation's device line) is read whole again. Every page is
 * checked (main/remote/pull-pages.ts), and a pull that would remove more than a tenth of a
 * model's instances needs `allowMassDelete` (main/remote/mirror-counts.ts).
 */
export interface MirroredModel {
  modelType: string;
  /** Whole instances, where validation reads more than their summary (a phone's lines, a template's body). */
  whole: boolean;
  /** Also those above the user's node, which rows below it may use (templates, macros, numbers). */
  above: boolean;
}

export const MIRRORED: readonly MirroredModel[] = [
  { modelType: 'relation/LineRelation', whole: false, above: false },
  { modelType: 'device/cucm/Line', whole: false, above: false },
  { modelType: 'device/cucm/Phone', whole: true, above: false },
  { modelType: 'data/InternalNumberInventory', whole: false, above: true },
  { modelType: 'relation/Subscriber', whole: false, above: false },
  { modelType: 'relation/Bundle', whole: false, above: false },
  { modelType: 'data/User', whole: false, above: false },
  { modelType: 'data/Countries', whole: false, above: true },
  { modelType: 'data/ConfigurationTemplate', whole: true, above: true },
  { modelType: 'data/FieldDisplayPolicy', whole: true, above: true },
  { modelType: 'data/Macro', whole: true, above: true },
];

const NODE_MODEL = 'data/HierarchyNode';
/** Instances written between two turns of the event loop in a whole pull (100 to 250 alike: 2.3 s at 100,000 lines, 3.1 s without). */
const WRITE_SLICE = 200;
/** Past this many changed instances, a whole pull is cheaper than reading each one again. */
const MOST_CHANGES = 5000;
const UNFINISHED = new Set(['Queued', 'In Progress', 'Processing']);

export interface PullProgress {
  phase: 'nodes' | 'instances' | 'changes';
  model_type?: string;
  done: number;
}

export interface PullInput {
  dataDir: string;
  profilePkid: string;
  deployment: string;
  username: string;
  homeHierarchy: string | null;
  get: RemoteGet;
  onProgress?: (progress: PullProgress) => void;
  signal?: AbortSignal;
  /** Lets the pull remove more than a tenth of a model's instances from the mirror (the user confirmed it). */
  allowMassDelete?: boolean;
  /** Runs just before a whole pull's new file takes the mirror's place. */
  beforeReplace?: () => void;
}

const scopeOf = (input: PullInput, home: HomeNode): ListScope => ({
  deployment: input.deployment,
  get: input.get,
  signal: input.signal,
  hierarchy: home.pkid,
});

export async function pullMirror(input: PullInput): Promise<SyncPullAnswer> {
  const home = await findHomeNode(input.get, input.homeHierarchy, input.deployment, input.username);
  if (!home.found) throw new ApiError(400, 'validation-failed', home.message);
  const current = openMirror(input.dataDir, input.profilePkid);
  const last = current?.pulls.last();
  try {
    if (current && last?.watermark && last.home_pkid === home.node.pkid) {
      const changed = await pullChanges(input, current, home.node, last.watermark);
      if (changed) return changed;
    }
  } finally {
    current?.close();
  }
  return pullWhole(input, home.node);
}

/**
 * Where the next pull reads the remote's transactions from: the newest one's time, or the oldest
 * not finished (it may still change what it touches), and the finished ones at exactly that time,
 * which the next pull skips (a bulk load of 20,000 rows is not read again because it is the
 * newest). Kept as JSON in the mirror's `watermark`.
 */
interface Watermark {
  time: string;
  seen: string[];
}

const markOf = (text: string): Watermark => (text.startsWith('{') ? (JSON.parse(text) as Watermark) : { time: text, seen: [] });

async function watermarkNow(input: PullInput, home: HomeNode): Promise<string | null> {
  const answer = await input.get('/api/tool/Transaction/', {
    format: 'json',
    hierarchy: home.pkid,
    order_by: 'submitted_time',
    direction: 'desc',
    limit: '200',
    summary: 'true',
  });
  let mark: string | null = null;
  const newest = listPage(input.deployment, 'its transactions', answer).resources.map((resource) => objectOf(resource, 'data'));
  for (const data of newest) {
    const time = textOf(data, 'submitted_time');
    if (!time) continue;
    mark ??= time;
    // A transaction still running may change what it touches after this pull: read it again next time.
    if (UNFINISHED.has(textOf(data, 'status') ?? '') && time < mark) mark = time;
  }
  if (mark === null) return null;
  const seen = newest
    .filter((data) => textOf(data, 'submitted_time') === mark && !UNFINISHED.has(textOf(data, 'status') ?? ''))
    .map((data) => textOf(data, 'transaction_id') ?? '');
  return JSON.stringify({ time: mark, seen } satisfies Watermark);
}

async function pullWhole(input: PullInput, home: HomeNode): Promise<SyncPullAnswer> {
  const watermark = await watermarkNow(input, home);
  const { mirror, file, finish } = openNextMirror(input.dataDir, input.profilePkid);
  const counts: Record<string, number> = {};
  let complete = false;
  try {
    mirror.db.exec('BEGIN IMMEDIATE');
    counts[NODE_MODEL] = await copyNodes(input, mirror, home);
    // The file is new: what this pull wrote is all there is (the nodes' instances are of no mirrored model).
    const placed = new Set<string>();
    for (const model of MIRRORED) {
      input.signal?.throwIfAborted();
      counts[model.modelType] = await copyModel(input, mirror, home, model, placed);
    }
    // What the new file would take out of the current mirror, before it takes its place.
    const current = openMirror(input.dataDir, input.profilePkid);
    try {
      if (current) guardMassDelete(input.deployment, removalsFrom(snapshotOf(current.db), mirror.db), input.allowMassDelete === true);
    } finally {
      current?.close();
    }
    const pulledAt = isoMicrosAt(Date.now());
    const record = {
      profile_pkid: input.profilePkid,
      home_pkid: home.pkid,
      home_path: home.hierarchy,
      pulled_at: pulledAt,
      mode: 'full' as const,
      watermark,
      counts: JSON.stringify(counts),
    };
    mirror.pulls.record(record);
    await finish();
    complete = true;
    return { mode: 'full', pulled_at: pulledAt, home_hierarchy: home.hierarchy, counts, changed: null, reread: [] };
  } finally {
    if (!complete && mirror.db.inTransaction) mirror.db.exec('ROLLBACK');
    mirror.close();
    if (complete) {
      input.beforeReplace?.();
      replaceMirror(input.dataDir, input.profilePkid, file);
    } else removeDatabaseFiles(file);
  }
}

/** The user's node, the nodes above it (by the names in its path) and every node below it. */
async function copyNodes(input: PullInput, mirror: MirrorStore, home: HomeNode): Promise<number> {
  const { store } = mirror;
  const answer = await input.get(`/api/${NODE_MODEL}/${encodeURIComponent(home.pkid)}/`, { format: 'json' });
  const read = { body: readAnswer(input.deployment, `the node ${home.hierarchy}`, answer) };
  if (read.body === 'gone') throw refused(`to read the node ${home.hierarchy}`, answer);
  const lineage = objectOf(objectOf(read.body, 'meta'), 'path')?.nodes;
  const names = home.hierarchy.split('.');
  let parent: NodeRow | undefined;
  names.forEach((name, at) => {
    const path = names.slice(0, at + 1).join('.');
    const known =
      Array.isArray(lineage) && isJsonObject(lineage[at]) && lineage[at].name === name ? textOf(lineage[at], 'pkid') : undefined;
    // The user's own node keeps its pkid; those above, unreadable to the user, may have to do with their path.
    const pkid = at === names.length - 1 ? home.pkid : (known ?? `above:${path}`);
    const ownType = textOf(objectOf(read.body, 'data'), 'node_type') ?? 'Intermediate';
    const nodeType = at === 0 ? 'Root' : at === names.length - 1 ? ownType : 'Intermediate';
    const row: NodeRow = { pkid, parent_pkid: parent?.pkid ?? null, name, path, node_type: nodeType };
    store.nodes.insert(row);
    parent = row;
  });
  const nodeModel = requireModel(NODE_MODEL);
  const rows: { row: NodeRow; data: JsonObject; parentPath: string }[] = [];
  for await (const resource of listed(scopeOf(input, home), NODE_MODEL, 'down', true)) {
    const data = objectOf(resource, 'data') ?? {};
    const meta = objectOf(resource, 'meta');
    const pkid = textOf(meta, 'pkid');
    const parentPath = textOf(meta, 'hierarchy');
    const name = textOf(data, 'name');
    if (!pkid || !parentPath || !name) continue;
    rows.push({
      row: { pkid, parent_pkid: null, name, path: `${parentPath}.${name}`, node_type: textOf(data, 'node_type') ?? 'Intermediate' },
      data,
      parentPath,
    });
  }
  // Parents before children.
  rows.sort((a, b) => a.row.path.split('.').length - b.row.path.split('.').length);
  for (const { row, data, parentPath } of rows) {
    const parentNode = store.nodes.getByPath(parentPath);
    // A node the path above already placed (the user's own), or one listed twice, is placed once.
    if (!parentNode || store.nodes.get(row.pkid) || store.nodes.getByPath(row.path)) continue;
    store.nodes.insert({ ...row, parent_pkid: parentNode.pkid });
    store.instances.insert({
      pkid: row.pkid,
      modelType: NODE_MODEL,
      hierarchyPkid: parentNode.pkid,
      data,
      bkey: businessKeyOf(nodeModel, data, parentNode.pkid),
    });
  }
  input.onProgress?.({ phase: 'nodes', done: rows.length + names.length });
  return rows.length;
}

/**
 * Every instance of a model the user sees, written into the mirror at its node; answers how many
 * it holds (those at the user's node, listed both down and up, once).
 */
async function copyModel(
  input: PullInput,
  mirror: MirrorStore,
  home: HomeNode,
  mirrored: MirroredModel,
  placed: Set<string>,
): Promise<number> {
  const model = requireModel(mirrored.modelType);
  let count = 0;
  const before = placed.size;
  const scope = scopeOf(input, home);
  for (const traversal of mirrored.above ? ['down', 'up'] : ['down']) {
    for await (const resource of listed(scope, mirrored.modelType, traversal, !mirrored.whole)) {
      if (!putInstance(mirror, model.modelType, resource, placed)) continue;
      count += 1;
      // The next page, asked for before this one is written, goes out and comes in only while the
      // event loop is free: written in one go, a page held it for 15 ms, and the remote waited.
      if (count % WRITE_SLICE === 0) await new Promise((resume) => setImmediate(resume));
      if (count % PAGE === 0) input.onProgress?.({ phase: 'instances', model_type: mirrored.modelType, done: count });
    }
  }
  input.onProgress?.({ phase: 'instances', model_type: mirrored.modelType, done: placed.size - before });
  return placed.size - before;
}

/**
 * An instance as the remote answered it, in place of the mirror's copy; false when its node is not
 * in the mirror. `placed`: the pkids a whole pull wrote so far, into a new file (then nothing else
 * is there to replace, and a look-up a row cost 0.35 s of a 100,000-line pull); without it the
 * mirror is looked in.
 */
function putInstance(mirror: MirrorStore, modelType: string, resource: JsonObject, placed?: Set<string>): boolean {
  const { store } = mirror;
  const meta = objectOf(resource, 'meta');
  const pkid = textOf(meta, 'pkid');
  const path = textOf(meta, 'hierarchy');
  const node = path === undefined ? undefined : store.nodes.getByPath(path);
  if (!pkid || !node) return false;
  const data = objectOf(resource, 'data') ?? {};
  const model = requireModel(modelType);
  // Listed twice (at the user's node, both down and up): the later answer stands.
  if (placed ? placed.has(pkid) : store.instances.get(pkid)) store.instances.delete(pkid);
  placed?.add(pkid);
  store.instances.insert({ pkid, modelType, hierarchyPkid: node.pkid, data, bkey: businessKeyOf(model, data, node.pkid) });
  return true;
}

/**
 * The changes since `watermark`: each instance a transaction since then touched, read again.
 * Undefined when a whole pull is the better way (too many changes, the tree changed).
 */
async function pullChanges(input: PullInput, mirror: MirrorStore, home: HomeNode, watermark: string): Promise<SyncPullAnswer | undefined> {
  const next = await watermarkNow(input, home);
  const from = markOf(watermark);
  const touched = new Map<string, string>();
  let reached = false;
  for (let skip = 0; !reached; skip += PAGE) {
    input.signal?.throwIfAborted();
    const answer = await input.get('/api/tool/Transaction/', {
      format: 'json',
      hierarchy: home.pkid,
      order_by: 'submitted_time',
      direction: 'desc',
      skip: String(skip),
      limit: String(PAGE),
      summary: 'false',
    });
    const { resources } = listPage(input.deployment, `its transactions, skip ${skip}`, answer);
    for (const resource of resources) {
      const data = objectOf(resource, 'data');
      const time = textOf(data, 'submitted_time') ?? '';
      if (time < from.time) {
        reached = true;
        break;
      }
      if (time === from.time && from.seen.includes(textOf(data, 'transaction_id') ?? '')) continue;
      // A bulk load's rows are transactions of their own, under it.
      // A parent's answer may list only its first sub-transactions and count them all (decisions.md).
      const subs = Array.isArray(data?.sub_transactions) ? data.sub_transactions : [];
      const counted = objectOf(data, 'sub_transaction_counts')?.total;
      const rows = typeof counted === 'number' ? counted : subs.length;
      const parentId = textOf(data, 'transaction_id');
      const children = rows === 0 || !parentId ? [] : await childrenOf(input.get, home.pkid, parentId, rows);
      if (!children || rows > MOST_CHANGES) return undefined;
      for (const changed of [data, ...children]) {
        const target = objectOf(changed, 'resource');
        const pkid = textOf(target, 'pkid');
        const modelType = textOf(target, 'model_type');
        if (modelType === NODE_MODEL) return undefined;
        if (pkid && modelType && MIRRORED.some((model) => model.modelType === modelType)) touched.set(pkid, modelType);
      }
      if (touched.size > MOST_CHANGES) return undefined;
    }
    if (resources.length < PAGE) reached = true;
  }
  let done = 0;
  // Every read checked before any is written: a page that is not an instance stops the pull here.
  const reads: { pkid: string; modelType: string; read: JsonObject | 'gone' }[] = [];
  for (const [pkid, modelType] of touched) {
    input.signal?.throwIfAborted();
    const answer = await input.get(`/api/${modelType}/${encodeURIComponent(pkid)}/`, { format: 'json' });
    reads.push({ pkid, modelType, read: readAnswer(input.deployment, `${modelType} ${pkid}`, answer) });
    done += 1;
    if (done % 100 === 0) input.onProgress?.({ phase: 'changes', done });
  }
  const { store, db } = mirror;
  db.exec('BEGIN IMMEDIATE');
  try {
    const before = snapshotOf(db);
    for (const { pkid, modelType, read } of reads) {
      // Gone, or moved where the user's part of the tree does not reach: out of the mirror.
      if (read === 'gone' || !putInstance(mirror, modelType, read)) store.instances.delete(pkid);
    }
    const reread = await recount(input, mirror, home);
    guardMassDelete(input.deployment, removalsFrom(before, db), input.allowMassDelete === true);
    const counts = countsOf(mirror);
    const pulledAt = isoMicrosAt(Date.now());
    mirror.pulls.record({
      profile_pkid: input.profilePkid,
      home_pkid: home.pkid,
      home_path: home.hierarchy,
      pulled_at: pulledAt,
      mode: 'changes',
      watermark: next ?? watermark,
      counts: JSON.stringify(counts),
    });
    db.exec('COMMIT');
    return { mode: 'changes', pulled_at: pulledAt, home_hierarchy: home.hierarchy, counts, changed: reads.length, reread };
  } finally {
    if (db.inTransaction) db.exec('ROLLBACK');
  }
}

/** The mirror's instances per mirrored model (none: 0) and its nodes below the user's. */
function countsOf(mirror: MirrorStore): Record<string, number> {
  const held = new Map(mirror.store.instances.countByModel().map(({ modelType, count }) => [modelType, count]));
  return Object.fromEntries(
    [NODE_MODEL, ...MIRRORED.map((model) => model.modelType)].map((modelType) => [modelType, held.get(modelType) ?? 0]),
  );
}

/**
 * Each model whose count in the mirror differs from what the remote's lists say it holds, read
 * whole again: a transaction names one instance, and the workflow behind it may have made or
 * removed others (a line relation's device line, a bundle's phone), which the changes miss.
 */
async function recount(input: PullInput, mirror: MirrorStore, home: HomeNode): Promise<string[]> {
  const scope = scopeOf(input, home);
  const held = scopeCounts(mirror.db, home.hierarchy);
  const listedCounts = await Promise.all(
    MIRRORED.map(async (model) => {
      const traversals = model.above ? (['down', 'up'] as const) : (['down'] as const);
      const totals = await Promise.all(traversals.map((traversal) => listedTotal(scope, model.modelType, traversal)));
      const mine = traversals.map((traversal) => held[traversal].get(model.modelType) ?? 0);
      const sum = (counts: number[]): number => counts.reduce((a, b) => a + b, 0);
      return { model, remote: sum(totals), mirror: sum(mine) };
    }),
  );
  const reread: string[] = [];
  for (const { model, remote, mirror: mine } of listedCounts) {
    if (remote === mine) continue;
    input.signal?.throwIfAborted();
    mirror.db.prepare('DELETE FROM instances WHERE model_type = ?').run(model.modelType);
    await copyModel(input, mirror, home, model, new Set());
    reread.push(model.modelType);
  }
  return reread;
}
