/**
 * The wire shapes of the resource API under `/api/` (spec, decisions.md "Lists" and "Schemas"):
 * instances, lists, schemas, asynchronous answers and `whoami`. Types only, without Node or DOM
 * types: the service builds its answers against them, the renderer (tsconfig.web.json includes
 * this file) and the tests read them, so each shape is declared once. Declared as type aliases,
 * not interfaces, so the service's JSON values (`JsonObject`) can hold them.
 */

/** An instance's fields as answered: write-only fields (passwords) never leave the service. */
export type DataObject = Record<string, unknown>;

export type Reference = { pkid: string; href: string };

export type ReferenceKind = 'self' | 'parent' | 'children' | 'device' | 'owner';

/** `meta.path` of a hierarchy node: its dot path and the nodes from the root down to it. */
export type NodePath = { dot: string; pkid: string; nodes: { name: string; pkid: string }[] };

export type InstanceMeta = {
  model_type: string;
  pkid: string;
  hierarchy: string;
  /** Always in lists and search hits (`ListedInstance`); a single instance's GET leaves it out. */
  href?: string;
  tags?: string[];
  version_tag?: string | null;
  schema_version?: string;
  /** Device models: whether the answer is the cached copy (`cached=true`, the default). */
  cached?: boolean;
  references?: Partial<Record<ReferenceKind, Reference[]>>;
  /** Hierarchy nodes only. */
  path?: NodePath;
  warnings?: string[];
};

/** `GET /api/<model>/<pkid>/`: one instance (with `schema` when asked for with `schema=true`). */
export type Instance = {
  data: DataObject;
  meta: InstanceMeta;
};

/** An instance in a list or among search hits: its `href` is always there. */
export type ListedInstance = {
  data: DataObject;
  meta: InstanceMeta & { href: string };
};

export type SummaryAttr = { name: string; title: string };

/** One of a model's actions as list meta names it (`actions.add`, `actions.export`...). */
export type ActionMeta = {
  title: string;
  method: string;
  href: string;
  class: string;
  support_async: boolean;
};

export type Pagination = {
  skip: number;
  limit: number;
  total: number;
  maximum_limit: number;
  order_by: string;
  direction: 'asc' | 'desc';
};

export type ListMeta = {
  model_type: string;
  summary_attrs: SummaryAttr[];
  actions: Record<string, ActionMeta>;
  /** `self` names the list (an href only), `parent` the node it was read at. */
  references?: Partial<Record<ReferenceKind, { pkid?: string; href: string }[]>>;
};

/** `GET /api/<model>/?hierarchy=...`: a page of instances (with `schema` when `schema=true`). */
export type ListAnswer = {
  pagination: Pagination;
  meta: ListMeta;
  resources: ListedInstance[];
};

/** `GET /api/tool/Search/`: the hits of a search, at most `maximum_limit` of them, in no model's list order. */
export type SearchAnswer = {
  pagination: Pick<Pagination, 'skip' | 'limit' | 'total' | 'maximum_limit'>;
  meta: { actions: { export: { href: string; method: 'POST' } } };
  resources: ListedInstance[];
};

/** Draft-03 style schema property (decisions.md "Schemas"). */
export type SchemaProperty = {
  title?: string;
  description?: string;
  type?: string | string[];
  format?: string;
  choices?: { value: string; title: string }[];
  default?: unknown;
  pattern?: string;
  maxLength?: number;
  minLength?: number;
  readonly?: boolean;
  required?: boolean;
  hidden?: boolean;
  input_type?: string;
  help_text?: string;
  properties?: Record<string, SchemaProperty>;
  items?: SchemaProperty;
  minItems?: number;
  maxItems?: number;
};

/** A change asked for with `nowait=true`: 202 and the transaction to follow. */
export type AsyncAnswer = {
  href: string;
  success: boolean;
  transaction_id: string;
};

/** `POST /api/uploadfiles/?hierarchy=...`: each stored file, by the name it is known by from now on and its id. */
export type UploadAnswer = {
  uploadedfiles: { name: string; id: string }[];
};

export type Role = 'admin' | 'operator' | 'readonly';

/** `GET /api/whoami/`: the caller, as the UI needs it to root its tree (the service's own call, not the spec's). */
export type WhoAmI = {
  username: string;
  role: Role;
  hierarchy: string;
  hierarchy_pkid: string;
  workspace: string;
  release: string;
};
