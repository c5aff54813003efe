import { createStore } from 'zustand/vanilla';
import type { ApiClient } from '../api/api-client';
import { asFault, type ApiFault } from '../api/fault';
import type { AsyncAnswer, Instance, SchemaProperty } from '../../../main/service/contract/resource-api';
import { groupsOf, type FieldGroup, type FormMeta } from '../views/form/form-layout';
import { carryOver, clearForTemplate, restoreCleared } from '../views/form/form-values';
import { addPayload, editPayload } from '../views/form/payload';
import { policiesFor, templatesFor, type FormSource, type PolicyChoice, type TemplateChoice } from '../views/form/shapers';
import { getAt, newRow, propertyAt, setAt, type JsonRecord } from '../views/form/schema-paths';
import { filledBy, templateFills, type TemplateFill } from '../views/form/template-fills';
import { validateForm, type FieldErrors } from '../views/form/validate';

export type { TemplateChoice } from '../views/form/shapers';

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
  /** Paths emptied so the template gives them (form-values.ts): restored when it is unpicked. */
  cleared: string[];
  source?: FormSource;
  policies: PolicyChoice[];
  policiesState: 'idle' | 'loading' | 'ready' | 'error';
  /** A failed policy list or form re-read: shown by the layout picker. */
  policyFault?: ApiFault;
  /** The layout picker's value: a policy pkid, or '' for the service's default layout. */
  policyPkid: string;
  /** The form is being re-read with another layout. */
  relayout: boolean;
  /** The layout chosen per model, kept for the session (never reset by load). */
  policyByModel: Record<string, string>;
  load(target: FormTarget): Promise<void>;
  setValue(path: string, value: unknown): void;
  addRow(path: string): void;
  removeRow(path: string, index: number): void;
  pickTemplate(pkid: string | undefined): void;
  /** Re-reads the form with this layout ('' = default), keeping what the user typed. */
  pickPolicy(pkid: string): Promise<void>;
  /** Checks, then sends; resolves with the transaction to follow, or undefined when blocked. */
  submit(): Promise<Submitted | undefined>;
}

interface AddAnswer {
  data?: JsonRecord;
  schema: SchemaProperty;
  meta?: FormMeta;
}

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
  cleared: [],
  source: undefined,
  policies: [],
  policiesState: 'idle' as const,
  policyFault: undefined,
  policyPkid: '',
  relayout: false,
};

/** What the form holds with a template applied (or none): its fills, and the values emptied for it. */
function withTemplate(schema: SchemaProperty, choice: TemplateChoice | undefined, values: JsonRecord, initial: JsonRecord) {
  const fills = choice ? templateFills(choice.template, schema) : [];
  const applied = clearForTemplate(values, initial, fills);
  return {
    fills,
    fillByPath: Object.fromEntries(fills.map((fill) => [fill.path, fill.text])),
    values: applied.values,
    cleared: applied.cleared,
  };
}

