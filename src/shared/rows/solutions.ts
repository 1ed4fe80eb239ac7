import { z } from 'zod';
import { FAQ_SPECIFIERS } from '../domain/faq';
import { epochMs, nodeidField, tenantRow } from './row';

/** Solutions (Maßnahmen) with their steps, FAQs and maintenance reports (spec part 1 §2.1, §2.2, §3). */

/** A solution on a notification or the procedure of a maintenance task: exactly one of the two owners is set. */
export const workflowRowSchema = tenantRow({
  title: z.string().nullable(),
  notificationnodeid: nodeidField.nullable(),
  maintenancetasknodeid: nodeidField.nullable(),
  authornodeid: nodeidField.nullable(),
  created: epochMs,
});
export type WorkflowRow = z.infer<typeof workflowRowSchema>;

export const workflowStepRowSchema = tenantRow({
  workflownodeid: nodeidField,
  position: z.number().int(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  created: epochMs,
  authornodeid: nodeidField.nullable(),
});
export type WorkflowStepRow = z.infer<typeof workflowStepRowSchema>;

/** A question and answer on a machine or on an equipment type: exactly one of the two is set. */
export const faqRowSchema = tenantRow({
  question: z.string(),
  answer: z.string().nullable(),
  specifier: z.enum(FAQ_SPECIFIERS),
  equipmentnodeid: nodeidField.nullable(),
  equipmenttypenodeid: nodeidField.nullable(),
  authornodeid: nodeidField.nullable(),
});
export type FaqRow = z.infer<typeof faqRowSchema>;

/** A maintenance report completing a notification, with its signature. */
export const reportRowSchema = tenantRow({
  notificationnodeid: nodeidField,
  executed: epochMs,
  comment: z.string().nullable(),
  authorsignature: z.string().nullable(),
  authorsignatureimagefilenodeid: nodeidField.nullable(),
  created: epochMs,
  authornodeid: nodeidField.nullable(),
});
export type ReportRow = z.infer<typeof reportRowSchema>;
