import { useEffect } from 'react';

const PRODUCT = 'Technical Health Check';

/** '<page> · Technical Health Check' while the page is shown; undefined leaves the title to another page. */
export function useDocumentTitle(page: string | undefined): void {
  useEffect(() => {
    if (page === undefined) return;
    document.title = `${page} · ${PRODUCT}`;
    return () => {
      document.title = PRODUCT;
    };
  }, [page]);
}
