import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createFaq, deleteFaq, updateFaq } from '../../../shared/mutations/faqs';
import { createFaq as createFaqService, deleteFaq as deleteFaqService, updateFaq as updateFaqService } from '../../services/faq-service';
import { writeRoute } from '../declared-route';

/**
 * FAQs of machines and equipment types, spec part 1 §2.3, §6, §7; feature key `equipment.faq` (create, update,
 * delete). Reading them is the pull (kind `faqs`); attachments of a FAQ are POST /attachments with
 * `isattachmentof` = the FAQ.
 */
const faqRoutes: FastifyPluginAsyncZod = async (app) => {
  writeRoute(app, createFaq, {
    tags: ['faqs'],
    summary: 'Create a FAQ on a machine (specifier internalfaq) or an equipment type (equipmenttypefaq)',
    status: 201,
    errors: [400, 401, 403, 404, 409, 410],
    handler: (context, actor, { body }) => createFaqService(context, actor, body),
  });

  writeRoute(app, updateFaq, {
    tags: ['faqs'],
    summary: 'Change the question or answer of a FAQ; only the fields sent change',
    errors: [400, 401, 403, 404],
    bodyId: 'questionanswernodeid',
    handler: (context, actor, { params, body }) => updateFaqService(context, actor, params.id, body),
  });

  writeRoute(app, deleteFaq, {
    tags: ['faqs'],
    summary: 'Delete a FAQ with its attachments (tombstones)',
    errors: [400, 401, 403, 404],
    bodyId: 'nodeid',
    handler: (context, actor, { params }) => deleteFaqService(context, actor, params.id),
  });
};

export default faqRoutes;
