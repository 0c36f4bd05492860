import { z } from 'zod';
import { MAX_CRAWL_ID, crawlIdSchema } from '../../catalog/export-contract.ts';

/** A crawl id in a payload: a number or a numeric string, within the contract's one range (1 … MAX_CRAWL_ID). */
export const crawlIdParamSchema = z
  .union([crawlIdSchema, z.string().regex(/^[1-9][0-9]{0,9}$/, 'expected a crawl id')])
  .transform(Number)
  .pipe(z.number().max(MAX_CRAWL_ID, `crawl ids go up to ${MAX_CRAWL_ID}`));
