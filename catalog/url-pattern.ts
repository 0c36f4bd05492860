/**
 * Include and exclude patterns, compiled with RE2 (re2js): matching takes time linear in the URL's length whatever
 * the pattern, so `(a+)+$` cannot freeze a crawl. A pattern is written as a JavaScript regular expression; the parts
 * RE2 cannot run in linear time (backreferences, lookahead and lookbehind) are refused with the reason.
 */
import { RE2JS } from 're2js';

/** What a crawl's scope asks of a pattern (a RegExp has the same shape). */
export interface UrlPattern {
  test(url: string): boolean;
  /** The expression as written (a RegExp's own source); crawl manifests record it. */
  readonly source?: string;
}

/** Why a pattern is refused, worded to follow its name: `Exclude pattern "(a)\\1" ${message}`. */
export class UrlPatternError extends Error {
  override name = 'UrlPatternError';
}

/** The first construct of `source` a linear-time engine cannot run, read outside character classes. */
function unsupportedIn(source: string): string | undefined {
  let outside = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === '\\') {
      const next = source[i + 1] ?? '';
      if (!inClass && /[1-9k]/.test(next)) return 'backreferences are not supported';
      outside += '_';
      i++;
    } else if (inClass) inClass = ch !== ']';
    else if (ch === '[') inClass = true;
    else outside += ch;
  }
  return /\(\?<?[=!]/.test(outside) ? 'lookahead and lookbehind are not supported' : undefined;
}

/**
 * Compiles a pattern as JavaScript would read it, run by RE2; throws UrlPatternError with the reason when it is no
 * valid regular expression or uses what RE2 cannot run.
 */
export function compileUrlPattern(source: string): UrlPattern {
  try {
    new RegExp(source);
  } catch (error) {
    throw new UrlPatternError(`is not a valid regular expression (${(error as Error).message})`);
  }
  const unsupported = unsupportedIn(source);
  if (unsupported) throw new UrlPatternError(`cannot be used: ${unsupported} (patterns must run in linear time)`);
  try {
    const compiled = RE2JS.compile(RE2JS.translateRegExp(source));
    return { source, test: (url) => compiled.test(url) };
  } catch (error) {
    const detail = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error);
    throw new UrlPatternError(`cannot be used: the linear-time engine refuses it (${detail})`);
  }
}
