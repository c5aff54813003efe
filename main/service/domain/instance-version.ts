import { createHash } from 'node:crypto';
import type { InstanceRecord } from '../store/instances-repo';

/**
 * A stored instance's version, for optimistic checks (a staged workbook's plan against its
 * load): a digest of where it is and what it holds. The store keeps no counter per instance; an
 * instance changed and changed back counts as unchanged, which is what a plan needs to know.
 */
export function versionOf(record: Pick<InstanceRecord, 'hierarchyPkid' | 'data'>): string {
  return createHash('sha1').update(record.hierarchyPkid).update('\0').update(JSON.stringify(record.data)).digest('base64url').slice(0, 22);
}
