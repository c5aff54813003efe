import { ApiError } from '../errors';
import { DEVICE_SCHEMA_VERSIONS, LATEST_DEVICE_SCHEMA_VERSION } from './api-versions';

/** Release numbers compare part by part: 20.1.1 < 21.1 < 21.1.0.1. */
function releaseAtLeast(release: string, minimum: string): boolean {
  const a = release.split('.').map(Number);
  const b = minimum.split('.').map(Number);
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    const left = a[i] ?? 0;
    const right = b[i] ?? 0;
    if (left !== right) return left > right;
  }
  return true;
}

/**
 * The device schema version a request asks for. Below release 21.1, `api_version` or
 * `X-Version` pick one from the spec's mapping (latest when absent); from 21.1 on, sending
 * either is refused, as backward compatibility is gone.
 */
/** The release is one setting for the life of a service: compare it once. */
const modernReleases = new Map<string, boolean>();
const isModern = (release: string): boolean => {
  let modern = modernReleases.get(release);
  if (modern === undefined) {
    modern = releaseAtLeast(release, '21.1');
    modernReleases.set(release, modern);
  }
  return modern;
};

export function deviceSchemaVersionFor(release: string, apiVersion: string | null, headerVersion: string | undefined): string {
  const asked = apiVersion ?? headerVersion ?? null;
  if (isModern(release)) {
    if (asked !== null) {
      throw new ApiError(
        400,
        'api-version-not-supported',
        `Release ${release} does not take api_version or X-Version: send requests without them.`,
        [{ field: apiVersion !== null ? 'api_version' : 'X-Version', message: 'not supported from release 21.1' }],
      );
    }
    return LATEST_DEVICE_SCHEMA_VERSION;
  }
  if (asked === null) return LATEST_DEVICE_SCHEMA_VERSION;
  const version = DEVICE_SCHEMA_VERSIONS[asked];
  if (!version) {
    const known = Object.keys(DEVICE_SCHEMA_VERSIONS).join(', ');
    throw new ApiError(400, 'unsupported-api-version', `api_version ${asked} is not supported; use one of ${known}.`, [
      { field: apiVersion !== null ? 'api_version' : 'X-Version', message: `one of ${known}` },
    ]);
  }
  return version;
}

export { releaseAtLeast };
