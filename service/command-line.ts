/** The scripts' command lines: node's parseArgs with positionals, its complaint handed to the script's usage error. */
import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

export function readCommandLine<const O extends Options>(
  argv: string[],
  options: O,
  usageError: (problem: string) => never,
) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, options });
  } catch (error) {
    return usageError((error as Error).message.split('\n')[0] ?? '');
  }
}
