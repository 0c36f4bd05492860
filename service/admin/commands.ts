/**
 * The admin commands: parsed from `npm run admin -- …` arguments or an API body, validated by one schema, and run by
 * one function (run-command.ts) over an app database, whether the CLI opened the app database itself or handed the
 * command to the running service (POST /api/admin/cli), or a signed-in ADMIN or STAFF user sent it from the
 * dashboard (POST /api/admin/run).
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import {
  emailSchema,
  goalTypeSchema,
  moduleNameSchema,
  moduleRequirements,
  passwordSchema,
  roleSchema,
  segmentIdSchema,
  websiteIdSchema,
} from '../app-db/model.ts';

const text = (max: number) => z.string().trim().min(1).max(max);
const websiteList = z.array(websiteIdSchema);
const urlScope = z.string().trim().min(1).max(2048);
/** A host name as typed (no scheme, no path): what the crawler and the dashboard show. */
const domainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/,
    'a host name such as www.example.com',
  );
/** `none` clears a setting in `segment set`. */
const orNone = <T extends z.ZodType>(schema: T) => z.union([z.literal('none').transform(() => null), schema]);

export const adminCommandSchema = z.discriminatedUnion('command', [
  z.object({
    command: z.literal('user add'),
    email: emailSchema,
    password: passwordSchema,
    role: roleSchema,
    websites: websiteList.default([]),
  }),
  z.object({
    command: z.literal('user invite'),
    email: emailSchema,
    role: roleSchema,
    websites: websiteList.default([]),
  }),
  z
    .object({
      command: z.literal('user set'),
      email: emailSchema,
      role: roleSchema.optional(),
      websites: websiteList.optional(),
    })
    .refine((c) => c.role !== undefined || c.websites !== undefined, {
      message: 'nothing to change: give --role or --website',
    }),
  z.object({ command: z.literal('user disable'), email: emailSchema }),
  z.object({ command: z.literal('user enable'), email: emailSchema }),
  z.object({ command: z.literal('user reset-password'), email: emailSchema }),
  z.object({ command: z.literal('user remove'), email: emailSchema }),
  z.object({ command: z.literal('user password'), email: emailSchema, password: passwordSchema }),
  z.object({ command: z.literal('user bind'), email: emailSchema, websites: websiteList.min(1) }),
  z.object({ command: z.literal('user unbind'), email: emailSchema, websites: websiteList.min(1) }),
  z.object({ command: z.literal('user list') }),
  z.object({
    command: z.literal('website add'),
    id: websiteIdSchema,
    name: text(200),
    domain: domainSchema,
    goal: goalTypeSchema.nullable().default(null),
  }),
  z
    .object({
      command: z.literal('website set'),
      id: websiteIdSchema,
      name: text(200).optional(),
      domain: domainSchema.optional(),
      goal: orNone(goalTypeSchema).optional(),
      isHreflang: z.boolean().optional(),
      isAi: z.boolean().optional(),
    })
    .refine((c) => [c.name, c.domain, c.goal, c.isHreflang, c.isAi].some((v) => v !== undefined), {
      message: 'nothing to change: give --name, --domain, --goal, --[no-]hreflang or --[no-]ai',
    }),
  z.object({ command: z.literal('website archive'), id: websiteIdSchema }),
  z.object({ command: z.literal('website restore'), id: websiteIdSchema }),
  z
    .object({ command: z.literal('website delete'), id: websiteIdSchema, confirm: z.string() })
    .refine((c) => c.confirm === c.id, { message: 'type the website id to confirm', path: ['confirm'] }),
  z.object({ command: z.literal('website list') }),
  z.object({
    command: z.literal('segment add'),
    website: websiteIdSchema,
    id: segmentIdSchema,
    name: text(200),
    urlScope: urlScope.nullable().default(null),
    isHreflang: z.boolean().default(false),
    isAi: z.boolean().default(false),
    goal: goalTypeSchema.nullable().default(null),
  }),
  z
    .object({
      command: z.literal('segment set'),
      website: websiteIdSchema,
      id: segmentIdSchema,
      name: text(200).optional(),
      urlScope: orNone(urlScope).optional(),
      isHreflang: z.boolean().optional(),
      isAi: z.boolean().optional(),
      goal: orNone(goalTypeSchema).optional(),
    })
    .refine((c) => [c.name, c.urlScope, c.isHreflang, c.isAi, c.goal].some((v) => v !== undefined), {
      message: 'nothing to change: give --name, --url-scope, --[no-]hreflang, --[no-]ai or --goal',
    }),
  z.object({ command: z.literal('segment remove'), website: websiteIdSchema, id: segmentIdSchema }),
  z
    .object({
      command: z.literal('module set'),
      website: websiteIdSchema,
      module: moduleNameSchema,
      setupId: z.string().trim().min(1).max(200).nullable().default(null),
      flag: z.boolean().default(false),
    })
    .refine((c) => c.setupId === null || moduleRequirements[c.module] === 'setup-id', {
      message: '--setup-id applies to additional-health-check and uptime-report only',
    })
    .refine((c) => !c.flag || moduleRequirements[c.module] === 'flag', {
      message: '--flag applies to carbon-footprint only',
    }),
  z.object({ command: z.literal('module remove'), website: websiteIdSchema, module: moduleNameSchema }),
  z.object({ command: z.literal('session list') }),
  z.object({ command: z.literal('session revoke'), id: z.coerce.number().int().positive('a session id') }),
  z.object({ command: z.literal('audit list') }),
]);
export type AdminCommand = z.infer<typeof adminCommandSchema>;

