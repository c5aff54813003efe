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

/**
 * Whether two documents of a model have the same summary, without writing either out: a bulk
 * load asks this of the phone each of its rows puts a line on.
 */
export function sameSummary(modelType: string, a: JsonObject, b: JsonObject): boolean {
  return (findModel(modelType)?.summaryAttrs ?? []).every((attr) => {
    const [left, right] = [a[attr] ?? null, b[attr] ?? null];
    if (left === right) return true;
    return typeof left === 'object' && typeof right === 'object' && JSON.stringify(left) === JSON.stringify(right);
  });
}
