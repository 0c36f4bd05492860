/**
 * The command lines of the scripts that work on DATA_DIR's store: node's parseArgs with positionals, `--help`/`-h`
 * and `--data-dir DIR` (default DATA_DIR, else ./data) added to each script's own options, and parseArgs'
 * complaint handed to the script's usage error.
 */
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

const STORE_SCRIPT_OPTIONS = {
  'data-dir': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export function readCommandLine<const O extends Options>(
  argv: string[],
  options: O,
  usageError: (problem: string) => never,
  env: NodeJS.ProcessEnv = process.env,
) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { ...options, ...STORE_SCRIPT_OPTIONS } });
  } catch (error) {
    return usageError((error as Error).message.split('\n')[0] ?? '');
  }
  const shared = parsed.values as { 'data-dir'?: string; help?: boolean };
  const dataDir = path.resolve(shared['data-dir'] ?? (env.DATA_DIR || './data'));
  return { values: parsed.values, positionals: parsed.positionals, isHelp: shared.help === true, dataDir };
}
