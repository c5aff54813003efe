import { useEffect, useState } from 'react';
import type { ApiClient } from '../../api/api-client';
import type { Instance } from '../../../../main/service/contract/resource-api';
import { useStores } from '../../store/stores';

/** The fields that name an instance to an engineer, in the order they are tried. */
const NAME_FIELDS = ['pattern', 'name', 'userid', 'username', 'internal_number', 'country_name'];

/** An instance's name from its data (a line's number, a node's or a phone's name), if it has one. */
export function nameOfData(data: Record<string, unknown> | undefined): string | undefined {
  for (const field of NAME_FIELDS) {
    const value = data?.[field];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

/** A short name for a heading or a message: the instance's name, else its pkid. */
export function nameOf(instance: Instance): string {
  return nameOfData(instance.data) ?? instance.meta.pkid;
}

/** One read per referenced instance and client: a view that shows five references asks five times, once. */
const asked = new WeakMap<ApiClient, Map<string, Promise<string | undefined>>>();

function nameAt(client: ApiClient, href: string): Promise<string | undefined> {
  let names = asked.get(client);
  if (!names) asked.set(client, (names = new Map()));
  let name = names.get(href);
  if (!name) {
    // A reference that cannot be read (deleted, out of the user's reach) keeps its pkid: no fault for a label.
    name = client.get<Instance>(href).then(
      (instance) => nameOfData(instance.data),
      () => undefined,
    );
    names.set(href, name);
  }
  return name;
}

/**
 * The name of the instance at `href`, read once, for showing a reference as the engineer knows
 * it (Paris, +33140001000, SEP00AA00000000) rather than as a pkid. Undefined until read, or when
 * it has no name.
 */
export function useReferenceName(href: string | undefined): string | undefined {
  const { client } = useStores();
  const [name, setName] = useState<{ href: string; name?: string }>();
  useEffect(() => {
    if (!href) return;
    let current = true;
    void nameAt(client, href).then((found) => current && setName({ href, name: found }));
    return () => {
      current = false;
    };
  }, [client, href]);
  return name && name.href === href ? name.name : undefined;
}
