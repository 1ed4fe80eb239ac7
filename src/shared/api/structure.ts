import { z } from 'zod';
import { siteRowFields } from '../rows/structure';

/** What lists and cards need of a machine; the full record is the equipment API's business (issue #4). */
export const equipmentSummarySchema = z.object({
  nodeid: z.string().uuid(),
  name: z.string(),
  equipmentid: z.string().nullable(),
  inventoryid: z.string().nullable(),
  brand: z.string().nullable(),
  model: z.string().nullable(),
  imageurl: z.string().nullable(),
});
export type EquipmentSummary = z.infer<typeof equipmentSummarySchema>;

export const areaNodeSchema = z.object({
  nodeid: z.string().uuid(),
  name: z.string(),
  equipment: z.array(equipmentSummarySchema),
});
export const siteNodeSchema = z.object({
  nodeid: z.string().uuid(),
  ...siteRowFields,
  areas: z.array(areaNodeSchema),
});
export const poolNodeSchema = z.object({
  nodeid: z.string().uuid(),
  name: z.string(),
  equipment: z.array(equipmentSummarySchema),
});

/**
 * GET /api/allsitesareasequipments (the whole tenant) and GET /api/sitesareasequipments (only what the user
 * subscribes to, spec part 2 §3 "Subscriptions"). Sorted by name at every level.
 */
export const structureTreeSchema = z.object({
  sites: z.array(siteNodeSchema),
  equipmentpools: z.array(poolNodeSchema),
  /** Equipment in no area and no pool ("Nicht verknüpfte Geräte"). */
  unlinked: z.array(equipmentSummarySchema),
});
export type StructureTree = z.infer<typeof structureTreeSchema>;

/** GET /api/users/acl/{clientid}: the users of the caller's organisation, for pickers and chat. */
export const aclUserSchema = z.object({
  userid: z.string(),
  usernodeid: z.string().uuid(),
  givenname: z.string(),
  surname: z.string(),
  active: z.boolean(),
  userinfo: z.object({ profileid: z.string() }),
});
export type AclUser = z.infer<typeof aclUserSchema>;

/** GET /api/chatrooms?usernodeid&lang: the chat rooms the user takes part in. */
export const chatRoomSchema = z.object({
  nodeid: z.string().uuid(),
  name: z.string(),
  notificationnodeid: z.string().uuid().nullable(),
  lastmessageat: z.number().nullable(),
});
export type ChatRoom = z.infer<typeof chatRoomSchema>;
