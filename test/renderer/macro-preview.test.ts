import { describe, expect, it } from 'vitest';
import { placeholderOf, previewFill, waitingFor } from '../../renderer/src/views/form/macro-preview';

const titles: Record<string, string> = {
  alertingName: 'Alerting Name',
  pattern: 'Directory Number',
  'callForwardAll.destination': 'Destination',
};
const titleOf = (path: string): string => titles[path] ?? path;

describe('a template text as the value it makes (issue 32, point 9)', () => {
  it('shows a literal as itself', () => {
    expect(previewFill('Standard Presence group', {}, titleOf)).toEqual({ kind: 'value', text: 'Standard Presence group' });
  });

  it('fills input references with the values typed so far, nested ones too', () => {
    expect(previewFill('{{ input.alertingName }} line', { alertingName: 'Zoe Lambert' }, titleOf)).toEqual({
      kind: 'value',
      text: 'Zoe Lambert line',
    });
    expect(previewFill('{{input.callForwardAll.destination}}', { callForwardAll: { destination: '+33140009000' } }, titleOf)).toEqual({
      kind: 'value',
      text: '+33140009000',
    });
  });

  it('names the fields still empty by their titles, never as a macro', () => {
    const preview = previewFill('{{ input.alertingName }} line {{ input.pattern }}', { pattern: '' }, titleOf);
    expect(preview).toEqual({
      kind: 'waiting',
      text: '‹Alerting Name› line ‹Directory Number›',
      missing: ['Alerting Name', 'Directory Number'],
    });
    expect(placeholderOf(preview)).toBe('‹Alerting Name› line ‹Directory Number›');
    expect(waitingFor(['Alerting Name', 'Directory Number'])).toBe('once Alerting Name and Directory Number are filled');
    expect(waitingFor(['Alerting Name', 'Alerting Name'])).toBe('once Alerting Name is filled');
  });

  it('leaves functions, self, items and Macros to the service, and says so', () => {
    for (const text of [
      '{{ fn.upper input.alertingName }}',
      '{{ self.pattern }}',
      '{{ macro.SiteCode }}-{{ input.pattern }}',
      '{{ item.x }}',
    ]) {
      const preview = previewFill(text, { alertingName: 'x', pattern: '1' }, titleOf);
      expect(preview).toEqual({ kind: 'on-save' });
      expect(placeholderOf(preview)).toBe('Set by the template on save');
    }
  });
});
