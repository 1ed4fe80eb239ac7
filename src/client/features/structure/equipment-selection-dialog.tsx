/**
 * Equipment selection dialog (spec part 2 §2.6): search over name, equipment ID, brand and type with the matches
 * highlighted, the live count, a checkbox list with the separator 'Nicht verknüpfte Geräte', 'Abbrechen' and
 * 'Auswahl speichern'. It only chooses: the form that opened it saves the moves (part 2 §4) with its own submit.
 */
import { Box, Button, Checkbox, Flex, Input, InputGroup, Separator, Stack, Text } from '@chakra-ui/react';
import { Search } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppDialog } from '../../components/app-dialog';
import { withToggled } from '../../lib/sets';
import { highlightParts, searchableTexts, selectionCount, selectionList, type SelectableEquipment } from './equipment-selection';

export interface EquipmentSelectionDialogProps {
  open: boolean;
  /** Every machine of the organisation. */
  equipment: readonly SelectableEquipment[];
  /** Checked when the dialog opens. */
  selected: readonly string[];
  /** The area's or pool's name, for the title. */
  targetName: string;
  onSave(selected: string[]): void;
  onClose(): void;
}

export function EquipmentSelectionDialog({ open, equipment, selected, targetName, onSave, onClose }: EquipmentSelectionDialogProps) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const [checked, setChecked] = useState<Set<string>>(() => new Set(selected));

  // Each opening starts from the form's current selection and an empty search.
  useEffect(() => {
    if (!open) return;
    setChecked(new Set(selected));
    setQuery('');
  }, [open, selected]);

  const { linked, unlinked } = selectionList(equipment, query);
  const count = selectionCount(linked.length + unlinked.length, checked.size, query);
  const toggle = (nodeid: string, on: boolean) => setChecked((current) => withToggled(current, nodeid, on));

  const row = (item: SelectableEquipment) => (
    <Box as="li" key={item.nodeid} borderBottomWidth="1px" borderColor="border.muted">
      <Checkbox.Root checked={checked.has(item.nodeid)} onCheckedChange={(details) => toggle(item.nodeid, details.checked === true)} size="lg" w="full" py="2" px="1" minH="14" alignItems="center" data-testid="selection-item">
        <Checkbox.HiddenInput />
        <Checkbox.Control />
        <Checkbox.Label flex="1" minW="0">
          <Text fontWeight="medium" truncate>
            <Highlighted text={item.name} query={query} />
          </Text>
          <Text textStyle="sm" color="fg.muted" truncate>
            {searchableTexts(item)
              .slice(1)
              .map((text, index) => (
                <Box as="span" key={index}>
                  {index > 0 && ' · '}
                  <Highlighted text={text} query={query} />
                </Box>
              ))}
            {item.location && ` — ${item.location}`}
          </Text>
        </Checkbox.Label>
      </Checkbox.Root>
    </Box>
  );

  return (
    <AppDialog
      open={open}
      onClose={onClose}
      size={{ base: 'full', md: 'lg' }}
      scrollBehavior="inside"
      testId="equipment-selection-dialog"
      closeLabel={t('equipmentSelection.close')}
      title={t('equipmentSelection.title', { name: targetName })}
      headerGap="3"
      header={
        <>
          <InputGroup startElement={<Search size={18} aria-hidden />}>
            <Input
              type="search"
              value={query}
              onChange={(event) => setQuery(event.target.value)}
              placeholder={t('equipmentSelection.searchPlaceholder')}
              aria-label={t('equipmentSelection.searchPlaceholder')}
              data-testid="selection-search"
            />
          </InputGroup>
          <Text color="fg.muted" aria-live="polite" data-testid="selection-count">
            {t(count.key, count.values)}
          </Text>
        </>
      }
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            {t('equipmentSelection.cancel')}
          </Button>
          <Button colorPalette="brand" onClick={() => onSave(equipment.filter((item) => checked.has(item.nodeid)).map((item) => item.nodeid))} data-testid="selection-save">
            {t('equipmentSelection.save')}
          </Button>
        </>
      }
    >
      {linked.length + unlinked.length === 0 && <Text color="fg.muted">{t('equipmentSelection.noResults')}</Text>}
      <Stack as="ul" gap="0" listStyleType="none" m="0" p="0">
        {linked.map(row)}
      </Stack>
      {unlinked.length > 0 && (
        <>
          <Flex align="center" gap="3" mt={linked.length > 0 ? '4' : '0'} mb="1" data-testid="selection-unlinked-separator">
            <Text textStyle="sm" fontWeight="semibold" color="fg.muted" flexShrink={0}>
              {t('equipmentSelection.unlinked')}
            </Text>
            <Separator flex="1" />
          </Flex>
          <Stack as="ul" gap="0" listStyleType="none" m="0" p="0">
            {unlinked.map(row)}
          </Stack>
        </>
      )}
    </AppDialog>
  );
}

function Highlighted({ text, query }: { text: string; query: string }) {
  return (
    <>
      {highlightParts(text, query).map((part, index) =>
        part.match ? (
          <Box as="mark" key={index} bg="yellow.200" color="inherit" borderRadius="xs" px="0.5" data-testid="selection-highlight">
            {part.text}
          </Box>
        ) : (
          <span key={index}>{part.text}</span>
        ),
      )}
    </>
  );
}
