import { useMemo, type KeyboardEvent } from 'react';
import type { SchemaProperty } from '../../../../main/service/contract/resource-api';
import { useSlice } from '../../store/stores';
import { FieldInput } from './FieldInput';
import type { FieldGroup } from './form-layout';
import { propertyAt } from './schema-paths';

interface SectionsProps {
  schema: SchemaProperty;
  groups: FieldGroup[];
  tabs: boolean;
  current: number;
  onSelect: (index: number) => void;
}

/**
 * The form's groups: stacked sections, or tabs when there are many. Every tab panel stays in the
 * page (only hidden), so its inputs keep their values and the error summary can reach them.
 */
export function FormSections({ schema, groups, tabs, current, onSelect }: SectionsProps) {
  if (!tabs) {
    return (
      <>
        {groups.map((group) => (
          <section className="form-section card" key={group.title} aria-labelledby={sectionId(group)}>
            <h2 id={sectionId(group)}>{group.title}</h2>
            <GroupFields schema={schema} group={group} />
          </section>
        ))}
      </>
    );
  }
  return (
    <div className="form-tabs">
      <TabList groups={groups} current={current} onSelect={onSelect} />
      {groups.map((group, index) => (
        <section
          className="form-section card"
          key={group.title}
          role="tabpanel"
          id={`${sectionId(group)}-panel`}
          aria-labelledby={`${sectionId(group)}-tab`}
          hidden={index !== current}
        >
          <GroupFields schema={schema} group={group} />
        </section>
      ))}
    </div>
  );
}

function GroupFields({ schema, group }: { schema: SchemaProperty; group: FieldGroup }) {
  return (
    <div className="form-grid">
      {group.fields.map((path) => {
        const property = propertyAt(schema, path);
        return property ? <FieldInput key={path} path={path} property={property} /> : null;
      })}
    </div>
  );
}

function TabList({ groups, current, onSelect }: { groups: FieldGroup[]; current: number; onSelect: (index: number) => void }) {
  const errors = useSlice('form', (s) => s.errors);
  const counts = useMemo(
    () => groups.map((group) => Object.keys(errors).filter((path) => groupOfPath(groups, path) === group).length),
    [errors, groups],
  );
  // Arrow keys move between tabs, as the ARIA tabs pattern expects.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    const next = (current + step + groups.length) % groups.length;
    onSelect(next);
    document.getElementById(`${sectionId(groups[next])}-tab`)?.focus();
  };
  return (
    <div className="tab-list" role="tablist" aria-label="Form sections" onKeyDown={onKeyDown}>
      {groups.map((group, index) => (
        <button
          type="button"
          role="tab"
          key={group.title}
          id={`${sectionId(group)}-tab`}
          aria-selected={index === current}
          aria-controls={`${sectionId(group)}-panel`}
          tabIndex={index === current ? 0 : -1}
          className={index === current ? 'current' : undefined}
          onClick={() => onSelect(index)}
        >
          {group.title}
          {counts[index] > 0 && (
            <span className="tab-errors" aria-label={`${counts[index]} to fix`}>
              {counts[index]}
            </span>
          )}
        </button>
      ))}
    </div>
  );
}

/** The group that shows a field path: the group listing it, or the one listing its top-level field. */
export function groupOfPath(groups: FieldGroup[], path: string): FieldGroup | undefined {
  const top = path.split('.')[0];
  return (
    groups.find((group) => group.fields.some((field) => path === field || path.startsWith(`${field}.`))) ??
    groups.find((group) => group.fields.some((field) => field.split('.')[0] === top))
  );
}

function sectionId(group: FieldGroup): string {
  return `form-group-${group.title.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}