export const ADMIN_USAGE = `Usage: npm run admin -- <command> [options]

  user add --email E --password P --role CLIENT|STAFF|ADMIN [--website ID]...
  user invite --email E --role CLIENT|STAFF|ADMIN [--website ID]...
                                             adds a user without a password and emails them a link to choose one
  user set --email E [--role CLIENT|STAFF|ADMIN] [--website ID]...
                                             changes the role, and with --website gives exactly those websites
  user disable|enable --email E              a disabled user cannot sign in (their sessions are signed out)
  user reset-password --email E              emails a one-time link to choose a new password
  user remove --email E
  user password --email E --password P
  user bind --email E --website ID...        bind a CLIENT or STAFF user to more websites
  user unbind --email E --website ID...
  user list
  website add --id ID --name N --domain D [--goal conversion|ecommerce]
  website set --id ID [--name N] [--domain D] [--goal conversion|ecommerce|none] [--hreflang|--no-hreflang]
              [--ai|--no-ai]                 (goal, hreflang and AI are the default segment's)
  website archive|restore --id ID            an archived website keeps its crawls and is hidden from its clients
  website delete --id ID --confirm ID        deletes the website, its crawls and settings
  website list
  segment add --website ID --id SEG --name N [--url-scope PREFIX] [--hreflang] [--ai] [--goal conversion|ecommerce]
                                             adds a segment (an existing SEG is refused: use segment set)
  segment set --website ID --id SEG [--name N] [--url-scope PREFIX|none] [--hreflang|--no-hreflang] [--ai|--no-ai]
              [--goal conversion|ecommerce|none]
                                             changes only the settings given of segment SEG
  segment remove --website ID --id SEG
  module set --website ID --module NAME [--setup-id X | --flag]
             NAME: technical-health-check | additional-health-check (--setup-id: little-warden ID)
                   | uptime-report (--setup-id: uptime-monitor ID) | carbon-footprint (--flag)
  module remove --website ID --module NAME
  session list                               who is signed in where
  session revoke --id N                      signs that session out
  audit list                                 the latest administration changes

Works whether or not the service is running (DATA_DIR as for npm start).`;

export class UsageError extends Error {
  override name = 'UsageError';
  /** The command's field the message is about (`email`, `websites`…), for a form to show it beside that field. */
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

const string = { type: 'string' } as const;
const flag = { type: 'boolean' } as const;
const segmentOptions = {
  website: string,
  id: string,
  name: string,
  'url-scope': string,
  hreflang: flag,
  ai: flag,
  goal: string,
} as const;
const optionsOf = {
  'user add': { email: string, password: string, role: string, website: { type: 'string', multiple: true } },
  'user invite': { email: string, role: string, website: { type: 'string', multiple: true } },
  'user set': { email: string, role: string, website: { type: 'string', multiple: true } },
  'user disable': { email: string },
  'user enable': { email: string },
  'user reset-password': { email: string },
  'user remove': { email: string },
  'user password': { email: string, password: string },
  'user bind': { email: string, website: { type: 'string', multiple: true } },
  'user unbind': { email: string, website: { type: 'string', multiple: true } },
  'user list': {},
  'website add': { id: string, name: string, domain: string, goal: string },
  'website set': { id: string, name: string, domain: string, goal: string, hreflang: flag, ai: flag },
  'website archive': { id: string },
  'website restore': { id: string },
  'website delete': { id: string, confirm: string },
  'website list': {},
  'segment add': segmentOptions,
  'segment set': segmentOptions,
  'segment remove': { website: string, id: string },
  'module set': { website: string, module: string, 'setup-id': string, flag },
  'module remove': { website: string, module: string },
  'session list': {},
  'session revoke': { id: string },
  'audit list': {},
} as const;

export const adminCommandNames = Object.keys(optionsOf) as AdminCommand['command'][];

const unknownCommand = (name: string): UsageError =>
  new UsageError(`unknown command "${name}" (npm run admin -- help lists them)`);

const camel = (name: string): string => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** Parses CLI arguments into a command; throws UsageError with a one-line reason. */
export function parseAdminArgs(argv: readonly string[]): AdminCommand {
  const name = `${argv[0] ?? ''} ${argv[1] ?? ''}`.trim();
  if (!name) throw new UsageError('no command given (npm run admin -- help lists them)');
  if (!(name in optionsOf)) throw unknownCommand(name);
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({
      args: argv.slice(2),
      options: optionsOf[name as keyof typeof optionsOf],
      strict: true,
      allowPositionals: false,
      allowNegative: true,
    }));
  } catch (error) {
    throw new UsageError(`${name}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
  const raw: Record<string, unknown> = { command: name };
  for (const [key, value] of Object.entries(values)) {
    if (key === 'website' && Array.isArray(value)) raw[name.startsWith('user') ? 'websites' : 'website'] = value;
    else if (key === 'hreflang') raw.isHreflang = value;
    else if (key === 'ai') raw.isAi = value;
    else raw[camel(key)] = value;
  }
  return parseAdminCommand(raw);
}

const optionNames: Record<string, string> = { websites: 'website', isHreflang: 'hreflang', isAi: 'ai' };

/** Validates a command object (from the CLI or an API body); throws UsageError with a one-line reason. */
export function parseAdminCommand(raw: unknown): AdminCommand {
  const parsed = adminCommandSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const fields = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const name = String(fields.command);
  if (!(name in optionsOf)) throw unknownCommand(name);
  const issue = parsed.error.issues[0]!;
  const key = String(issue.path[0] ?? '');
  const option = key && `--${optionNames[key] ?? key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
  if (option && fields[key] === undefined) throw new UsageError(`${name}: ${option} is required`, key);
  throw new UsageError(`${name}: ${option ? `${option}: ` : ''}${issue.message}`, key || undefined);
}
