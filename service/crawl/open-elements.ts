/**
 * htmlparser2 keeps a document's open elements in an array with the innermost first, so each element opened or closed
 * shifts the whole array: 100,000 nested elements took 16 s, half a million unclosed ones hours. This gives a parser
 * a stack with the same reads (index 0 the innermost) kept innermost-last, where opening and closing cost the same at
 * any depth. It replaces the parser's own field, so it checks that the field is what it expects and otherwise leaves
 * the parser as it is (then only slower); parse-html.test.ts times deep nesting to notice.
 */
import type { Parser } from 'htmlparser2';

/** The array operations htmlparser2's Parser applies to its stack. */
interface OpenElementsReads {
  unshift: (name: string) => number;
  shift: () => string | undefined;
  indexOf: (name: string) => number;
  includes: (name: string) => boolean;
}

function innermostLastStack(): string[] {
  const items: string[] = [];
  const reads: OpenElementsReads = {
    unshift: (name) => items.push(name),
    shift: () => items.pop(),
    indexOf: (name) => {
      const at = items.lastIndexOf(name);
      return at === -1 ? -1 : items.length - 1 - at;
    },
    includes: (name) => items.lastIndexOf(name) !== -1,
  };
  const proxy = new Proxy(reads, {
    get(target, key) {
      if (key === 'length') return items.length;
      if (typeof key !== 'string') return undefined;
      if (Object.hasOwn(target, key)) return target[key as keyof OpenElementsReads];
      const index = Number(key);
      return Number.isInteger(index) && index >= 0 ? items[items.length - 1 - index] : undefined;
    },
    set(_, key, value) {
      if (key !== 'length' || typeof value !== 'number') return false;
      items.length = value;
      return true;
    },
  });
  return proxy as unknown as string[];
}

/** Gives a new parser (nothing written yet) the innermost-last stack. */
export function useInnermostLastStack(parser: Parser): void {
  const fields = parser as unknown as { stack?: unknown };
  if (Array.isArray(fields.stack) && fields.stack.length === 0) fields.stack = innermostLastStack();
}
