import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fileContentParamsSchema, fileDownloadParamsSchema, fileDownloadSchema, registeredFileSchema, signedUrlQuerySchema, uploadResultSchema } from '../../../shared/api/files';
import { uploadFile } from '../../../shared/mutations/files';
import { isInlineMimetype } from '../../../shared/domain/upload-types';
import { WindowCounter } from '../../plugins/rate-limit';
import { completeUpload, fileDownload, readFileContent, registerFiles, type FileServices } from '../../services/file-service';
import { writeRoute } from '../declared-route';
import { errorResponses } from '../responses';
import type { IncomingMessage } from 'node:http';

/**
 * Two-step upload (spec part 1 §7, docs/sync.md). POST /api/files (the `uploadFile` declaration,
 * src/shared/mutations/files.ts) needs a signed-in user; the content URLs it hands out carry their own
 * authorisation (the signature), so the device can PUT and GET bytes without a bearer token — as it would
 * against S3.
 */
const fileRoutes: FastifyPluginAsyncZod = async (app) => {
  // why in memory: a per-instance counter is enough against one runaway device; with N instances the effective
  // rate is N times higher (docs/configuration.md, UPLOAD_RATE_PER_MINUTE). The daily quota is in the database.
  const rate = new WindowCounter(app.config.uploadRatePerMinute, 60_000);
  const services = (): FileServices => ({
    storage: app.fileStorage,
    signer: app.fileUrls,
    maxBytes: app.config.fileMaxBytes,
    quotaBytesPerDay: app.config.uploadQuotaBytesPerDay,
    rate: { hit: (key) => rate.hit(key, Date.now()) },
  });
  /**
   * Request bodies being streamed to storage, each with its handler's end. Closing the server ends the bodies
   * instead of waiting for a slow client, then waits for the handlers: each removes what it had staged (a shutdown
   * right after close() left the upload's temporary file behind).
   */
  const uploadsInFlight = new Map<IncomingMessage, Promise<unknown>>();
  app.addHook('preClose', async () => {
    for (const body of uploadsInFlight.keys()) body.destroy();
    await Promise.allSettled(uploadsInFlight.values());
  });

  writeRoute(app, uploadFile, {
    tags: ['files'],
    summary: 'Register files to upload; answers the registrations with a signed PUT URL each (again for the same nodeid or pending fileid), not file rows',
    // why not the file rows: the sender needs each file's signed `url` to PUT the bytes, which no row carries.
    answer: z.array(registeredFileSchema),
    errors: [400, 401, 403, 404, 413, 429],
    handler: (context, actor, { body }) => registerFiles(context, actor, services(), body),
  });

  app.get('/files/:nodeid/download', {
    // why 'authenticated': no one feature guards files; fileDownload checks the records naming the file
    // (FILE_READERS) against the caller's read permissions.
    config: { permission: 'authenticated' },
    schema: {
      tags: ['files'],
      summary: "A signed download URL for a complete file of the caller's organisation that a record the caller may read names (a machine photo, a notification's attachment), or that the caller uploaded",
      params: fileDownloadParamsSchema,
      response: { 200: fileDownloadSchema, ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => fileDownload(request.serviceContext, request.auth, app.fileUrls, request.params.nodeid),
  });

  // why a child context: the streaming body parser must not replace JSON parsing for the other routes.
  await app.register(async (child) => {
    const content = child.withTypeProvider<ZodTypeProvider>();
    content.removeAllContentTypeParsers();
    // why no parsing: the handler streams the raw request to storage; buffering it is what froze the server.
    content.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    content.addHook('onSend', async (request, reply) => {
      // why: an answer sent before the body was read (refused upload) must end the connection, or the rest of
      // a large body would be read as the next request.
      // (`complete`: the whole message arrived, whether read or not; a GET is complete at once.)
      if (!request.raw.complete) reply.header('connection', 'close');
    });

    content.put('/files/:fileid/:fileversion/content', {
      // why streamsBody: the bytes stream in while no transaction is open; completeUpload commits under the row
      // lock, and the same bytes PUT again are accepted, so a lost answer is simply retried.
      // why compress false: the answer is a few bytes, and nothing may wrap the stream this route reads.
      config: { public: true, streamsBody: true, compress: false },
      schema: {
        tags: ['files'],
        summary: 'Upload the raw bytes of a registered file (signed URL from POST /api/files); streamed, checked against the registered type',
        params: fileContentParamsSchema,
        querystring: signedUrlQuerySchema,
        response: { 200: uploadResultSchema, ...errorResponses(400, 403, 404, 409, 413, 415, 429) },
      },
      handler: async (request) => {
        const upload = completeUpload(request.serviceContext, services(), { ...request.params, ...request.query, contentType: request.headers['content-type'], body: request.raw });
        uploadsInFlight.set(request.raw, upload);
        try {
          return await upload;
        } finally {
          uploadsInFlight.delete(request.raw);
        }
      },
    });

    content.get('/files/:fileid/:fileversion/content', {
      // why compress false: the bytes go out exactly as stored, with their Content-Length (photos and PDFs are
      // compressed already; a text file is small).
      config: { public: true, compress: false },
      schema: {
        tags: ['files'],
        summary: 'Download a complete file (signed URL carried by attachments); raster images and PDF inline, everything else as a download',
        params: fileContentParamsSchema,
        querystring: signedUrlQuerySchema,
        response: { 200: z.unknown().describe('The raw bytes, with the file type as Content-Type'), ...errorResponses(400, 403, 404) },
      },
      handler: async (request, reply) => {
        const file = await readFileContent(request.serviceContext, services(), { ...request.params, ...request.query });
        return reply
          // why a charset only for text: text uploads were checked to be UTF-8; the rest is binary.
          .type(file.mimetype.startsWith('text/') ? `${file.mimetype}; charset=utf-8` : file.mimetype)
          .header('content-length', file.size)
          .header('cache-control', 'private, max-age=3600')
          .headers(fileResponseHeaders(file.mimetype, file.filename))
          .send(file.stream);
      },
    });
  });
};

/**
 * Headers that keep a served file from running as a page of this origin: the browser must not guess another
 * type (nosniff), only raster images and PDF are shown inline, and even an opened file gets a sandbox without
 * script or any other loads (CSP).
 */
export function fileResponseHeaders(mimetype: string, filename: string): Record<string, string> {
  return {
    'x-content-type-options': 'nosniff',
    'content-disposition': contentDisposition(isInlineMimetype(mimetype) ? 'inline' : 'attachment', filename),
    'content-security-policy': "default-src 'none'; sandbox",
  };
}

/** RFC 6266 with an ASCII fallback and RFC 5987's filename* for anything else. */
export function contentDisposition(type: 'inline' | 'attachment', filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  if (ascii === filename) return `${type}; filename="${ascii}"`;
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export default fileRoutes;
