/** The website, segment and module commands' changes, each in the caller's transaction. */
import type { Sql } from '../app-db/sql.ts';
import { DEFAULT_SEGMENT } from '../app-db/model.ts';
import {
  addSegment,
  addWebsite,
  changeSegment,
  changeWebsite,
  deleteWebsiteRows,
  removeModule,
  removeSegment,
  setArchived,
  setModule,
} from '../app-db/websites.ts';
import type { AdminCommand } from './commands.ts';
import type { Change } from './change-users.ts';
import { segmentSummary } from './lists.ts';

export type WebsiteCommand = Extract<
  AdminCommand,
  { command: `website ${string}` | `segment ${string}` | `module ${string}` }
>;

/** Takes a deleted website's crawls out of the store (the service's or the CLI's DATA_DIR). */
export interface StoreRemoval {
  /** Moves the website's store folder aside, so no sync registers it again; undefined when it had none. */
  moveAside(websiteId: string): string | undefined;
}

export async function changeWebsites(
  tx: Sql,
  cmd: Exclude<WebsiteCommand, { command: 'website list' }>,
  now: Date,
  store: StoreRemoval | undefined,
): Promise<Change & { movedStore?: string }> {
  switch (cmd.command) {
    case 'website add': {
      await addWebsite(tx, cmd, now);
      if (cmd.goal !== null) await changeSegment(tx, cmd.id, DEFAULT_SEGMENT.id, { goalType: cmd.goal });
      return {
        output: `Added website ${cmd.id} (${cmd.name}, ${cmd.domain}) with its default segment and the technical-health-check module`,
        target: cmd.id,
      };
    }
    case 'website set': {
      const { name, domain, goal: goalType, isHreflang, isAi } = cmd;
      await changeWebsite(tx, cmd.id, { name, domain });
      const changes = { goalType, isHreflang, isAi };
      const segment = Object.values(changes).some((v) => v !== undefined)
        ? await changeSegment(tx, cmd.id, DEFAULT_SEGMENT.id, changes)
        : undefined;
      const parts = [
        name !== undefined && `name ${name}`,
        domain !== undefined && `domain ${domain}`,
        segment && segmentSummary(segment).split('; ').slice(2).join('; '),
      ].filter(Boolean);
      return { output: `Changed website ${cmd.id}: ${parts.join('; ')}`, target: cmd.id };
    }
    case 'website archive':
    case 'website restore': {
      const isArchived = cmd.command === 'website archive';
      await setArchived(tx, cmd.id, isArchived, now);
      return {
        output: isArchived
          ? `Archived website ${cmd.id}: its crawls are kept and its clients no longer see it`
          : `Restored website ${cmd.id}`,
        target: cmd.id,
      };
    }
    case 'website delete': {
      await deleteWebsiteRows(tx, cmd.id);
      const movedStore = store?.moveAside(cmd.id);
      return { output: `Deleted website ${cmd.id} with its crawls and settings`, target: cmd.id, movedStore };
    }
    case 'segment add':
      await addSegment(tx, cmd.website, { ...cmd, goalType: cmd.goal });
      return { output: `Added segment ${cmd.id} of ${cmd.website}`, target: `${cmd.website}/${cmd.id}` };
    case 'segment set': {
      const { name, urlScope, isHreflang, isAi, goal: goalType } = cmd;
      const segment = await changeSegment(tx, cmd.website, cmd.id, { name, urlScope, isHreflang, isAi, goalType });
      return {
        output: `Changed segment ${cmd.id} of ${cmd.website}: ${segmentSummary(segment)}`,
        target: `${cmd.website}/${cmd.id}`,
      };
    }
    case 'segment remove':
      await removeSegment(tx, cmd.website, cmd.id);
      return { output: `Removed segment ${cmd.id} of ${cmd.website}`, target: `${cmd.website}/${cmd.id}` };
    case 'module set':
      await setModule(tx, cmd.website, cmd.module, cmd);
      return { output: `Set module ${cmd.module} on ${cmd.website}`, target: cmd.website };
    case 'module remove':
      await removeModule(tx, cmd.website, cmd.module);
      return { output: `Removed module ${cmd.module} from ${cmd.website}`, target: cmd.website };
  }
}
