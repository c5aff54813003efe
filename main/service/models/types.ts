import type { Json } from '../api-types';

/**
 * A model is declared once, here, and everything else is derived from it: the draft-03 schema
 * served by the API, payload validation, list columns and filters, the SQL expressions and
 * indexes for its summary attributes, the help page, and (later) sheet columns and forms.
 */
export type FieldType = 'string' | 'boolean' | 'integer' | 'number' | 'object' | 'array' | 'null';

export interface Choice {
  value: string;
  title: string;
}

export interface FieldDef {
  /** One type, or several when the spec says e.g. "string or null". */
  type: FieldType | FieldType[];
  title: string;
  /** Help text shown in forms and on the help page. */
  description?: string;
  required?: boolean;
  default?: Json;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  choices?: Choice[];
  /** Semantic hint: 'password', 'date', 'directory-number', 'hierarchy', 'uri'... */
  format?: string;
  /**
   * The value names something looked up by its exact name (a device, a partition, a calling
   * search space, a template, a node, a user): spaces around it are an error, never trimmed.
   */
  names?: boolean;
  /** Text that may run over several lines (descriptions); any other text field refuses control characters. */
  multiline?: boolean;
  /** Computed by the service: shown, never taken from a payload (ignored on input). */
  readonly?: boolean;
  /** Taken from a payload, never returned (passwords). */
  writeOnly?: boolean;
  properties?: Record<string, FieldDef>;
  items?: FieldDef;
  minItems?: number;
  maxItems?: number;
}

export interface ActionDef {
  name: string;
  title: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path below the model's base path; `{pkid}` stands for an instance. */
  path: string;
  class: string;
  supportAsync: boolean;
}

export interface BusinessKey {
  /** True when the key is unique within one hierarchy node rather than in the whole store. */
  hierarchy: boolean;
  fields: string[];
  /**
   * 'up': unique within the node and every ancestor (number inventory).
   * Defaults to 'node' when `hierarchy` is true, 'global' otherwise.
   */
  scope?: 'node' | 'up' | 'global';
}

/** Which workflow runs a model's create, modify and delete transactions. */
export type WorkflowName = 'generic' | 'hierarchy-node' | 'line-relation' | 'bundle' | 'user';

export interface ModelDef {
  /** `<type>/<name>`, e.g. `relation/LineRelation`. */
  modelType: string;
  title: string;
  description: string;
  /** Own schema version; device models follow the api_version mapping instead. */
  schemaVersion: string;
  fields: Record<string, FieldDef>;
  /** Top-level scalar fields shown in lists, filterable and sortable; the first is the default order. */
  summaryAttrs: string[];
  businessKey: BusinessKey;
  actions: ActionDef[];
  /**
   * 'instances': generic resource routes over the instance store.
   * 'service': a tool or view served by its own routes (Transaction, BulkLoad, Search, ExportData).
   */
  storage: 'instances' | 'service';
  workflow: WorkflowName;
}

export function modelKind(modelType: string): string {
  return modelType.slice(0, modelType.indexOf('/'));
}

export function isDeviceModel(model: ModelDef): boolean {
  return modelKind(model.modelType) === 'device';
}
