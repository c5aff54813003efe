// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualTable } from '../../renderer/src/components/VirtualTable';

afterEach(cleanup);

describe('virtual table', () => {
  it('renders a window of a 2,000-row page and opens the last row from the keyboard', () => {
    const opened: number[] = [];
    render(
      <VirtualTable
        label="Lines"
        columns={[{ key: 'n', title: 'Number', sort: 'ascending' }]}
        rowCount={2000}
        rowKey={(i) => `k${i}`}
        rowData={(i) => ({ 'data-pkid': `p${i}` })}
        cell={(i) => `row ${i}`}
        onOpen={(i) => opened.push(i)}
      />,
    );
    const grid = screen.getByRole('grid', { name: 'Lines' });
    expect(grid.getAttribute('aria-rowcount')).toBe('2001');
    const rendered = screen.getAllByRole('row').filter((row) => row.dataset.pkid);
    expect(rendered.length).toBeLessThan(80);
    expect(rendered[0].textContent).toBe('row 0');
    fireEvent.keyDown(grid, { key: 'End' });
    expect(grid.getAttribute('aria-activedescendant')).toBe('vt-row-1999');
    fireEvent.keyDown(grid, { key: 'Enter' });
    expect(opened).toEqual([1999]);
  });
});
