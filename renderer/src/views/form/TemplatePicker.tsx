import { FaultNotice } from '../../components/FaultNotice';
import { useSlice, useStores } from '../../store/stores';
import type { TemplateFill } from './template-fills';
import { PreviewValue, useFillPreview } from './field-parts';

/**
 * Picks the Configuration Template applied when saving: those made for this model at the node
 * and up the tree. Once picked, it lists the fields the template fills and with what.
 */
export function TemplatePicker() {
  const { form } = useStores();
  const templates = useSlice('form', (s) => s.templates);
  const state = useSlice('form', (s) => s.templatesState);
  const fault = useSlice('form', (s) => s.templateFault);
  const picked = useSlice('form', (s) => s.templatePkid);
  const fills = useSlice('form', (s) => s.fills);
  const mode = useSlice('form', (s) => s.mode);
  const choice = templates.find((t) => t.pkid === picked);

  return (
    <div className="template-picker">
      <div className="shaper-row">
        <label htmlFor="form-template">Configuration template</label>
        <select
          id="form-template"
          name="template"
          value={picked ?? ''}
          onChange={(e) => form.getState().pickTemplate(e.target.value || undefined)}
          disabled={state === 'loading'}
        >
          <option value="">None</option>
          {templates.map((t) => (
            <option key={t.pkid} value={t.pkid}>
              {t.name} ({t.hierarchy})
            </option>
          ))}
        </select>
        {state === 'loading' && <span className="muted">Loading templates…</span>}
        {state === 'ready' && templates.length === 0 && <span className="muted">No template for this model at this node or above.</span>}
      </div>
      {fault && <FaultNotice fault={fault} />}
      {choice && (
        <div className="template-fills">
          {choice.description && <p className="muted">{choice.description}</p>}
          {fills.length === 0 ? (
            <p>This template sets no fields.</p>
          ) : (
            <>
              <p>
                This template fills {fills.length} field{fills.length === 1 ? '' : 's'} (marked{' '}
                <span className="template-badge">from template</span> below):
              </p>
              <ul>
                {fills.map((fill) => (
                  <FillItem key={fill.path} fill={fill} />
                ))}
              </ul>
            </>
          )}
          <p className="field-help">
            Values you type win: the service applies the template first and keeps every value you enter. A field left empty gets the
            template’s value, shown in grey{mode === 'add' ? '.' : ' (computed again from this instance’s values on save).'}
          </p>
        </div>
      )}
    </div>
  );
}

const YES_NO: ReadonlyMap<string, string> = new Map([
  ['true', 'Yes'],
  ['false', 'No'],
]);

/** One field the template fills, with the value it makes from the form as typed so far (the macro itself on hover). */
function FillItem({ fill }: { fill: TemplateFill }) {
  // A checkbox's value reads as the box shows it: Yes or No, not the JSON true or false.
  const preview = useFillPreview(YES_NO.get(fill.text) ?? fill.text);
  return (
    <li title={`${fill.path}: ${fill.text}`}>
      {fill.title} ← {preview ? <PreviewValue preview={preview} /> : fill.text}
      {fill.perItem && <span className="muted"> (for each item)</span>}
    </li>
  );
}
