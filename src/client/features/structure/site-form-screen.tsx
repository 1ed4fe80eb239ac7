/**
 * /create-site and /edit-site (spec part 2 §2.5): name, street, address addon (stored as siteid), postal code,
 * city, country (names in the UI language). Save stays disabled until the required fields are filled (§5). The
 * record comes from navigation state `{pageType, nodeid}` or `?nodeid=` (so a reload keeps it) and is read from
 * the mirror. Saving and deleting go through the outbox: they work offline.
 * After save: /sites (edit: /sites?sitenodeid={id}); after delete: /sites.
 */
import { Box, Button, Card, Field, Heading, Input, NativeSelect, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import { ArrowLeft } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { createSiteSchema } from '../../../shared/api/sites';
import { nameTaken } from '../../../shared/domain/text';
import { ConfirmDeleteDialog } from '../../components/confirm-delete-dialog';
import { NotFoundNotice } from '../../components/not-found-notice';
import { FormError, FormFooter } from '../../components/form-actions';
import { formatDateTime } from '../../lib/dates';
import { currentLanguage } from '../../lib/i18n';
import { liveFieldErrors } from '../../lib/input-errors';
import { useMayRun, usePermission } from '../../lib/use-permission';
import { createSite as createSiteAction, updateSite as updateSiteAction } from '../../../shared/mutations/structure';
import { recordDraftKey } from '../../stores/kept-form';
import { useKeptTextForm } from '../../stores/kept-text-form';
import { useSessionStore } from '../../stores/session-store';
import { createSite, deleteSite, updateSite, type SiteFormValues } from '../../sync/repositories/sites';
import { useStructureData, type StructureData } from '../../sync/use-structure-data';
import { useLocalWrite } from '../../sync/use-local-write';
import { useWriteContext } from '../../sync/use-write-context';
import { countryOptions } from './country-names';
import { recordIdFrom } from './navigation-state';
import { fellowNames } from './structure-view';

const NEW_SITE: SiteFormValues = { name: '', street: '', siteid: '', zipcode: '', city: '', country: 'DE' };
const REQUIRED: readonly (keyof SiteFormValues)[] = ['name', 'street', 'zipcode', 'city', 'country'];
const SITE_FIELDS = ['name', 'street', 'siteid', 'zipcode', 'city', 'country'] as const satisfies readonly (keyof SiteFormValues)[];
/** What was typed is kept per user and plant ('new' when adding) until saved or cancelled (stores/kept-text-form.ts). */
const SITE_DRAFT_KIND = 'site-form-draft';

export function SiteFormScreen() {
  const { t } = useTranslation();
  const location = useLocation();
  const [params] = useSearchParams();
  const nodeid = recordIdFrom(location.state, params);
  const isEdit = location.pathname === '/edit-site' && nodeid !== null;
  const data = useStructureData();
  const existing = isEdit && data ? data.sites.find((site) => site.nodeid === nodeid) : undefined;

  if (isEdit && (!data || !existing)) {
    return (
      <Stack p={{ base: '4', md: '6', lg: '8' }} maxW="4xl" gap="4">
        {data && data.synced ? <NotFoundNotice text={t('sites.notFound')} back="/sites" /> : <Skeleton h="80" borderRadius="l3" />}
      </Stack>
    );
  }
  // The form is filled once, from the plant as the mirror has it when it opens: later pulls do not overwrite what
  // the user is typing (the save sends only what changed against it).
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const saved: SiteFormValues | null = existing ? { name: text(existing.name), street: text(existing.street), siteid: text(existing.siteid), zipcode: text(existing.zipcode), city: text(existing.city), country: text(existing.country) || 'DE' } : null;
  return <SiteForm key={isEdit ? nodeid : 'new'} nodeid={isEdit ? nodeid : null} saved={saved} data={data} />;
}

/** `data`: the screen's live structure read, passed down (a second live query would read every machine again per change). */
function SiteForm({ nodeid, saved, data }: { nodeid: string | null; saved: SiteFormValues | null; data: StructureData | undefined }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const isEdit = nodeid !== null;
  const context = useWriteContext();
  const legalentitynodeid = useSessionStore((state) => state.session?.legalentitynodeid ?? '');
  const canDelete = usePermission('site', 'delete');
  // The server refuses a save without it; the form says so instead of queuing a change that will be refused.
  const canWrite = useMayRun(isEdit ? updateSiteAction : createSiteAction);
  const language = currentLanguage();
  const countries = useMemo(() => countryOptions(language), [language]);

  // A new plant's country starts as Germany; typed text comes back after a reload (kept-text-form).
  const kept = useKeptTextForm(SITE_DRAFT_KIND, recordDraftKey(nodeid), SITE_FIELDS, saved ?? NEW_SITE);
  const { values, setValues, dropDraft } = kept;
  // The values as the form was filled: a save sends only what the user changed against them (updateSite).
  const filledWith = kept.initial ?? NEW_SITE;
  const [left, setLeft] = useState<ReadonlySet<keyof SiteFormValues>>(new Set());
  const { busy, error, run } = useLocalWrite(t('sites.form.saveFailed'));
  const [confirmOpen, setConfirmOpen] = useState(false);

  const checked = createSiteSchema.safeParse({ ...values, legalentitynodeid, lang: 'de' });
  // Another plant of the name: the two could not be told apart in the pickers and on the dashboard. An edit that
  // keeps the name it was filled with is not held up by a duplicate that was there before.
  const taken = data !== undefined && nameTaken(values.name, fellowNames(data, language, { kind: 'site', nodeid: isEdit ? nodeid : null }), isEdit ? filledWith.name : null);
  const valid = checked.success && !taken;
  // Why the save stays disabled, under the field: a name or postcode too long, a name of spaces only, a name taken.
  const fieldErrors: Record<string, string> = { ...(taken ? { name: t('sites.form.nameTaken') } : {}), ...liveFieldErrors(checked, values, t) };
  const set = (field: keyof SiteFormValues) => (event: { target: { value: string } }) => setValues((current) => ({ ...current, [field]: event.target.value }));
  const save = async () => {
    if (!context || !valid || !canWrite) return;
    const editing = isEdit && nodeid ? nodeid : null;
    const done = await run(() => (editing ? updateSite(context, editing, values, filledWith) : createSite(context, legalentitynodeid, values)));
    if (!done) return;
    dropDraft();
    navigate(editing ? `/sites?sitenodeid=${editing}` : '/sites');
  };

  const remove = async () => {
    if (!context || !nodeid) return;
    if (await run(() => deleteSite(context, nodeid))) {
      dropDraft();
      navigate('/sites');
    } else setConfirmOpen(false);
  };

  // A required field left empty says so once the user has been in it (the save button alone would not say why).
  const errorOf = (name: keyof SiteFormValues) => fieldErrors[name] ?? (left.has(name) && REQUIRED.includes(name) && values[name].trim() === '' ? t('validation.required') : undefined);
  const field = (name: keyof SiteFormValues, label: string, props: { autoComplete?: string; inputMode?: 'numeric' } = {}) => (
    <Field.Root required={REQUIRED.includes(name)} disabled={busy || !canWrite} invalid={errorOf(name) !== undefined}>
      <Field.Label>
        {label}
        <Field.RequiredIndicator />
      </Field.Label>
      <Input value={values[name]} onChange={set(name)} onBlur={() => setLeft((current) => new Set(current).add(name))} name={name} data-testid={`site-${name}`} {...props} />
      {errorOf(name) !== undefined && <Field.ErrorText data-testid={`site-${name}-error`}>{errorOf(name)}</Field.ErrorText>}
    </Field.Root>
  );

  return (
    <Stack gap="5" p={{ base: '4', md: '6', lg: '8' }} maxW="4xl">
      <Button asChild variant="ghost" alignSelf="start">
        <RouterLink to={isEdit && nodeid ? `/sites?sitenodeid=${nodeid}` : '/sites'}>
          <ArrowLeft aria-hidden />
          {t('sites.back')}
        </RouterLink>
      </Button>
      <Heading as="h2" size="xl">
        {isEdit ? t('pages.editSite') : t('pages.createSite')}
      </Heading>
      <Card.Root variant="outline" bg="bg.panel" as="form" onSubmit={(event: React.FormEvent) => { event.preventDefault(); void save(); }} aria-label={isEdit ? t('pages.editSite') : t('pages.createSite')}>
        <Card.Body gap="5">
          {kept.restoredAt !== null && (
            <Text textStyle="sm" color="fg.muted" data-testid="site-draft-restored">
              {t('notificationForm.draftRestored', { date: formatDateTime(kept.restoredAt) })}
            </Text>
          )}
          <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
            <Box gridColumn={{ sm: 'span 2' }}>{field('name', t('sites.form.name'))}</Box>
            {field('street', t('sites.form.street'), { autoComplete: 'street-address' })}
            {field('siteid', t('sites.form.siteid'))}
            {field('zipcode', t('sites.form.zipcode'), { autoComplete: 'postal-code' })}
            {field('city', t('sites.form.city'), { autoComplete: 'address-level2' })}
            <Field.Root required disabled={busy || !canWrite} gridColumn={{ sm: 'span 2' }}>
              <Field.Label>
                {t('sites.form.country')}
                <Field.RequiredIndicator />
              </Field.Label>
              <NativeSelect.Root size="lg">
                <NativeSelect.Field value={values.country} onChange={set('country')} data-testid="site-country">
                  <option value="">{t('sites.form.countryPlaceholder')}</option>
                  {countries.map((country) => (
                    <option key={country.code} value={country.code}>
                      {country.name}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            </Field.Root>
          </SimpleGrid>
          {!canWrite && <FormError error={t('sites.form.notAllowed')} />}
          <FormError error={error} />
        </Card.Body>
        <FormFooter
          deleteLabel={isEdit && canDelete ? t('sites.form.delete') : undefined}
          onDelete={() => setConfirmOpen(true)}
          submitLabel={isEdit ? t('sites.form.saveChanges') : t('sites.form.submitCreate')}
          cancelTo={isEdit && nodeid ? `/sites?sitenodeid=${nodeid}` : '/sites'}
          onCancel={dropDraft}
          canSubmit={valid && !!context && canWrite}
          busy={busy}
          deleteTestId="site-delete"
          submitTestId="site-save"
        />
      </Card.Root>
      <ConfirmDeleteDialog
        open={confirmOpen}
        title={t('sites.form.deleteTitle')}
        text={t('sites.form.deleteText', { name: values.name })}
        onCancel={() => setConfirmOpen(false)}
        onConfirm={() => void remove()}
        busy={busy}
      />
    </Stack>
  );
}
