import type { JsonObject } from '../api-types';
import type { InstanceMeta, NodePath, Reference, ReferenceKind } from '../contract/resource-api';
import { nodeHref } from './hierarchy';
import type { Store } from './store';
import type { ModelDef } from '../models/types';
import { schemaVersionOf } from '../schema/schema-meta';
import type { InstanceRecord, LinkRef } from '../store/instances-repo';
import type { NodeRow } from '../store/nodes-repo';

export const instanceHref = (modelType: string, pkid: string): string => `/api/${modelType}/${pkid}/`;

const ref = (modelType: string, pkid: string): Reference => ({ pkid, href: instanceHref(modelType, pkid) });

/**
 * The data a caller sees: write-only fields (passwords) never leave, computed hierarchy
 * fields are filled from where the instance lives.
 */
export function visibleData(model: ModelDef, data: JsonObject, hierarchyPath: string): JsonObject {
  const result: JsonObject = {};
  for (const [name, value] of Object.entries(data)) {
    if (!model.fields[name]?.writeOnly) result[name] = value;
  }
  for (const [name, field] of Object.entries(model.fields)) {
    if (field.readonly && field.format === 'hierarchy') result[name] = hierarchyPath;
  }
  return result;
}

function linkedRefs(links: LinkRef[] | undefined): Reference[] {
  return (links ?? []).map((link) => ref(link.model_type, link.pkid));
}

/** An instance's meta as built here: every kind of reference is there, if empty. */
type EnvelopeMeta = InstanceMeta & { references: Record<ReferenceKind, Reference[]> };

/** `{data, meta}` of one instance, with references, and `meta.path` for hierarchy nodes. */
export function instanceEnvelope(store: Store, model: ModelDef, record: InstanceRecord, deviceSchemaVersion?: string): JsonObject {
  const meta: EnvelopeMeta = {
    model_type: model.modelType,
    pkid: record.pkid,
    hierarchy: record.hierarchyPath,
    tags: record.tags,
    schema_version: schemaVersionOf(model, deviceSchemaVersion),
    references: {
      self: [ref(model.modelType, record.pkid)],
      parent: [{ pkid: record.hierarchyPkid, href: nodeHref(record.hierarchyPkid) }],
      children: [],
      device: linkedRefs(record.links.device),
      owner: linkedRefs(record.links.owner),
    },
  };
  if (record.versionTag !== null) meta.version_tag = record.versionTag;
  if (model.modelType === 'data/HierarchyNode') addNodeMeta(store, record, meta);
  return { data: visibleData(model, record.data, record.hierarchyPath), meta };
}

function addNodeMeta(store: Store, record: InstanceRecord, meta: EnvelopeMeta): void {
  const node = store.nodes.get(record.pkid);
  if (!node) return;
  meta.path = nodePath(store, node);
  const { references } = meta;
  references.children = store.nodes.childrenOf(node.pkid).map((child) => ({ pkid: child.pkid, href: nodeHref(child.pkid) }));
  if (node.parent_pkid === null) references.parent = [];
}

export function nodePath(store: Store, node: NodeRow): NodePath {
  return {
    dot: node.path,
    pkid: node.pkid,
    nodes: store.nodes.lineage(node).map((row) => ({ name: row.name, pkid: row.pkid })),
  };
}
