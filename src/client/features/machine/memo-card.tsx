/**
 * The memo card of the machine overview (part 1 §2.1, §5, §7): the machine's note from the mirror, edited in a
 * text area and saved through the declaration `updateEquipmentMemo` — into the mirror and the outbox at once, so
 * it works offline. Save is disabled while the text is empty or unchanged (§5, trimmed as the server stores it).
 * Without the equipment update permission the card only shows the text.
 */
import { Box, Button, Card, Field, Heading, HStack, Skeleton, Stack, Text, Textarea } from '@chakra-ui/react';
import { Save } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MEMO_MAX } from '../../../shared/api/equipment';
import { updateEquipmentMemo } from '../../../shared/mutations/machine-memo';
import { MutationInputError } from '../../../shared/mutations/mutation';
import { NotSyncedBadge } from '../../components/not-synced-badge';
import { currentLanguage } from '../../lib/i18n';
import { useMayRun } from '../../lib/use-permission';
import { useMachineMemo } from '../../sync/machine-mirror';
import { mutate } from '../../sync/mutate';
import { isQuotaExceeded, useWriteContext } from '../../sync/use-write-context';


export function MemoCard({ equipmentnodeid }: { equipmentnodeid: string }) {
  const { t } = useTranslation();
  const headingId = useId();
  const context = useWriteContext();
  const canUpdate = useMayRun(updateEquipmentMemo);
  const stored = useMachineMemo(equipmentnodeid);
  // null = the user has not typed since the last save: the area follows the mirror (a pull may bring another
  // device's memo). Once typed, the draft is the user's and a sync never replaces it.
  const [draft, setDraft] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const current = stored?.memo ?? '';
  const value = draft ?? current;
  const trimmed = value.trim();
  const canSave = canUpdate && context !== null && draft !== null && trimmed !== '' && trimmed !== current.trim() && !saving;

  const edit = (text: string) => {
    setDraft(text);
    setSaved(false);
    setFieldError(null);
    setError(null);
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!canSave || !context) return;
    setSaving(true);
    try {
      await mutate(context, updateEquipmentMemo, { params: { id: equipmentnodeid }, body: { lang: currentLanguage(), equipmentnodeid, memo: value } });
      setDraft(null);
      setSaved(true);
    } catch (failure) {
      if (failure instanceof MutationInputError) {
        // The memo's only rule is its length; any other field would be this screen's bug, not the user's input.
        if (failure.fieldErrors().memo) setFieldError(t('machine.memo.tooLong', { max: MEMO_MAX.toLocaleString(currentLanguage()) }));
        else setError(t('machine.memo.failed'));
      } else {
        setError(isQuotaExceeded(failure) ? t('sync.errors.quota') : t('machine.memo.failed'));
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card.Root as="section" variant="outline" bg="bg.panel" aria-labelledby={headingId} data-testid="memo-card">
      <Card.Header>
        {/* why the height: the heading lines up with the open notifications' beside it, whose row holds a 44 px button. */}
        <HStack justify="space-between" gap="3" flexWrap="wrap" minH="11">
          <Heading as="h3" size="lg" id={headingId}>
            {t('machine.memo.title')}
          </Heading>
          {stored?.pending && <NotSyncedBadge />}
        </HStack>
      </Card.Header>
      <Card.Body pt="2">
        {stored === undefined && <Skeleton h="24" />}
        {stored !== undefined && !canUpdate && (
          <Text whiteSpace="pre-wrap" color={current ? 'fg' : 'fg.muted'} data-testid="memo-text">
            {current || t('machine.memo.empty')}
          </Text>
        )}
        {stored !== undefined && canUpdate && (
          <Stack asChild gap="3">
            <form onSubmit={save} noValidate>
              <Field.Root invalid={fieldError !== null}>
                <Field.Label srOnly>{t('machine.memo.label')}</Field.Label>
                <Textarea
                  value={value}
                  onChange={(event) => edit(event.target.value)}
                  placeholder={t('machine.memo.placeholder')}
                  size="lg"
                  rows={5}
                  autoresize
                  maxH="60vh"
                />
                {fieldError && <Field.ErrorText>{fieldError}</Field.ErrorText>}
              </Field.Root>
              {error && (
                <Text color="fg.error" role="alert">
                  {error}
                </Text>
              )}
              <HStack justify="space-between" gap="3" flexWrap="wrap-reverse">
                <Box aria-live="polite" minH="5" flex="1" minW="0">
                  {saved && (
                    <Text textStyle="sm" color="fg.muted" data-testid="memo-saved">
                      {stored?.pending ? t('machine.memo.queued') : t('machine.memo.saved')}
                    </Text>
                  )}
                </Box>
                <Button type="submit" colorPalette="brand" disabled={!canSave} loading={saving} loadingText={t('machine.memo.saving')} ms="auto">
                  <Save aria-hidden />
                  {t('machine.memo.save')}
                </Button>
              </HStack>
            </form>
          </Stack>
        )}
      </Card.Body>
    </Card.Root>
  );
}
