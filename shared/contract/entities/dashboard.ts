import * as z from 'zod';

const count = z.int().min(0);
const VersionCount = z.object({ version: z.string(), count });

export const Dashboard = z.object({
  devices: z.object({
    activated: count,
    pending: count,
    deactivated: count,
    legacyActivated: count,
    legacyDeactivated: count,
  }),
  users: z.object({ onboarded: count, offboarded: count, legacyOnboarded: count, legacyOffboarded: count }),
  app_versions: z.array(VersionCount),
  os_versions: z.array(VersionCount),
});
export type Dashboard = z.infer<typeof Dashboard>;
