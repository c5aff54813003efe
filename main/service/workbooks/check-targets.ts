import type { Store } from '../domain/store';
import type { ValidationCaller } from '../sheets/validate-context';

/**
 * What a workbook that targets a remote profile is checked against: the profile's mirror (its
 * store and file), as the profile's user at the node it was pulled from. Implemented over the
 * mirror workspaces (main/remote/mirror-targets.ts); the workbooks only know this shape.
 */
export interface MirrorTarget {
  profileName: string;
  store: Store;
  /** The mirror's file, which a job opens read-only. */
  file: string;
  caller: ValidationCaller;
  /** Local time of the mirror's last pull: what offline results were checked against. */
  pulledAt: string;
}

export interface CheckTargets {
  /** The profile's mirror, or undefined when the profile is gone or was never pulled. */
  mirrorOf(profilePkid: string): MirrorTarget | undefined;
}
