/** The checks every suggestion passes before it is returned, whatever wrote it. */
import {
  DESCRIPTION_LENGTH_MAX,
  DESCRIPTION_LENGTH_MIN,
  TITLE_LENGTH_MAX,
  TITLE_LENGTH_MIN,
} from '../../catalog/constants.ts';
import type { SuggestionType } from './provider.ts';

export const lengthLimits: Record<SuggestionType, { min: number; max: number }> = {
  'page-title': { min: TITLE_LENGTH_MIN, max: TITLE_LENGTH_MAX },
  'meta-description': { min: DESCRIPTION_LENGTH_MIN, max: DESCRIPTION_LENGTH_MAX },
};

/** Length in characters (code points), never bytes or UTF-16 units. */
export const charLength = (text: string): number => [...text].length;

const TAG = /<\/?[a-zA-Z][^<>]*>/g;
const LABEL = /^(?:(?:suggested\s+)?(?:page\s+)?(?:title|meta\s+description|description)\s*:\s*)/i;
const QUOTES = /^["'“”‘’`]+|["'“”‘’`]+$/g;

/**
 * The provider's text as one plain line: tags and a leading label ("Title:") stripped, whitespace collapsed,
 * wrapping quotes removed. Undefined when markup remains (a stray angle bracket, an entity or a code fence).
 */
export function toPlainSuggestion(text: string): string | undefined {
  const plain = text.replace(TAG, ' ').replace(/\s+/g, ' ').trim().replace(LABEL, '').replace(QUOTES, '').trim();
  if (/[<>]|&[a-z#0-9]+;|```/i.test(plain)) return undefined;
  return plain;
}

export const normalise = (text: string): string => text.replace(/\s+/g, ' ').trim().toLowerCase();

/** Why a plain suggestion is refused, or undefined when it is within the limits. */
export function lengthProblem(type: SuggestionType, text: string): string | undefined {
  const { min, max } = lengthLimits[type];
  const n = charLength(text);
  if (n < min) return `shorter than ${min} characters`;
  if (n > max) return `longer than ${max} characters`;
  return undefined;
}
