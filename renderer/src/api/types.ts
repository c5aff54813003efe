/** The API's shapes as the UI reads them (spec and decisions.md). */
export type DataObject = Record<string, unknown>;

export interface Reference {
  pkid: string;
  href: string;
}

export interface InstanceMeta {
  model_type: string;
  pkid: string;
  hierarchy: string;
  href: string;
  tags?: string[];
  version_tag?: string | null;
  schema_version?: string;
  cached?: boolean;
  references?: Partial<Record<'self' | 'parent' | 'children' | 'device' | 'owner', Reference[]>>;
  path?: { dot: string; pkid: string; nodes: { name: string; pkid: string }[] };
  warnings?: string[];
}

export interface Instance {
  data: DataObject;
  meta: InstanceMeta;
}

export interface SummaryAttr {
  name: string;
  title: string;
}

export interface ActionMeta {
  title: string;
  method: string;
  href: string;
  class: string;
  support_async: boolean;
}

export interface Pagination {
  skip: number;
  limit: number;
  total: number;
  maximum_limit: number;
  order_by: string;
  direction: 'asc' | 'desc';
}

export interface ListAnswer {
  pagination: Pagination;
  meta: { model_type: string; summary_attrs: SummaryAttr[]; actions: Record<string, ActionMeta> };
  resources: Instance[];
}

/** Draft-03 style schema property (decisions.md "Schemas"). */
export interface SchemaProperty {
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
}

export interface AsyncAnswer {
  href: string;
  success: boolean;
  transaction_id: string;
}

export type TransactionStatus = 'Queued' | 'In Progress' | 'Processing' | 'Success' | 'Fail' | 'Success With Async Failures';

export const FINISHED: ReadonlySet<string> = new Set(['Success', 'Fail', 'Success With Async Failures']);

export interface WhoAmI {
  username: string;
  role: 'admin' | 'operator' | 'readonly';
  hierarchy: string;
  hierarchy_pkid: string;
  workspace: string;
  release: string;
}
