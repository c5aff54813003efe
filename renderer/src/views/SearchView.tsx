import { Empty } from '../components/States';

/** Placeholder while this view is written. */
export function SearchView() {
  return <Empty title="SearchView is being built." />;
}
