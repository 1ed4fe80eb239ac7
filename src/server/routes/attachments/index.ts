import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { attachmentSchema } from '../../../shared/api/attachments';
import { deleteAttachment, updateAttachment } from '../../../shared/mutations/attachments';
import { attachFile } from '../../../shared/mutations/files';
import { createAttachment, deleteAttachment as deleteAttachmentRow, getAttachment, updateAttachment as updateAttachmentRow } from '../../services/attachment-service';
import { writeRoute } from '../declared-route';
import { errorResponses, langQuerySchema, nodeidParamsSchema } from '../responses';

/**
 * Attachments, spec part 1 §3, §7; feature key `equipment.attachment` (§6: add needs create, edit update,
 * delete delete) for attachments on any node, since the spec names no other key for them. Adding one is the
 * `attachFile` declaration (src/shared/mutations/files.ts), editing and deleting `updateAttachment` and
 * `deleteAttachment` (attachments.ts), so all three work offline; the writes answer the attachment's row, the read
 * the attachment with its file and a fresh signed URL.
 */
const attachmentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/attachments/:id', {
    config: { permission: { feature: 'equipment.attachment', flag: 'read' } },
    schema: {
      tags: ['attachments'],
      summary: 'One attachment with a fresh signed download URL',
      params: nodeidParamsSchema,
      querystring: langQuerySchema,
      response: { 200: attachmentSchema, ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => getAttachment(request.serviceContext.db, request.auth, app.fileUrls, request.params.id),
  });

  writeRoute(app, attachFile, {
    tags: ['attachments'],
    summary: 'Attach a complete file to a node of the organisation',
    status: 201,
    errors: [400, 401, 403, 404, 409],
    handler: (context, actor, { body }) => createAttachment(context, actor, body),
  });

  writeRoute(app, updateAttachment, {
    tags: ['attachments'],
    summary: 'Change title, description, category or file of an attachment (updateAttachment); only the fields sent change',
    errors: [400, 401, 403, 404, 409],
    bodyId: 'attachmentnodeid',
    handler: (context, actor, { params, body }) => updateAttachmentRow(context, actor, params.id, body),
  });

  writeRoute(app, deleteAttachment, {
    tags: ['attachments'],
    summary: 'Delete an attachment (deleteAttachment): a tombstone; the file stays',
    errors: [400, 401, 403, 404],
    bodyId: 'nodeid',
    handler: (context, actor, { params }) => deleteAttachmentRow(context, actor, params.id),
  });
};

export default attachmentRoutes;
