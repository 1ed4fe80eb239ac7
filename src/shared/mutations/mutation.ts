import { z } from 'zod';
import { SYNC_KIND_FEATURES, type SyncKind } from '../api/sync';
import { can, permits, type FeatureKey, type Permission, type PermissionSubject } from '../permissions';

/**
 * One user action that writes, declared once and used by both sides (docs/sync.md § Mutations; the idea is
 * zbugs' shared mutators, adapted to a REST API):
 *
 * - the client validates the input with `params`/`body`, computes the mirror change with `apply` and queues the
 *   request (`src/client/sync/mutate.ts`);
 * - the server registers its route from `method`, `route`, `params`, `body` and `permission`
 *   (`src/server/routes/declared-route.ts`), and its service applies the same `apply` to the row it locked,
 *   adding what only the server does (tenant scope, version, tombstones, record history, side effects);
 * - the sync panel describes a queued entry with the i18n text `sync.describe.<name>` and `describe`.
 *
 * Each outbox entry changes exactly one mirror row (`kind` + `target`): a pull never overwrites another write's
 * pending field, and a refused write restores only its own row.
 */

/** A row of a synced kind as the change feed sends it and the mirror stores it (src/shared/rows). */
export interface SyncRow {
  nodeid: string;
  version?: number;
  [field: string]: unknown;
}

export type MutationMethod = 'POST' | 'PUT' | 'DELETE';

/** What both sides pass to `apply`: the time of the change and who makes it. */
export interface ApplyContext {
  /** Epoch ms: the device's time on the client, the server's on the server. */
  now: number;
  usernodeid: string;
}

/** Path parameters and body of a request, as the route receives them (after validation). */
export interface MutationArgs<P, B> {
  params: P;
  body: B;
}

/**
 * What the sync panel's text `sync.describe.<action>` shows. `{{name}}` is the subject's name (its `name`, `title`
 * or `model`, localised): the written row itself (default) or one it refers to. `values` is the written row as
 * this entry leaves it (the mirror row with the entry's values over it).
 */
export interface DescribeSpec<P, B> {
  /** Another row whose name the text shows (a notification's machine, a reading's counter); undefined: none. */
  subject?: (args: MutationArgs<P, B>, values: Record<string, unknown>) => { kind: SyncKind; nodeid: string } | undefined;
  /** Further text parameters (`status`: a notification status, put into words by the panel). */
  params?: (args: MutationArgs<P, B>, values: Record<string, unknown>) => Record<string, string | number | null>;
  /**
   * The subject hangs on a machine (its `equipmentnodeid`) and is called alike on every machine ("Betriebsstunden"):
   * the text names that machine too (`{{machine}}`).
   */
  machine?: true;
  /**
   * The subject is a counter: the text shows its unit's symbol too (`{{unitsymbol}}`, empty when it has none; not
   * `unit`, which the number format would take as its Intl option).
   */
  unit?: true;
}

export interface MutationDefinition<Name extends string, K extends SyncKind, PS extends z.ZodType, BS extends z.ZodType> {
  /** The action's name: the outbox entry's `action`, the i18n key `sync.describe.<name>`. Never renamed (queued entries carry it). */
  name: Name;
  method: MutationMethod;
  /** The route below /api in Fastify's notation, e.g. `/notifications/:nodeid`. */
  route: string;
  params: PS;
  body: BS;
  /**
   * What the server checks before running it and the UI mirrors to hide the control. `authenticated`: any
   * signed-in user at the route, when the flag depends on the record (a shift plan: its owner's feature), on whose
   * it is (a user's own subscriptions need none), or on the action a shared step serves (a file registration):
   * the service checks it then. `anyOf`: any one of several flags (a file registration: any write that takes a
   * file), checked before the body like a single flag.
   */
  permission: Permission | 'authenticated';
  /** The kind of the mirror row the action writes. */
  kind: K;
  /** The row's nodeid. */
  target: (args: MutationArgs<z.output<PS>, z.output<BS>>) => string;
  /** The action makes the row (the mirror row is then this entry's alone until the server acknowledged it). */
  creates?: boolean;
  /** The action removes the row (the mirror marks it until the server's tombstone arrives). */
  deletes?: boolean;
  /**
   * A create's body field, named alike in the row, that names the machine the new row belongs to. Declared where a
   * create the server refused because that machine is gone (deleted while the change waited on the device) may be
   * given another machine instead of being lost: the sync panel's "Andere Maschine wählen"
   * (src/client/sync/dead-letters.ts). The record keeps its id, so what was written on it is sent again after it.
   */
  machineField?: keyof z.output<BS> & string;
  /**
   * The ids of further rows a create makes besides its own (a solution's first step, which its photos name): a
   * refused change naming one of them builds on this create (src/client/sync/dead-letters.ts `followersOf`).
   */
  alsoCreates?: (body: z.output<BS>) => string[];
  /**
   * The change to the row, as fields of the row shape (null = unset), computed from the current row (undefined
   * when `creates`) and the input. Pure: the client runs it on its mirror row, the server on the row it locked.
   * Omitted for deletes.
   */
  apply?: (current: SyncRow | undefined, args: MutationArgs<z.output<PS>, z.output<BS>>, context: ApplyContext) => Record<string, unknown>;
  /**
   * Other action names stored for this declaration (an older name, or a variant the panel words differently);
   * `actionOf` picks one per call. Both default to `name`.
   */
  aliases?: readonly string[];
  actionOf?: (args: MutationArgs<z.output<PS>, z.output<BS>>) => string;
  describe?: DescribeSpec<z.output<PS>, z.output<BS>>;
}

