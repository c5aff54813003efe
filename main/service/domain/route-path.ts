/**
 * Splits `/api/<type>/<name>/...` into the model type and what follows. Device models have
 * three segments (`device/cucm/Line`); every other type has two.
 */
export interface RoutePath {
  modelType: string;
  rest: string[];
}

export function parseRoutePath(pathname: string): RoutePath | undefined {
  const segments = pathname
    .replace(/^\/api\//, '')
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => (segment.includes('%') ? safeDecode(segment) : segment));
  const width = segments[0] === 'device' ? 3 : 2;
  if (segments.length < width) return undefined;
  return { modelType: segments.slice(0, width).join('/'), rest: segments.slice(width) };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
