/**
 * /create-equipment-class and /edit-equipment-class (spec part 2 §2.1; fields not shown): a class has a name,
 * localised; the form writes it in the current language and keeps the other language's text.
 */
import { Alert, Box, Button, Card, Field, Flex, Heading, Input } from '@chakra-ui/react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { isQuotaExceeded } from '../../db/local-db';
import { PENDING_DELETE } from '../../sync/mirror-fields';
import { createEquipmentClass, updateEquipmentClass } from '../../sync/repositories/brands';
import { useMirrorRows, useWriteContext } from '../../sync/use-mirror';
import { usePermission } from '../auth/use-permission';
import { localizedText } from './equipment-form-model';
import { CATALOGUE_FORM_EXIT, useRecordTarget } from './use-record-target';

export function EquipmentClassFormScreen() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const context = useWriteContext();
  const { mode, nodeid } = useRecordTarget('/edit-equipment-class');
  const canWrite = usePermission('equipment', mode === 'add' ? 'create' : 'update');
  const classes = useMirrorRows('equipmentclasses');
  const record = nodeid ? classes?.find((row) => row.nodeid === nodeid && !row[PENDING_DELETE]) : undefined;
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const initialised = useRef(false);
  useEffect(() => {
    if (initialised.current || !record) return;
    initialised.current = true;
    setName(localizedText(record.name, i18n.language));
  }, [record, i18n.language]);

  if (mode === 'edit' && classes !== undefined && !record) {
    return (
      <Alert.Root status="warning" m="6" maxW="3xl" data-testid="class-not-found">
        <Alert.Indicator />
        <Alert.Title>{t('brands.classNotFound')}</Alert.Title>
      </Alert.Root>
    );
  }
  const submit = async () => {
    if (!context || !name.trim() || busy) return;
    setBusy(true);
    setError(null);
    try {
      if (record) await updateEquipmentClass(context, record, { name, lang: i18n.language });
      else await createEquipmentClass(context, { name, lang: i18n.language });
      void navigate(CATALOGUE_FORM_EXIT);
    } catch (cause) {
      setError(isQuotaExceeded(cause) ? t('sync.errors.quota') : t('equipment.errors.saveFailed'));
      setBusy(false);
    }
  };
  return (
    <Box p={{ base: '4', md: '6' }} maxW="3xl">
      <Card.Root variant="outline">
        <Card.Body gap="5" as="form" onSubmit={(event) => (event.preventDefault(), void submit())}>
          <Heading as="h2" size="lg">
            {t(mode === 'add' ? 'pages.createEquipmentClass' : 'pages.editEquipmentClass')}
          </Heading>
          <Field.Root required invalid={name.trim() === ''} disabled={busy || !canWrite}>
            <Field.Label>
              {t('brands.className')}
              <Field.RequiredIndicator />
            </Field.Label>
            <Input data-testid="class-name" value={name} onChange={(event) => setName(event.target.value)} />
          </Field.Root>
          {error && (
            <Alert.Root status="error">
              <Alert.Indicator />
              <Alert.Title>{error}</Alert.Title>
            </Alert.Root>
          )}
          <Flex gap="3" justify="flex-end">
            <Button variant="ghost" onClick={() => void navigate(CATALOGUE_FORM_EXIT)} disabled={busy}>
              {t('equipment.cancel')}
            </Button>
            <Button type="submit" colorPalette="brand" disabled={!name.trim() || !canWrite} loading={busy} data-testid="class-submit">
              {t(mode === 'add' ? 'brands.createClass' : 'brands.save')}
            </Button>
          </Flex>
        </Card.Body>
      </Card.Root>
    </Box>
  );
}
