import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { attachmentSchema, deleteAttachmentSchema, updateAttachmentSchema } from '../../../shared/api/attachments';
import { deleteResultSchema } from '../../../shared/api/fields';
import { attachFile } from '../../../shared/mutations/files';
import { attachmentRowSchema } from '../../../shared/rows/equipment';
import { createAttachment, deleteAttachment, getAttachment, updateAttachment } from '../../services/attachment-service';
import { assertBodyIdMatches } from '../../services/structure-common';
import { writeRoute } from '../declared-route';
import { errorResponses, langQuerySchema, nodeidParamsSchema } from '../responses';

/**
 * Attachments, spec part 1 §3, §7; feature key `equipment.attachment` (§6: add needs create, edit update,
 * delete delete) for attachments on any node, since the spec names no other key for them. Adding one is the
 * `attachFile` declaration (src/shared/mutations/files.ts); the writes answer the attachment's row, the read
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

  app.put('/attachments/:id', {
    config: { permission: { feature: 'equipment.attachment', flag: 'update' } },
    schema: {
      tags: ['attachments'],
      summary: 'Change title, description, category or file of an attachment; only the fields sent change',
      params: nodeidParamsSchema,
      body: updateAttachmentSchema,
      response: { 200: attachmentRowSchema, ...errorResponses(400, 401, 403, 404, 409) },
    },
    handler: (request) => updateAttachment(request.serviceContext, request.auth, request.params.id, request.body),
  });

  app.delete('/attachments/:id', {
    config: { permission: { feature: 'equipment.attachment', flag: 'delete' } },
    schema: {
      tags: ['attachments'],
      summary: 'Delete an attachment (tombstone); the file stays',
      params: nodeidParamsSchema,
      body: deleteAttachmentSchema,
      response: { 200: deleteResultSchema, ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => {
      assertBodyIdMatches('nodeid', request.body?.nodeid, request.params.id);
      return deleteAttachment(request.serviceContext, request.auth, request.params.id);
    },
  });
};

export default attachmentRoutes;
