import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fileContentParamsSchema, fileDownloadParamsSchema, fileDownloadSchema, registeredFileSchema, signedUrlQuerySchema, uploadResultSchema } from '../../../shared/api/files';
import { uploadFile } from '../../../shared/mutations/files';
import { completeUpload, fileDownload, readFileContent, registerFiles, type FileServices } from '../../services/file-service';
import { writeRoute } from '../declared-route';
import { errorResponses } from '../responses';

/**
 * Two-step upload (spec part 1 §7, docs/sync.md). POST /api/files (the `uploadFile` declaration,
 * src/shared/mutations/files.ts) needs a signed-in user; the content URLs it hands out carry their own
 * authorisation (the signature), so the device can PUT and GET bytes without a bearer token — as it would
 * against S3.
 */
const fileRoutes: FastifyPluginAsyncZod = async (app) => {
  const services = (): FileServices => ({ storage: app.fileStorage, signer: app.fileUrls, maxBytes: app.config.fileMaxBytes });

  writeRoute(app, uploadFile, {
    tags: ['files'],
    summary: 'Register files to upload; answers the registrations with a signed PUT URL each (again for the same nodeid or pending fileid), not file rows',
    // why not the file rows: the sender needs each file's signed `url` to PUT the bytes, which no row carries.
    answer: z.array(registeredFileSchema),
    errors: [400, 401, 404],
    handler: (context, actor, { body }) => registerFiles(context, actor, services(), body),
  });

  app.get('/files/:nodeid/download', {
    config: { permission: 'authenticated' },
    schema: {
      tags: ['files'],
      summary: "A signed download URL for a complete file of the caller's organisation (e.g. a machine photo)",
      params: fileDownloadParamsSchema,
      response: { 200: fileDownloadSchema, ...errorResponses(400, 401, 404) },
    },
    handler: (request) => fileDownload(request.serviceContext, request.auth, app.fileUrls, request.params.nodeid),
  });

  // why a child context: the raw-bytes parser must not replace JSON parsing for the other routes.
  await app.register(async (child) => {
    const content = child.withTypeProvider<ZodTypeProvider>();
    content.removeAllContentTypeParsers();
    content.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: app.config.fileMaxBytes }, (_request, body, done) => done(null, body));

    content.put('/files/:fileid/:fileversion/content', {
      config: { public: true },
      // why also here: Fastify's server-wide limit (1 MiB) must not cap uploads below FILE_MAX_BYTES.
      bodyLimit: app.config.fileMaxBytes,
      schema: {
        tags: ['files'],
        summary: 'Upload the raw bytes of a registered file (signed URL from POST /api/files)',
        params: fileContentParamsSchema,
        querystring: signedUrlQuerySchema,
        response: { 200: uploadResultSchema, ...errorResponses(400, 403, 404, 409, 413, 415) },
      },
      handler: (request) =>
        completeUpload(request.serviceContext, services(), {
          ...request.params,
          ...request.query,
          contentType: request.headers['content-type'],
          bytes: Buffer.isBuffer(request.body) ? request.body : new Uint8Array(0),
        }),
    });

    content.get('/files/:fileid/:fileversion/content', {
      config: { public: true },
      schema: {
        tags: ['files'],
        summary: 'Download a complete file (signed URL carried by attachments)',
        params: fileContentParamsSchema,
        querystring: signedUrlQuerySchema,
        response: { 200: z.unknown().describe('The raw bytes, with the file type as Content-Type'), ...errorResponses(400, 403, 404) },
      },
      handler: async (request, reply) => {
        const { bytes, mimetype } = await readFileContent(request.serviceContext, services(), { ...request.params, ...request.query });
        return reply.type(mimetype).header('cache-control', 'private, max-age=3600').send(Buffer.from(bytes));
      },
    });
  });
};

export default fileRoutes;
