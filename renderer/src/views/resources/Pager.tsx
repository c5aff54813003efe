import { useEffect, useState } from 'react';
import { PAGE_SIZES } from '../../store/resources-store';

interface PagerProps {
  page: number;
  pages: number;
  skip: number;
  shown: number;
  total: number;
  limit: number;
  disabled: boolean;
  onPage(page: number): void;
  onPageSize(limit: number): void;
}

/** First, previous, a page number to type, next, last; the page size; where the page sits in the total. */
export function Pager({ page, pages, skip, shown, total, limit, disabled, onPage, onPageSize }: PagerProps) {
  const [typed, setTyped] = useState(String(page));
  useEffect(() => setTyped(String(page)), [page]);
  const go = (): void => {
    const wanted = Number(typed);
    if (Number.isInteger(wanted) && wanted >= 1 && wanted !== page) onPage(Math.min(wanted, pages));
    else setTyped(String(page));
  };
  return (
    <nav className="res-pager" aria-label="Pages">
      <span className="muted" data-testid="page-range">
        {total === 0 ? 'No instances' : `${(skip + 1).toLocaleString()}–${(skip + shown).toLocaleString()} of ${total.toLocaleString()}`}
      </span>
      <span className="spacer" />
      <label className="res-control">
        Rows per page
        <select value={limit} disabled={disabled} onChange={(event) => onPageSize(Number(event.target.value))}>
          {PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </label>
      <button type="button" aria-label="First page" title="First page" disabled={disabled || page <= 1} onClick={() => onPage(1)}>
        «
      </button>
      <button
        type="button"
        aria-label="Previous page"
        title="Previous page"
        disabled={disabled || page <= 1}
        onClick={() => onPage(page - 1)}
      >
        ‹
      </button>
      <span className="res-page" data-testid="page-indicator" data-page={page} data-pages={pages}>
        Page{' '}
        <input
          aria-label="Page number"
          inputMode="numeric"
          value={typed}
          size={Math.max(2, String(pages).length)}
          disabled={disabled}
          onChange={(event) => setTyped(event.target.value.replace(/\D/g, ''))}
          onBlur={go}
          onKeyDown={(event) => {
            if (event.key === 'Enter') go();
          }}
        />{' '}
        of {pages.toLocaleString()}
        <span className="sr-only" aria-live="polite">{`Page ${page.toLocaleString()} of ${pages.toLocaleString()}`}</span>
      </span>
      <button type="button" aria-label="Next page" title="Next page" disabled={disabled || page >= pages} onClick={() => onPage(page + 1)}>
        ›
      </button>
      <button type="button" aria-label="Last page" title="Last page" disabled={disabled || page >= pages} onClick={() => onPage(pages)}>
        »
      </button>
    </nav>
  );
}
