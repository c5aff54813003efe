import { FaultNotice } from '../../components/FaultNotice';
import { useSlice, useStores } from '../../store/stores';

/**
 * Picks the Field Display Policy the form is laid out with: those made for this model at the
 * node and up the tree. "Default layout" is what the service picks by itself (the nearest
 * policy named `default`, else the plain form). The choice is kept per model for the session.
 */
export function LayoutPicker() {
  const { form } = useStores();
  const policies = useSlice('form', (s) => s.policies);
  const state = useSlice('form', (s) => s.policiesState);
  const picked = useSlice('form', (s) => s.policyPkid);
  const relayout = useSlice('form', (s) => s.relayout);
  const fault = useSlice('form', (s) => s.policyFault);
  const applied = useSlice('form', (s) => s.meta?.field_display_policy);
  const choice = policies.find((policy) => policy.pkid === picked);
  // Until the list answers, the policy the service applied is still named in the select.
  const unlisted = picked !== '' && !choice && applied?.pkid === picked;

  return (
    <div className="shaper-row">
      <label htmlFor="form-layout">Form layout</label>
      <select id="form-layout" value={picked} onChange={(e) => void form.getState().pickPolicy(e.target.value)} disabled={relayout}>
        <option value="">Default layout</option>
        {unlisted && (
          <option value={picked}>
            {applied.name ?? picked} ({applied.hierarchy})
          </option>
        )}
        {policies.map((policy) => (
          <option key={policy.pkid} value={policy.pkid}>
            {policy.name} ({policy.hierarchy})
          </option>
        ))}
      </select>
      <span className="muted shaper-note" role="status">
        {relayout ? 'Loading the layout…' : note(picked, choice?.description, applied, state === 'ready' && policies.length === 0)}
      </span>
      {fault && <FaultNotice fault={fault} />}
    </div>
  );
}

function note(
  picked: string,
  description: string | undefined,
  applied: { name: string | null; hierarchy: string } | undefined,
  none: boolean,
): string {
  if (picked !== '') return description ?? '';
  if (applied) return `The service’s default here: ${applied.name ?? 'a policy'} (${applied.hierarchy}).`;
  return none ? 'No layout for this model at this node or above.' : 'All fields, in model order.';
}
