import type { JsonObject } from '../../api-types';
import type { RuleProblem } from './problem';

/**
 * A bundle is a subscriber, a phone and a line relation made in one transaction. What each
 * part holds is said here once: the workflow stores these, and validation checks their keys.
 */
const text = (data: JsonObject, field: string): string => String(data[field] ?? '');

export interface BundleParts {
  subscriber: JsonObject;
  phone: JsonObject;
  relation: JsonObject;
}

export function bundleParts(data: JsonObject): BundleParts {
  const device = text(data, 'device_name');
  return {
    subscriber: {
      userid: text(data, 'userid'),
      firstname: text(data, 'firstname'),
      lastname: text(data, 'lastname'),
      device,
      phone: device,
    },
    phone: {
      name: device,
      product: text(data, 'product') || 'Cisco 8845',
      protocol: 'SIP',
      description: `${text(data, 'firstname')} ${text(data, 'lastname')}`.trim(),
      lines: [],
    },
    relation: {
      pattern: text(data, 'pattern'),
      routePartitionName: '',
      alertingName: text(data, 'alertingName'),
      summary_device: device,
      usage: 'Device',
    },
  };
}

/** The bundle's field each part's key comes from, where a clash is reported. */
export const BUNDLE_KEY_FIELDS: Record<keyof BundleParts, string> = { subscriber: 'userid', phone: 'device_name', relation: 'pattern' };

/** The fields a bundle keeps for its life: changing one is refused (400), each reported. */
const FIXED = ['userid', 'device_name', 'pattern'];

export function bundleChangeProblems(before: JsonObject, data: JsonObject): RuleProblem[] {
  const problems: RuleProblem[] = [];
  for (const field of FIXED) {
    if (text(before, field) === text(data, field)) continue;
    problems.push({
      field,
      code: 'cannot-change',
      message: `A bundle's ${field} cannot be changed: delete the bundle and add it again.`,
      httpCode: 400,
      apiCode: 'validation-failed',
    });
  }
  return problems;
}
