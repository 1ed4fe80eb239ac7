import { z } from 'zod';

const fileRefSchema = z.object({
  fileid: z.string(),
  url: z.string().optional(),
  mimetype: z.string().optional(),
  bucketid: z.string().optional(),
  fileversion: z.number().optional(),
});

/** GET /api/users/{id}: a user's profile data (spec part 2 §3 "User (profile)"); never password data. */
export const userSchema = z.object({
  nodeid: z.uuid(),
  legalentitynodeid: z.uuid(),
  userid: z.string(),
  givenname: z.string(),
  surname: z.string(),
  email: z.string(),
  mobilephone: z.string().nullable(),
  landlinephone: z.string().nullable(),
  image: fileRefSchema.nullable(),
  department: z.string().nullable(),
  costcenter: z.string().nullable(),
  personnelnumber: z.string().nullable(),
  professionaltraining: z.record(z.string(), z.string()).nullable(),
  qualification: z.string().nullable(),
  profileid: z.string(),
  admin: z.boolean(),
  active: z.boolean(),
  lang: z.string(),
  version: z.number().int(),
});
export type User = z.infer<typeof userSchema>;
