import { createStore } from 'zustand/vanilla';
import type { ApiClient } from '../api/api-client';
import type { DownloadedFile } from '../api/downloads';
import { asFault, type ApiFault } from '../api/fault';
import type { AsyncAnswer, Instance, SchemaProperty } from '../../../main/service/contract/resource-api';
import { titlesOf } from './resources-store';

export interface InstanceState {
  href?: string;
  loadState: 'idle' | 'loading' | 'ready' | 'error';
  instance?: Instance;
  fault?: ApiFault;
  /** Field titles of the model's form, for the data list; empty until known. */
  titles: Record<string, string>;
  /** A failed action, shown without hiding the instance... */
  actionFault?: ApiFault;
  /** ...where the user acted: the action bar (delete, export) or the meta panel (tags, version tag). */
  actionArea?: 'actions' | 'meta';
  /** What the service warned about in the last tag call (e.g. a tag with capitals). */
  warnings: string[];
  busy: boolean;
  load(href: string): Promise<void>;
  addTag(tag: string): Promise<void>;
  removeTag(tag: string): Promise<void>;
  setVersionTag(versionTag: string): Promise<void>;
  /**
   * Starts the delete as a transaction; resolves with its id, or undefined when it was refused.
   * `approvedFor`: the live deployment the view's own dialog named when the user confirmed.
   */
  remove(approvedFor?: string): Promise<string | undefined>;
  exportSheet(): Promise<DownloadedFile | undefined>;
}

/** `/api/relation/LineRelation/<pkid>/` → `relation/LineRelation`; device models have three parts. */
export function modelTypeOfHref(href: string): string {
  const parts = href
    .replace(/^\/api\//, '')
    .split('?')[0]
    .split('/')
    .filter(Boolean);
  return parts.slice(0, -1).join('/');
}

export function createInstanceStore(client: ApiClient) {
  let ticket = 0;
  return createStore<InstanceState>()((set, get) => {
    /** Runs a PATCH on the instance, keeps the service's warnings, then reads the instance again. */
    const patch = async (suffix: string, query: Record<string, string>): Promise<void> => {
      const href = get().href;
      if (!href) return;
      set({ busy: true, actionFault: undefined, actionArea: 'meta', warnings: [] });
      try {
        const reply = await client.send<{ warnings?: string[] }>('PATCH', `${href}${suffix}`, undefined, query);
        set({ warnings: reply?.warnings ?? [] });
        await refresh(href);
      } catch (error) {
        set({ actionFault: asFault(error) });
      } finally {
        set({ busy: false });
      }
    };

    const refresh = async (href: string): Promise<void> => {
      const instance = await client.get<Instance>(href);
      if (get().href === href) set({ instance });
    };

    const loadTitles = async (instance: Instance): Promise<void> => {
      try {
        const form = await client.get<{ schema?: { properties?: Record<string, SchemaProperty> } }>(
          `/api/${instance.meta.model_type}/add/`,
          { hierarchy: instance.meta.hierarchy },
        );
        if (get().instance?.meta.pkid === instance.meta.pkid) set({ titles: titlesOf(form.schema?.properties) });
      } catch {
        // Field names stand in for titles when the form cannot be read.
      }
    };

    return {
      loadState: 'idle',
      titles: {},
      warnings: [],
      busy: false,
      async load(href) {
        const mine = ++ticket;
        set({ href, loadState: 'loading', fault: undefined, actionFault: undefined, warnings: [], instance: undefined, titles: {} });
        try {
          const instance = await client.get<Instance>(href);
          if (mine !== ticket) return;
          set({ instance, loadState: 'ready' });
          void loadTitles(instance);
        } catch (error) {
          if (mine === ticket) set({ loadState: 'error', fault: asFault(error) });
        }
      },
      addTag: (tag) => patch('+tag/', { tag }),
      removeTag: (tag) => patch('+tag/', { tag: `__CLEAR_TAG__${tag}` }),
      setVersionTag: (versionTag) => patch('+tag_version/', { version_tag: versionTag }),
      async remove(approvedFor) {
        const href = get().href;
        if (!href) return undefined;
        set({ busy: true, actionFault: undefined, actionArea: 'actions' });
        try {
          const reply = await client.send<AsyncAnswer>('DELETE', href, undefined, { nowait: true }, approvedFor);
          return reply.transaction_id;
        } catch (error) {
          set({ actionFault: asFault(error) });
          return undefined;
        } finally {
          set({ busy: false });
        }
      },
      async exportSheet() {
        const { href, instance } = get();
        if (!href || !instance) return undefined;
        set({ busy: true, actionFault: undefined, actionArea: 'actions' });
        try {
          const fallback = `${instance.meta.model_type.replace(/\//g, '_')}_${instance.meta.pkid}.xlsx`;
          return await client.file(
            'GET',
            `${href}export/`,
            { query: { export_format: 'xlsx', hierarchy: instance.meta.hierarchy } },
            fallback,
          );
        } catch (error) {
          set({ actionFault: asFault(error) });
          return undefined;
        } finally {
          set({ busy: false });
        }
      },
    };
  });
}

export type InstanceStore = ReturnType<typeof createInstanceStore>;
