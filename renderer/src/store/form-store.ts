import { createStore } from 'zustand/vanilla';
import type { ApiClient } from '../api/api-client';
import { asFault, type ApiFault } from '../api/fault';
import type { AsyncAnswer, Instance, ListAnswer, SchemaProperty } from '../api/types';
import { groupsOf, type FieldGroup, type FormMeta } from '../views/form/form-layout';
import { addPayload, editPayload } from '../views/form/payload';
import { getAt, newRow, propertyAt, setAt, type JsonRecord } from '../views/form/schema-paths';
import { filledBy, templateFills, type TemplateFill } from '../views/form/template-fills';
import { validateForm, type FieldErrors } from '../views/form/validate';

/** A Configuration Template the form can apply (data/ConfigurationTemplate). */
export interface TemplateChoice {
  pkid: string;
  name: string;
  hierarchy: string;
  description?: string;
  template: unknown;
}

export interface FormTarget {
  modelType: string;
  /** Instance href: edit mode. */
  href?: string;
  /** Node pkid or dot path where an add happens. */
  hierarchy: string;
}

/** What a successful submit started: the view follows it. */
export interface Submitted {
  transactionId: string;
  label: string;
}

export interface FormState {
  mode: 'add' | 'edit';
  status: 'idle' | 'loading' | 'ready' | 'error';
  target?: FormTarget;
  title: string;
  /** Edit mode: the instance's first summary value and its node, to say what is edited. */
  subject?: string;
  subjectHierarchy?: string;
  schema?: SchemaProperty;
  meta?: FormMeta;
  groups: FieldGroup[];
  initial: JsonRecord;
  values: JsonRecord;
  /** Client checks and server details together, by field path: what the fields show. */
  errors: FieldErrors;
  /** The last submit's fault details, kept until their field is edited. */
  serverErrors: FieldErrors;
  /** The load fault (status 'error') or the last submit's fault. */
  fault?: ApiFault;
  /** A submit was tried: from then on the checks run as the user types. */
  attempted: boolean;
  submitting: boolean;
  notice?: string;
  templates: TemplateChoice[];
  templatesState: 'idle' | 'loading' | 'ready' | 'error';
  templateFault?: ApiFault;
  templatePkid?: string;
  fills: TemplateFill[];
  /** Path -> the template's text for it, for the per-field badge. */
  fillByPath: Record<string, string>;
  load(target: FormTarget): Promise<void>;
  setValue(path: string, value: unknown): void;
  addRow(path: string): void;
  removeRow(path: string, index: number): void;
  pickTemplate(pkid: string | undefined): void;
  /** Checks, then sends; resolves with the transaction to follow, or undefined when blocked. */
  submit(): Promise<Submitted | undefined>;
}

interface AddAnswer {
  data?: JsonRecord;
  schema: SchemaProperty;
  meta?: FormMeta;
}

const CFT = '/api/data/ConfigurationTemplate/';

const BLANK = {
  status: 'idle' as const,
  title: '',
  groups: [],
  initial: {},
  values: {},
  errors: {},
  serverErrors: {},
  attempted: false,
  submitting: false,
  templates: [],
  templatesState: 'idle' as const,
  fills: [],
  fillByPath: {},
};

