import type { JsonObject } from '../api-types';
import { findModel } from '../models/registry';

/**
 * An instance's summary as stored in `instances.summary` (migration 11): each summary attribute
 * of its model, in the model's order, null where the document lacks it. The same object the
 * lists and searches answer with, and what the summary indexes are built on.
 */
export function summaryText(modelType: string, data: JsonObject): string {
  const summary: Record<string, unknown> = {};
  for (const attr of findModel(modelType)?.summaryAttrs ?? []) summary[attr] = data[attr] ?? null;
  return JSON.stringify(summary);
}
