import { useEffect } from 'react';
import { useOverview, useOverviewStore } from '../../stores/overview-store.ts';

/** The overviews of the current crawl (compared) and of the comparison crawl, loaded as the selection changes. */
export function useDashboardOverview(websiteId: string | null, currentId: number | null, comparisonId: number | null) {
  const loadOverview = useOverviewStore((s) => s.load);
  useEffect(() => {
    if (websiteId && currentId !== null) void loadOverview(websiteId, currentId, { comparisonId });
  }, [websiteId, currentId, comparisonId, loadOverview]);
  useEffect(() => {
    if (websiteId && comparisonId !== null) void loadOverview(websiteId, comparisonId);
  }, [websiteId, comparisonId, loadOverview]);

  const overview = useOverview(websiteId, currentId, comparisonId);
  const comparisonOverview = useOverview(websiteId, comparisonId);
  const reloadOverview = () => {
    if (websiteId === null) return;
    if (currentId !== null) void loadOverview(websiteId, currentId, { refresh: true, comparisonId });
    // The comparison's overview loads again only if it failed too (a loaded one is kept).
    if (comparisonId !== null) void loadOverview(websiteId, comparisonId);
  };
  return { overview, comparisonOverview, reloadOverview };
}