// why `any` in the erased form: registries hold declarations of every input type, and a function parameter is
// contravariant, so no narrower type accepts them all.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyMutation = MutationDefinition<string, SyncKind, z.ZodType<any, any>, z.ZodType<any, any>>;

/** Declares an action; only checks and returns it, so the literal types survive. */
export function defineMutation<Name extends string, K extends SyncKind, PS extends z.ZodType, BS extends z.ZodType>(
  definition: MutationDefinition<Name, K, PS, BS>,
): MutationDefinition<Name, K, PS, BS> {
  if (!definition.deletes && !definition.apply) throw new Error(`mutation ${definition.name} needs apply`);
  return definition;
}

/**
 * "Only the fields sent change": the `keys` of a body that were sent (not undefined), under the same names, for an
 * `apply` whose row fields are named like the body's.
 */
export function sentFields<Body extends object, Key extends keyof Body>(body: Body, keys: readonly Key[]): Partial<Pick<Body, Key>> {
  return Object.fromEntries(keys.filter((key) => body[key] !== undefined).map((key) => [key, body[key]])) as Partial<Pick<Body, Key>>;
}

/** The input a caller passes: what the schemas accept (before defaults and transforms). */
export type MutationInput<M extends AnyMutation> = MutationArgs<z.input<M['params']>, z.input<M['body']>>;
/** What `apply` and the service get: the schemas' output. */
export type MutationParsed<M extends AnyMutation> = MutationArgs<z.output<M['params']>, z.output<M['body']>>;

/** No path parameters. */
export const noParams = z.object({});
/** The record's id as the only path parameter. */
export const nodeidParams = z.object({ nodeid: z.uuid() });
/** The same, named `id` as most routes name it (`/sites/:id`). */
export const idParams = z.object({ id: z.uuid() });

/**
 * The id of the row a create makes. The device chooses it, so the mirror row is the row the server stores and a
 * resend finds the row it made; an entry without one could never be matched to its answer.
 */
export function deviceMadeId(nodeid: string | undefined, action: string): string {
  if (!nodeid) throw new Error(`${action}: the device must choose the nodeid`);
  return nodeid;
}

/** What a builder below leaves to the declaration: all but what its kind of action fixes. */
type DeclaredPart<Name extends string, K extends SyncKind, PS extends z.ZodType, BS extends z.ZodType, Fixed extends keyof MutationDefinition<Name, K, PS, BS>> = Omit<
  MutationDefinition<Name, K, PS, BS>,
  Fixed
>;

/** A create (`POST <route>`, no path parameters) of the row whose id the body's `nodeid` carries, chosen on the device. */
export function defineCreate<Name extends string, K extends SyncKind, BS extends z.ZodType<{ nodeid?: string | undefined }>>(
  definition: DeclaredPart<Name, K, typeof noParams, BS, 'method' | 'params' | 'creates' | 'target'>,
): MutationDefinition<Name, K, typeof noParams, BS> {
  return defineMutation<Name, K, typeof noParams, BS>({ ...definition, method: 'POST', params: noParams, creates: true, target: ({ body }) => deviceMadeId(body.nodeid, definition.name) });
}

type PathIdParams = typeof idParams | typeof nodeidParams;

/** The id the path names, whichever of the two names (`idParams`, `nodeidParams`) the route gives it. */
const pathId = (params: z.output<PathIdParams>): string => ('id' in params ? params.id : params.nodeid);