export function createFormStore(client: ApiClient) {
  let loadToken = 0;
  return createStore<FormState>()((set, get) => {
    /** Re-runs the checks once a submit was tried; server messages stay until their field changes. */
    const recheck = (): FieldErrors => {
      const { schema, values, fills, attempted, serverErrors } = get();
      if (!schema || !attempted) return serverErrors;
      return { ...validateForm(schema, values, filledBy(fills)), ...serverErrors };
    };

    const loadTemplates = async (source: FormSource, token: number): Promise<void> => {
      set({ templatesState: 'loading', templateFault: undefined });
      try {
        const templates = await templatesFor(client, source);
        if (token === loadToken) set({ templates, templatesState: 'ready' });
      } catch (error) {
        if (token === loadToken) set({ templatesState: 'error', templateFault: asFault(error) });
      }
    };

    const loadPolicies = async (source: FormSource, token: number): Promise<void> => {
      set({ policiesState: 'loading' });
      try {
        const policies = await policiesFor(client, source);
        if (token === loadToken) set({ policies, policiesState: 'ready' });
      } catch (error) {
        if (token === loadToken) set({ policiesState: 'error', policyFault: asFault(error) });
      }
    };

    /** The form with the layout remembered for the model; one that is gone is forgotten, not fatal. */
    const readForm = async (source: FormSource): Promise<{ form: AddAnswer; policyPkid: string }> => {
      const url = `/api/${source.modelType}/add/`;
      const remembered = get().policyByModel[source.modelType];
      if (remembered) {
        try {
          return { form: await client.get<AddAnswer>(url, { hierarchy: source.hierarchy, policy: remembered }), policyPkid: remembered };
        } catch (error) {
          if (asFault(error).status !== 404) throw error;
          set({ policyByModel: withoutKey(get().policyByModel, source.modelType) });
        }
      }
      const form = await client.get<AddAnswer>(url, { hierarchy: source.hierarchy });
      return { form, policyPkid: remembered === '' ? '' : (form.meta?.field_display_policy?.pkid ?? '') };
    };

    return {
      mode: 'add',
      ...BLANK,
      policyByModel: {},
      async load(target) {
        const token = ++loadToken;
        set({
          ...BLANK,
          mode: target.href ? 'edit' : 'add',
          status: 'loading',
          target,
          fault: undefined,
          notice: undefined,
          templatePkid: undefined,
        });
        try {
          const instance = target.href ? await client.get<Instance>(target.href) : undefined;
          const source = {
            modelType: instance?.meta.model_type ?? target.modelType,
            hierarchy: instance?.meta.hierarchy ?? target.hierarchy,
          };
          const { form, policyPkid } = await readForm(source);
          if (token !== loadToken) return;
          const initial = instance ? instance.data : (form.data ?? {});
          const subject = instance ? summaryOf(instance, form.meta) : undefined;
          set({
            status: 'ready',
            source,
            policyPkid,
            initial,
            values: initial,
            title: titleOf(form, source.modelType),
            subject,
            subjectHierarchy: instance?.meta.hierarchy,
            ...shapeOf(form),
          });
          await Promise.all([loadTemplates(source, token), loadPolicies(source, token)]);
        } catch (error) {
          if (token === loadToken) set({ status: 'error', fault: asFault(error) });
        }
      },

      setValue(path, value) {
        const serverErrors = Object.fromEntries(
          Object.entries(get().serverErrors).filter(([field]) => field !== path && !field.startsWith(`${path}.`)),
        );
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
        const { schema, templates, values, initial, cleared } = get();
        if (!schema) return;
        const choice = templates.find((t) => t.pkid === pkid);
        // The previous template's emptied fields get their start back before the new one empties its own.
        set({ templatePkid: choice?.pkid, ...withTemplate(schema, choice, restoreCleared(values, initial, cleared), initial) });
        set({ errors: recheck() });
      },

      async pickPolicy(pkid) {
        const { source, policyByModel } = get();
        if (!source || get().relayout) return;
        const token = loadToken;
        set({ policyPkid: pkid, policyByModel: { ...policyByModel, [source.modelType]: pkid }, relayout: true, policyFault: undefined });
        try {
          const form = await client.get<AddAnswer>(`/api/${source.modelType}/add/`, {
            hierarchy: source.hierarchy,
            policy: pkid || undefined,
          });
          if (token !== loadToken) return;
          set({ ...relaidOut(get(), form), relayout: false });
          set({ errors: recheck() });
        } catch (error) {
          if (token === loadToken) set({ relayout: false, policyFault: asFault(error) });
        }
      },

      async submit() {
        const state = get();
        if (!state.schema || !state.target || state.submitting) return undefined;
        const errors = validateForm(state.schema, state.values, filledBy(state.fills));
        set({ attempted: true, errors, serverErrors: {}, fault: undefined, notice: undefined });
        if (Object.keys(errors).length > 0) return undefined;
        const data =
          state.mode === 'edit'
            ? editPayload(state.schema, state.values, state.initial, filledBy(state.fills))
            : addPayload(state.schema, state.values);
        if (state.mode === 'edit' && Object.keys(data).length === 0 && !state.templatePkid) {
          set({ notice: 'Nothing has changed: edit a field, or cancel.' });
          return undefined;
        }
        return send(client, state, data, set);
      },
    };
  });
}

/** The schema, policy and sections of an `add/` answer. */
function shapeOf(form: AddAnswer): Pick<FormState, 'schema' | 'meta' | 'groups'> {
  return { schema: form.schema, meta: form.meta, groups: groupsOf(form.schema, form.meta) };
}

/**
 * The form re-read with another layout. An add starts from the new layout's defaults with what
 * the user changed on top; an edit keeps the instance's values. The picked template applies again.
 */
function relaidOut(state: FormState, form: AddAnswer): Partial<FormState> {
  const initial = state.mode === 'edit' ? state.initial : (form.data ?? {});
  const typed = restoreCleared(state.values, state.initial, state.cleared);
  const values = state.mode === 'edit' ? typed : (carryOver(typed, state.initial, initial) as JsonRecord);
  const choice = state.templates.find((t) => t.pkid === state.templatePkid);
  return { ...shapeOf(form), initial, ...withTemplate(form.schema, choice, values, initial) };
}

function withoutKey(record: Record<string, string>, key: string): Record<string, string> {
  return Object.fromEntries(Object.entries(record).filter(([name]) => name !== key));
}

type SetState = (partial: Partial<FormState>) => void;

async function send(client: ApiClient, state: FormState, data: JsonRecord, set: SetState): Promise<Submitted | undefined> {
  const target = state.target as FormTarget;
  const query = { nowait: 'true', template: state.templatePkid, ...(state.mode === 'add' ? { hierarchy: target.hierarchy } : {}) };
  set({ submitting: true });
  try {
    const answer =
      state.mode === 'edit'
        ? await client.send<AsyncAnswer>('PUT', target.href as string, { data }, query)
        : await client.send<AsyncAnswer>('POST', `/api/${target.modelType}/`, { data }, query);
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

function summaryOf(instance: Instance, meta: FormMeta | undefined): string | undefined {
  const first = meta?.summary_attrs?.[0]?.name;
  const value = first ? instance.data[first] : undefined;
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

function titleOf(form: AddAnswer, modelType: string): string {
  return form.meta?.title ?? form.schema.title ?? modelType;
}
