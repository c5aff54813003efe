import { isJsonObject, type JsonObject } from '../service/api-types';

/** Fields of a remote's JSON answers, read without trusting their shape: a missing or mistyped one is undefined. */
export const objectOf = (value: unknown, key: string): JsonObject | undefined => {
  const found = isJsonObject(value) ? value[key] : undefined;
  return isJsonObject(found) ? found : undefined;
};

export const textOf = (value: unknown, key: string): string | undefined => {
  const found = isJsonObject(value) ? value[key] : undefined;
  return typeof found === 'string' ? found : undefined;
};

/** The `resources` of a list answer. */
export const resourcesOf = (body: unknown): JsonObject[] => {
  const list = isJsonObject(body) ? body.resources : undefined;
  return Array.isArray(list) ? list.filter(isJsonObject) : [];
};