export function createFormStore(client: ApiClient) {
  let loadToken = 0;
  return createStore<FormState>()((set, get) => {
    /** Re-runs the checks once a submit was tried; server messages stay until their field changes. */
    const recheck = (): FieldErrors => {
      const { schema, values, fills, attempted, serverErrors } = get();
      if (!schema || !attempted) return serverErrors;
      return { ...validateForm(schema, values, filledBy(fills)), ...serverErrors };
    };

    const loadTemplates = async (target: FormTarget, hierarchy: string, token: number): Promise<void> => {
      set({ templatesState: 'loading', templateFault: undefined });
      try {
        const list = await client.get<ListAnswer>(CFT, {
          hierarchy,
          traversal: 'up',
          summary: false,
          limit: 500,
          order_by: 'name',
          filter_field: 'target_model_type',
          filter_condition: 'equals',
          filter_text: target.modelType,
          ignore_case: false,
        });
        if (token === loadToken) set({ templates: list.resources.map(templateChoice), templatesState: 'ready' });
      } catch (error) {
        if (token === loadToken) set({ templatesState: 'error', templateFault: asFault(error) });
      }
    };

    return {
      mode: 'add',
      ...BLANK,
      async load(target) {
        const token = ++loadToken;
        set({ ...BLANK, mode: target.href ? 'edit' : 'add', status: 'loading', target, fault: undefined, notice: undefined, templatePkid: undefined });
        try {
          const instance = target.href ? await client.get<Instance>(target.href) : undefined;
          const modelType = instance?.meta.model_type ?? target.modelType;
          const hierarchy = instance?.meta.hierarchy ?? target.hierarchy;
          const form = await client.get<AddAnswer>(`/api/${modelType}/add/`, { hierarchy });
          if (token !== loadToken) return;
          const initial = instance ? instance.data : (form.data ?? {});
          const subject = instance ? summaryOf(instance, form.meta) : undefined;
          set({ status: 'ready', schema: form.schema, meta: form.meta, groups: groupsOf(form.schema, form.meta), initial, values: initial, title: titleOf(form, modelType), subject, subjectHierarchy: instance?.meta.hierarchy });
          await loadTemplates({ ...target, modelType }, hierarchy, token);
        } catch (error) {
          if (token === loadToken) set({ status: 'error', fault: asFault(error) });
        }
      },

      setValue(path, value) {
        const serverErrors = Object.fromEntries(Object.entries(get().serverErrors).filter(([field]) => field !== path && !field.startsWith(`${path}.`)));
        set({ values: setAt(get().values, path, value), serverErrors, notice: undefined });
        set({ errors: recheck() });
      },

      addRow(path) {
        const rows = getAt(get().values, path);
        const list = Array.isArray(rows) ? rows : [];
        const items = get().schema ? propertyAt(get().schema as SchemaProperty, path)?.items : undefined;
        set({ values: setAt(get().values, path, [...list, newRow(items)]) });
        set({ errors: recheck() });
      },

      removeRow(path, index) {
        const rows = getAt(get().values, path);
        const list = Array.isArray(rows) ? rows.filter((_, i) => i !== index) : [];
        // Row paths shift after a removal, so messages under this list are dropped or recomputed.
        const serverErrors = Object.fromEntries(Object.entries(get().serverErrors).filter(([field]) => !field.startsWith(`${path}.`)));
        set({ values: setAt(get().values, path, list), serverErrors });
        set({ errors: recheck() });
      },

      pickTemplate(pkid) {
        const choice = get().templates.find((t) => t.pkid === pkid);
        const fills = choice && get().schema ? templateFills(choice.template, get().schema as SchemaProperty) : [];
        set({ templatePkid: choice?.pkid, fills, fillByPath: Object.fromEntries(fills.map((fill) => [fill.path, fill.text])) });
        set({ errors: recheck() });
      },

      async submit() {
        const state = get();
        if (!state.schema || !state.target || state.submitting) return undefined;
        const errors = validateForm(state.schema, state.values, filledBy(state.fills));
        set({ attempted: true, errors, serverErrors: {}, fault: undefined, notice: undefined });
        if (Object.keys(errors).length > 0) return undefined;
        const data = state.mode === 'edit' ? editPayload(state.schema, state.values, state.initial) : addPayload(state.schema, state.values, state.initial, filledBy(state.fills));
        if (state.mode === 'edit' && Object.keys(data).length === 0 && !state.templatePkid) {
          set({ notice: 'Nothing has changed: edit a field, or cancel.' });
          return undefined;
        }
        return send(client, state, data, set);
      },
    };
  });
}

type SetState = (partial: Partial<FormState>) => void;

async function send(client: ApiClient, state: FormState, data: JsonRecord, set: SetState): Promise<Submitted | undefined> {
  const target = state.target as FormTarget;
  const query = { nowait: 'true', template: state.templatePkid, ...(state.mode === 'add' ? { hierarchy: target.hierarchy } : {}) };
  set({ submitting: true });
  try {
    const answer = state.mode === 'edit' ? await client.send<AsyncAnswer>('PUT', target.href as string, { data }, query) : await client.send<AsyncAnswer>('POST', `/api/${target.modelType}/`, { data }, query);
    set({ submitting: false });
    return { transactionId: answer.transaction_id, label: `${state.mode === 'edit' ? 'Modify' : 'Add'} ${state.title}` };
  } catch (error) {
    const fault = asFault(error);
    const serverErrors = detailsByField(fault);
    set({ submitting: false, fault, serverErrors, errors: { ...state.errors, ...serverErrors } });
    return undefined;
  }
}

/** A 400's details name fields by path, as the form does, so each lands next to its input. */
export function detailsByField(fault: ApiFault): FieldErrors {
  const errors: FieldErrors = {};
  for (const detail of fault.details) if (detail.field) errors[detail.field] = detail.message;
  return errors;
}

function templateChoice(instance: Instance): TemplateChoice {
  const data = instance.data;
  return {
    pkid: instance.meta.pkid,
    name: typeof data.name === 'string' ? data.name : instance.meta.pkid,
    hierarchy: instance.meta.hierarchy,
    description: typeof data.description === 'string' ? data.description : undefined,
    template: data.template,
  };
}

function summaryOf(instance: Instance, meta: FormMeta | undefined): string | undefined {
  const first = meta?.summary_attrs?.[0]?.name;
  const value = first ? instance.data[first] : undefined;
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

function titleOf(form: AddAnswer, modelType: string): string {
  return form.meta?.title ?? form.schema.title ?? modelType;
}
