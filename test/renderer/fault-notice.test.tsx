// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiFault } from '../../renderer/src/api/fault';
import { FaultNotice } from '../../renderer/src/components/FaultNotice';

afterEach(cleanup);

describe('FaultNotice', () => {
  it.each([0, 500, 503])('offers "Try again" for status %i, where another attempt can succeed', (status) => {
    const retry = vi.fn();
    render(<FaultNotice fault={new ApiFault(status, 'x', 'It failed.')} onRetry={retry} />);
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(retry).toHaveBeenCalledTimes(1);
  });

  it.each([400, 401, 403, 404, 409])('offers no retry for status %i, which would only answer the same, and keeps the advice', (status) => {
    render(<FaultNotice fault={new ApiFault(status, 'x', 'Refused.')} onRetry={() => undefined} />);
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(screen.getByRole('alert').querySelector('.fault-advice')?.textContent).not.toBe('');
  });
});
