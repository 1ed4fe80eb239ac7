import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createWorkflow, deleteWorkflow, updateWorkflow } from '../../../shared/mutations/workflows';
import { createWorkflow as createService, deleteWorkflow as deleteService, updateWorkflow as updateService } from '../../services/workflow-service';
import { writeRoute } from '../declared-route';

/**
 * Solutions (Maßnahmen) on notifications, spec part 1 §2.2, §2.3, §6, §7; feature key `notification.workflow`
 * (create, update, delete). Reading them is the pull (kinds `workflows`, `workflowsteps`); files of a solution
 * are POST /attachments with `isattachmentof` = its step.
 */
const workflowRoutes: FastifyPluginAsyncZod = async (app) => {
  writeRoute(app, createWorkflow, {
    tags: ['workflows'],
    summary: 'Document a solution on a notification: the workflow and its first step (title_workflow, description)',
    status: 201,
    errors: [400, 401, 403, 404, 409, 410],
    handler: (context, actor, { body }) => createService(context, actor, body),
  });

  writeRoute(app, updateWorkflow, {
    tags: ['workflows'],
    summary: 'Change the title or description of a solution; only the fields sent change',
    errors: [400, 401, 403, 404],
    bodyId: 'workflownodeid',
    handler: (context, actor, { params, body }) => updateService(context, actor, params.id, body),
  });

  writeRoute(app, deleteWorkflow, {
    tags: ['workflows'],
    summary: 'Delete a solution with its steps and their attachments (tombstones)',
    errors: [400, 401, 403, 404],
    bodyId: 'nodeid',
    handler: (context, actor, { params }) => deleteService(context, actor, params.id),
  });
};

export default workflowRoutes;
