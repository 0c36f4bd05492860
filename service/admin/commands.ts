/**
 * The admin commands: parsed from `npm run admin -- …` arguments, validated by one schema, and run by one
 * function over an app database, whether the CLI opened the app database itself or handed the command to the running
 * service (POST /api/admin/cli), or an ADMIN sent it through the API (POST /api/admin/run).
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import type { AppDb } from '../app-db/db.ts';
import {
  emailSchema,
  goalTypeSchema,
  moduleNameSchema,
  moduleRequirements,
  passwordSchema,
  roleSchema,
  segmentIdSchema,
  websiteIdSchema,
  type Segment,
} from '../app-db/model.ts';
import { addUser, bindUser, listUsers, removeUser, setPasswordHash, unbindUser } from '../app-db/users.ts';
import {
  addSegment,
  addWebsite,
  changeSegment,
  listWebsites,
  removeModule,
  removeSegment,
  setModule,
} from '../app-db/websites.ts';
import { hashPassword } from '../auth/password.ts';

const text = (max: number) => z.string().trim().min(1).max(max);
const websiteList = z.array(websiteIdSchema);
const urlScope = z.string().trim().min(1).max(2048);
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
  z.object({ command: z.literal('user remove'), email: emailSchema }),
  z.object({ command: z.literal('user password'), email: emailSchema, password: passwordSchema }),
  z.object({ command: z.literal('user bind'), email: emailSchema, websites: websiteList.min(1) }),
  z.object({ command: z.literal('user unbind'), email: emailSchema, websites: websiteList.min(1) }),
  z.object({ command: z.literal('user list') }),
  z.object({ command: z.literal('website add'), id: websiteIdSchema, name: text(200), domain: text(253) }),
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
]);
export type AdminCommand = z.infer<typeof adminCommandSchema>;

export const ADMIN_USAGE = `Usage: npm run admin -- <command> [options]

  user add --email E --password P --role CLIENT|STAFF|ADMIN [--website ID]...
  user remove --email E
  user password --email E --password P
  user bind --email E --website ID...        bind a CLIENT or STAFF user to more websites
  user unbind --email E --website ID...
  user list
  website add --id ID --name N --domain D
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

Works whether or not the service is running (DATA_DIR as for npm start).`;

export class UsageError extends Error {
  override name = 'UsageError';
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
  'user remove': { email: string },
  'user password': { email: string, password: string },
  'user bind': { email: string, website: { type: 'string', multiple: true } },
  'user unbind': { email: string, website: { type: 'string', multiple: true } },
  'user list': {},
  'website add': { id: string, name: string, domain: string },
  'website list': {},
  'segment add': segmentOptions,
  'segment set': segmentOptions,
  'segment remove': { website: string, id: string },
  'module set': { website: string, module: string, 'setup-id': string, flag },
  'module remove': { website: string, module: string },
} as const;

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
  if (option && fields[key] === undefined) throw new UsageError(`${name}: ${option} is required`);
  throw new UsageError(`${name}: ${option ? `${option}: ` : ''}${issue.message}`);
}

const segmentSummary = (s: Segment): string =>
  `${s.name}; scope ${s.urlScope ?? 'whole site'}; hreflang ${s.isHreflang ? 'on' : 'off'}; AI ${s.isAi ? 'on' : 'off'}; goal ${s.goalType ?? 'none'}`;

export interface AdminContext {
  appDb: AppDb;
  now: Date;
}

/** Runs a command; resolves with what to print, or throws AppDataError (exit 1 / its HTTP status). */
export async function runAdminCommand({ appDb, now }: AdminContext, cmd: AdminCommand): Promise<string> {
  switch (cmd.command) {
    case 'user add': {
      const passwordHash = await hashPassword(cmd.password);
      const user = await appDb.transaction((tx) => addUser(tx, { ...cmd, passwordHash }, now));
      return `Added ${user.role} ${user.email}${user.websites.length ? ` (websites: ${user.websites.join(', ')})` : ''}`;
    }
    case 'user remove':
      await appDb.transaction((tx) => removeUser(tx, cmd.email));
      return `Removed ${cmd.email}`;
    case 'user password': {
      const passwordHash = await hashPassword(cmd.password);
      await appDb.transaction((tx) => setPasswordHash(tx, cmd.email, passwordHash, now));
      return `Changed the password of ${cmd.email}; their sessions were signed out`;
    }
    case 'user bind':
      await appDb.transaction((tx) => bindUser(tx, cmd.email, cmd.websites));
      return `Bound ${cmd.email} to ${cmd.websites.join(', ')}`;
    case 'user unbind':
      await appDb.transaction((tx) => unbindUser(tx, cmd.email, cmd.websites));
      return `Unbound ${cmd.email} from ${cmd.websites.join(', ')}`;
    case 'user list': {
      const users = await listUsers(appDb);
      if (users.length === 0) return 'No users';
      return users.map((u) => [u.email, u.role, u.websites.join(',') || '-'].join('\t')).join('\n');
    }
    case 'website add':
      await appDb.transaction((tx) => addWebsite(tx, cmd, now));
      return `Added website ${cmd.id} (${cmd.name}, ${cmd.domain}) with its default segment and the technical-health-check module`;
    case 'website list': {
      const websites = await listWebsites(appDb);
      if (websites.length === 0) return 'No websites';
      return websites
        .map((w) =>
          [
            `${w.id}\t${w.name}\t${w.domain}`,
            ...w.segments.map((s) => `  segment ${s.id}${s.isDefault ? ' (default)' : ''}: ${segmentSummary(s)}`),
            ...w.modules.map((m) => `  module ${m.module}: ${m.isActive ? 'active' : `inactive (${m.reason})`}`),
          ].join('\n'),
        )
        .join('\n');
    }
    case 'segment add':
      await appDb.transaction((tx) => addSegment(tx, cmd.website, { ...cmd, goalType: cmd.goal }));
      return `Added segment ${cmd.id} of ${cmd.website}`;
    case 'segment set': {
      const { name, urlScope, isHreflang, isAi, goal: goalType } = cmd;
      const segment = await appDb.transaction((tx) =>
        changeSegment(tx, cmd.website, cmd.id, { name, urlScope, isHreflang, isAi, goalType }),
      );
      return `Changed segment ${cmd.id} of ${cmd.website}: ${segmentSummary(segment)}`;
    }
    case 'segment remove':
      await appDb.transaction((tx) => removeSegment(tx, cmd.website, cmd.id));
      return `Removed segment ${cmd.id} of ${cmd.website}`;
    case 'module set':
      await appDb.transaction((tx) => setModule(tx, cmd.website, cmd.module, cmd));
      return `Set module ${cmd.module} on ${cmd.website}`;
    case 'module remove':
      await appDb.transaction((tx) => removeModule(tx, cmd.website, cmd.module));
      return `Removed module ${cmd.module} from ${cmd.website}`;
  }
}