/** A change (`PUT <route>`) of the record the path names (`params`: `idParams` or `nodeidParams`). */
export function defineUpdate<Name extends string, K extends SyncKind, PS extends z.ZodType & PathIdParams, BS extends z.ZodType>(
  definition: DeclaredPart<Name, K, PS, BS, 'method' | 'target'>,
): MutationDefinition<Name, K, PS, BS> {
  return defineMutation<Name, K, PS, BS>({ ...definition, method: 'PUT', target: ({ params }) => pathId(params) });
}

/** A delete (`DELETE <route>`) of the record the path names; no `apply`: the mirror marks the row until the tombstone. */
export function defineDelete<Name extends string, K extends SyncKind, PS extends z.ZodType & PathIdParams, BS extends z.ZodType>(
  definition: DeclaredPart<Name, K, PS, BS, 'method' | 'target' | 'deletes' | 'apply' | 'creates'>,
): MutationDefinition<Name, K, PS, BS> {
  return defineMutation<Name, K, PS, BS>({ ...definition, method: 'DELETE', deletes: true, target: ({ params }) => pathId(params) });
}

/** The request path below /api (no leading slash) with the parameters filled in: `notifications/<id>`. */
export function mutationPath(definition: Pick<AnyMutation, 'route'>, params: Record<string, unknown>): string {
  return definition.route.replace(/^\//, '').replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => {
    const value = params[name];
    if (typeof value !== 'string' && typeof value !== 'number') throw new Error(`path parameter ${name} missing for ${definition.route}`);
    return encodeURIComponent(String(value));
  });
}

/** One problem with an input, named by its field (the body's field path; `params.x` for a path parameter). */
export interface FieldIssue {
  field: string;
  message: string;
}

/** The input the server would refuse, caught on the device before anything is queued. */
export class MutationInputError extends Error {
  readonly action: string;
  readonly issues: readonly FieldIssue[];

  constructor(action: string, issues: readonly FieldIssue[]) {
    super(`${action}: ${issues.map((issue) => `${issue.field}: ${issue.message}`).join('; ')}`);
    this.name = 'MutationInputError';
    this.action = action;
    this.issues = issues;
  }

  /** The first message per field, for a form. */
  fieldErrors(): Record<string, string> {
    const errors: Record<string, string> = {};
    for (const issue of this.issues) errors[issue.field] ??= issue.message;
    return errors;
  }
}

function issuesOf(error: z.ZodError, prefix: string): FieldIssue[] {
  return error.issues.map((issue) => ({ field: [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || prefix || 'body', message: issue.message }));
}

/** Checks an input against the declaration's schemas, as the route will; throws MutationInputError. */
export function parseMutation<M extends AnyMutation>(definition: M, input: MutationInput<M>): MutationParsed<M> {
  const params = definition.params.safeParse(input.params);
  const body = definition.body.safeParse(input.body);
  if (!params.success || !body.success) {
    throw new MutationInputError(definition.name, [...(params.success ? [] : issuesOf(params.error, 'params')), ...(body.success ? [] : issuesOf(body.error, ''))]);
  }
  return { params: params.data, body: body.data } as MutationParsed<M>;
}

/** The action name an entry made with these arguments carries. */
export function actionName(definition: AnyMutation, args: MutationArgs<unknown, unknown>): string {
  return definition.actionOf?.(args) ?? definition.name;
}

/**
 * The read flags a write needs besides its own permission, by the pull's rule (`SYNC_KIND_FEATURES`): a change or
 * delete needs read of its kind — its answer is the row, and no one changes what they may not see (costs without
 * `notification` read, say) — and a create read of what the new row hangs on: its kind's read flags but its own
 * feature's (a cost needs `notification` read; a fault report needs none, so a profile that may only report faults
 * still can). Checked by the server with the permission (plugins/permissions.ts) and mirrored by `mayRun`.
 */
export function readsNeeded(definition: Pick<AnyMutation, 'permission' | 'kind' | 'creates'>): readonly FeatureKey[] {
  const features: readonly FeatureKey[] = SYNC_KIND_FEATURES[definition.kind];
  if (!definition.creates || definition.permission === 'authenticated' || 'anyOf' in definition.permission) return features;
  const own = definition.permission.feature;
  return features.filter((feature) => feature !== own);
}

/**
 * Whether the declaration's route lets this user run it: its permission and the reads it needs (`readsNeeded`).
 * For `authenticated` routes the service decides per record, so the UI shows the control and the server may still
 * refuse it.
 */
export function mayRun(subject: PermissionSubject, definition: Pick<AnyMutation, 'permission' | 'kind' | 'creates'>): boolean {
  const permitted = definition.permission === 'authenticated' || permits(subject, definition.permission);
  return permitted && readsNeeded(definition).every((feature) => can(subject, feature, 'read'));
}
