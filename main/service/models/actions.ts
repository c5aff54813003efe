import type { ActionDef } from './types';

/**
 * The actions of a model backed by the instance store. `support_async` is true for the actions
 * that run as transactions, because only those honour `nowait=true`.
 */
export function resourceActions(options: { readOnly?: boolean } = {}): ActionDef[] {
  const read: ActionDef[] = [
    { name: 'list', title: 'List', method: 'GET', path: '', class: 'list', supportAsync: false },
    { name: 'get', title: 'Get', method: 'GET', path: '{pkid}/', class: 'get', supportAsync: false },
    { name: 'help', title: 'Help', method: 'GET', path: 'help/', class: 'help', supportAsync: false },
    { name: 'export', title: 'Export', method: 'GET', path: '{pkid}/export/', class: 'export', supportAsync: false },
  ];
  if (options.readOnly) return read;
  return [
    ...read,
    { name: 'add', title: 'Add', method: 'GET', path: 'add/', class: 'add', supportAsync: false },
    { name: 'create', title: 'Create', method: 'POST', path: '', class: 'create', supportAsync: true },
    { name: 'update', title: 'Modify', method: 'PUT', path: '{pkid}/', class: 'update', supportAsync: true },
    { name: 'delete', title: 'Delete', method: 'DELETE', path: '{pkid}/', class: 'delete', supportAsync: true },
    { name: 'tag', title: 'Tag', method: 'PATCH', path: '{pkid}/+tag/', class: 'tag', supportAsync: false },
    {
      name: 'tag_version',
      title: 'Version Tag',
      method: 'PATCH',
      path: '{pkid}/+tag_version/',
      class: 'tag_version',
      supportAsync: false,
    },
    {
      name: 'export_bulkload_template',
      title: 'Export Bulk Load Template',
      method: 'GET',
      path: 'export_bulkload_template/',
      class: 'export_bulkload_template',
      supportAsync: false,
    },
  ];
}

export function hasAction(actions: ActionDef[], name: string): boolean {
  return actions.some((action) => action.name === name);
}
