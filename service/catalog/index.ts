/** The service's catalogue: validated once, before anything serves it. */
import { catalog, type Catalog } from '../../catalog/index.ts';
import { validateCatalog } from './validate.ts';

export { CatalogError, columnTypeOf, validateCatalog, type CatalogInput } from './validate.ts';
export { expandFilter, filterPlaceholders, parseFilter, FILTER_FUNCTIONS, FILTER_KEYWORDS } from './filter.ts';
export type { FilterParts } from './filter.ts';

/** Returns the catalogue after layers 1-2 of validation; throws a CatalogError so the service refuses to boot. */
export function loadCatalog(): Catalog {
  validateCatalog(catalog);
  return catalog;
}
